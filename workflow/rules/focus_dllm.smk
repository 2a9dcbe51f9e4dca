# focus_dllm: FOCUS token eviction for block-diffusion LM decoding against dense threshold decoding
# (spec: shared/papers/focus_dllm.md).
# Per seed: examples (at paper scale the paper's evaluation sets) -> train (a small block-diffusion LM, the user's
# model folder, or a pointer to the paper's SDAR model) -> decode_{decoder}
# (quality and compute) and observe (the correlation analysis); over the seeds -> tables -> figures, verdict;
# timing (throughput, the first seed's model) -> timing_verdict, and with depth (FOCUS against dense over depth)
# -> timing_figures beside. Each rule calls one function of icml26.focus_dllm.rules (see docs/ARCHITECTURE.md).

FD = register("focus_dllm")
FD_DECODERS = [d["name"] for d in FD.cfg["decoders"]]
FD_COMPARE = {"dense": FD.cfg["compare"]["dense"], "focus": FD.cfg["compare"]["focus"]}
FD_SEEDS = FD.cfg["seeds"]
FD_RUN = f"{FD.data}/seed{{seed}}"  # one seed's examples, model and decodes


rule focus_dllm:
    """Target: every focus_dllm output at the configured scale."""
    input:
        paper_outputs(FD),
        expand(f"{FD.results}/figures/{{name}}.png", name=["quality", "recall"]),
        f"{FD.timing}/claims.json",
        f"{FD.timing}/figures/throughput.png",
        f"{FD.timing}/figures/depth.png",


rule focus_dllm_examples:
    input:
        benchmark_sets=list(FD.cfg.get("benchmarks", {}).values()),  # the paper's evaluation sets (paper scale)
    output:
        examples_file=f"{FD_RUN}/examples.json",
    params:
        func="icml26.focus_dllm.rules:examples",
        tasks=FD.cfg["tasks"],
        benchmarks=FD.cfg.get("benchmarks", {}),
        lengths=FD.cfg["lengths"],
        counts=FD.cfg["examples"],
        layout=FD.cfg["layout"],
        seed=lambda w: int(w.seed),
    script:
        CALL


rule focus_dllm_train:
    input:
        examples_file=rules.focus_dllm_examples.output.examples_file,
        checkpoint=[FD.cfg["model"]["checkpoint"]] if FD.cfg["model"]["checkpoint"] else [],
    output:
        model_folder=directory(f"{FD_RUN}/model"),
        loss_file=f"{FD_RUN}/train_loss.csv",
    threads: paper_threads(FD)
    resources:
        **job_resources(FD, gpu=True),
    params:
        func="icml26.focus_dllm.rules:train",
        layout=FD.cfg["layout"],
        model=FD.cfg["model"],
        training=FD.cfg["training"],
        seed=lambda w: int(w.seed),
        device=config["device"],
    script:
        CALL


rule focus_dllm_decode:
    input:
        examples_file=rules.focus_dllm_examples.output.examples_file,
        model_folder=rules.focus_dllm_train.output.model_folder,
    output:
        results_file=f"{FD_RUN}/runs/{{decoder}}.csv",
    wildcard_constraints:
        decoder="|".join(FD_DECODERS),
        seed=r"\d+",
    threads: paper_threads(FD)
    resources:
        gpu=gpus(FD),
    params:
        func="icml26.focus_dllm.rules:decode_quality",
        decoder=lambda w: next(d for d in FD.cfg["decoders"] if d["name"] == w.decoder),
        layout=FD.cfg["layout"],
        batch_size=FD.cfg["decode_batch"],
        seed=lambda w: int(w.seed),
        device=config["device"],
    script:
        CALL


rule focus_dllm_observe:
    input:
        examples_file=rules.focus_dllm_examples.output.examples_file,
        model_folder=rules.focus_dllm_train.output.model_folder,
    output:
        correlation_file=f"{FD_RUN}/correlation.csv",
        recall_file=f"{FD_RUN}/recall.csv",
    threads: paper_threads(FD)
    resources:
        gpu=gpus(FD),
    params:
        func="icml26.focus_dllm.rules:observe",
        threshold=FD.cfg["analysis"]["threshold"],
        alphas=FD.cfg["analysis"]["alphas"],
        layout=FD.cfg["layout"],
        batch_size=FD.cfg["decode_batch"],
        seed=lambda w: int(w.seed),
        device=config["device"],
    script:
        CALL


rule focus_dllm_tables:
    input:
        quality=expand(f"{FD.data}/seed{{seed}}/runs/{{decoder}}.csv", decoder=FD_DECODERS, seed=FD_SEEDS),
        correlation=expand(rules.focus_dllm_observe.output.correlation_file, seed=FD_SEEDS),
        recall=expand(rules.focus_dllm_observe.output.recall_file, seed=FD_SEEDS),
    output:
        quality_table=table_report(FD, "quality"),
        summary_table=table_report(FD, "summary"),
        correlation_table=table_report(FD, "correlation"),
        recall_table=table_report(FD, "recall"),
    params:
        func="icml26.focus_dllm.rules:tables",
    script:
        CALL


rule focus_dllm_figures:
    input:
        summary_table=rules.focus_dllm_tables.output.summary_table,
        recall_table=rules.focus_dllm_tables.output.recall_table,
        quality_table=rules.focus_dllm_tables.output.quality_table,
        correlation_table=rules.focus_dllm_tables.output.correlation_table,
    output:
        **figure_outputs(FD, "quality", "recall", captions={"quality": "quality_figure", "recall": "recall_figure"}),
    params:
        **FD_COMPARE,
        func="icml26.focus_dllm.rules:figures",
    script:
        CALL


rule focus_dllm_verdict:
    input:
        quality_table=rules.focus_dllm_tables.output.quality_table,
        correlation_table=rules.focus_dllm_tables.output.correlation_table,
        recall_table=rules.focus_dllm_tables.output.recall_table,
    output:
        claims=paper_report(FD, "claims.json", "claims", "verdict"),
        metrics=f"{FD.results}/metrics.json",
    params:
        **FD_COMPARE,
        func="icml26.focus_dllm.rules:verdict",
        substitution=substitution(FD, "model.checkpoint"),
        alpha=FD.cfg["analysis"]["verdict_alpha"],
    script:
        CALL


rule focus_dllm_timing:
    input:
        examples_file=f"{FD.data}/seed{FD_SEEDS[0]}/examples.json",
        model_folder=f"{FD.data}/seed{FD_SEEDS[0]}/model",
    output:
        throughput_table=f"{FD.timing}/throughput.csv",
        machine=f"{FD.timing}/machine.json",
    priority: -1  # only measures: the jobs on the way to the verdict go first
    threads: paper_threads(FD)
    resources:
        gpu=gpus(FD),
    params:
        func="icml26.focus_dllm.rules:throughput",
        decoders=lambda w: [d for d in FD.cfg["decoders"] if d["name"] in FD.cfg["throughput"]["decoders"]],
        batch_sizes=FD.cfg["throughput"]["batch_sizes"],
        repeats=FD.cfg["throughput"]["repeats"],
        layout=FD.cfg["layout"],
        device=config["device"],
    script:
        CALL


rule focus_dllm_depth:
    input:
        examples_file=f"{FD.data}/seed{FD_SEEDS[0]}/examples.json",
        model_folder=f"{FD.data}/seed{FD_SEEDS[0]}/model",
    output:
        depth_table=f"{FD.timing}/depth.csv",
    priority: -1  # only measures: the jobs on the way to the verdict go first
    threads: paper_threads(FD)
    resources:
        gpu=gpus(FD),
    params:
        **FD.cfg["depth"],
        func="icml26.focus_dllm.rules:depth",
        focus=lambda w: next(d for d in FD.cfg["decoders"] if d["name"] == FD_COMPARE["focus"]),
        layout=FD.cfg["layout"],
        device=config["device"],
    script:
        CALL


rule focus_dllm_timing_verdict:
    input:
        throughput_table=rules.focus_dllm_timing.output.throughput_table,
        machine=rules.focus_dllm_timing.output.machine,
    output:
        claims=f"{FD.timing}/claims.json",
    params:
        **FD_COMPARE,
        func="icml26.focus_dllm.rules:timing_verdict",
        substitution=substitution(FD, "model.checkpoint"),
    script:
        CALL


rule focus_dllm_timing_figures:
    input:
        throughput_table=rules.focus_dllm_timing.output.throughput_table,
        depth_table=rules.focus_dllm_depth.output.depth_table,
        machine=rules.focus_dllm_timing.output.machine,
    output:
        **figure_outputs(
            FD,
            "throughput",
            "depth",
            captions={"throughput": "throughput_figure", "depth": "depth_figure"},
            measured=True,
        ),
    params:
        **FD_COMPARE,
        func="icml26.focus_dllm.rules:timing_figures",
    script:
        CALL
