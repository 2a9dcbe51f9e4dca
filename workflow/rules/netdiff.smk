# netdiff: NetDiff, diffusion-generated directional link topologies for MANETs, with ACAM tokens and partial
# diffusion (spec: shared/papers/netdiff.md).
# calibration (the simulator's settings) and milp (the exact check of the target) beside;
# dataset (placements and targets) -> train_{model}_{seed} -> evaluate_{model}_{seed}, baselines, partial_{seed} ->
# tables -> figures, verdict; timing (inference time vs N, partial-diffusion time), its verdict and figure beside.
# Each rule calls one function of icml26.netdiff.rules (see docs/ARCHITECTURE.md).

ND = register("netdiff")
ND_RUN = {"model": ND.cfg["models"], "seed": ND.cfg["seeds"]}
ND_FIGURES = ["calibration", "shares", "counts", "partial", "milp"]
ND_CAPTIONS = {n: f"{n}_figure" for n in ["calibration", "counts", "partial"]}
ND_ROUNDS = ND.cfg["data"]["rounds"]


rule netdiff:
    """Target: every netdiff output at the configured scale."""
    input:
        paper_outputs(ND),
        expand(f"{ND.results}/figures/{{name}}.png", name=ND_FIGURES),
        f"{ND.timing}/claims.json",
        f"{ND.timing}/figures/inference.png",


rule netdiff_calibration:
    output:
        calibration_table=table_report(ND, "calibration"),
    params:
        func="icml26.netdiff.rules:calibration",
        calibration=ND.cfg["calibration"],
        radius=ND.cfg["radius"],
        rounds=ND_ROUNDS,
    script:
        CALL


rule netdiff_milp:
    output:
        milp_table=f"{ND.data}/milp.csv",
    params:
        func="icml26.netdiff.rules:milp_check",
        milp=ND.cfg["milp"],
        radius=ND.cfg["radius"],
        channel=ND.cfg["channel"],
        rounds=ND_ROUNDS,
    script:
        CALL


rule netdiff_dataset:
    input:
        placements=[ND.cfg["data"]["placements"]] if ND.cfg["data"]["placements"] else [],
    output:
        train_file=f"{ND.data}/instances/train.npz",
        test_file=f"{ND.data}/instances/test.npz",
    params:
        func="icml26.netdiff.rules:dataset",
        data=ND.cfg["data"],
        radius=ND.cfg["radius"],
        channel=ND.cfg["channel"],
    script:
        CALL


rule netdiff_train:
    input:
        train_file=rules.netdiff_dataset.output.train_file,
    output:
        model_file=f"{ND.data}/models/{{model}}/seed{{seed}}.safetensors",
        loss_file=f"{ND.data}/models/{{model}}/seed{{seed}}.loss.csv",
    wildcard_constraints:
        model="|".join(ND.cfg["models"]),
        seed=r"\d+",
    threads: paper_threads(ND)
    resources:
        **job_resources(ND, gpu=True),
    params:
        func="icml26.netdiff.rules:train",
        device=config["device"],
        name=lambda w: w.model,
        seed=lambda w: int(w.seed),
        model=ND.cfg["model"],
        training=ND.cfg["training"],
        channel=ND.cfg["channel"],
    script:
        CALL


rule netdiff_evaluate:
    input:
        test_file=rules.netdiff_dataset.output.test_file,
        model_file=rules.netdiff_train.output.model_file,
    output:
        evaluation_file=f"{ND.data}/evaluations/{{model}}/seed{{seed}}.csv",
    wildcard_constraints:
        model="|".join(ND.cfg["models"]),
        seed=r"\d+",
    threads: paper_threads(ND)
    resources:
        gpu=gpus(ND),
    params:
        func="icml26.netdiff.rules:evaluate",
        device=config["device"],
        name=lambda w: w.model,
        seed=lambda w: int(w.seed),
        channel=ND.cfg["channel"],
    script:
        CALL


rule netdiff_baselines:
    input:
        test_file=rules.netdiff_dataset.output.test_file,
    output:
        baselines_file=f"{ND.data}/evaluations/baselines.csv",
    params:
        func="icml26.netdiff.rules:baselines",
        channel=ND.cfg["channel"],
        seed=ND.cfg["seed"],
    script:
        CALL


rule netdiff_partial:
    input:
        model_file=f"{ND.data}/models/netdiff/seed{{seed}}.safetensors",
    output:
        partial_file=f"{ND.data}/partial/seed{{seed}}.csv",
    wildcard_constraints:
        seed=r"\d+",
    threads: paper_threads(ND)
    resources:
        gpu=gpus(ND),
    params:
        func="icml26.netdiff.rules:partial",
        device=config["device"],
        seed=lambda w: int(w.seed),
        partial=ND.cfg["partial"],
        radius=ND.cfg["radius"],
        channel=ND.cfg["channel"],
        rounds=ND_ROUNDS,
    script:
        CALL


rule netdiff_tables:
    input:
        evaluations=expand(f"{ND.data}/evaluations/{{model}}/seed{{seed}}.csv", **ND_RUN),
        baselines_file=rules.netdiff_baselines.output.baselines_file,
        partial_files=expand(f"{ND.data}/partial/seed{{seed}}.csv", seed=ND.cfg["seeds"]),
        milp_table=rules.netdiff_milp.output.milp_table,
    output:
        results_table=table_report(ND, "results"),
        repair_table=table_report(ND, "repair"),
        comparisons_table=table_report(ND, "comparisons"),
        counts_table=table_report(ND, "counts"),
        partial_table=table_report(ND, "partial"),
        gap_table=table_report(ND, "milp_gap"),
    params:
        func="icml26.netdiff.rules:tables",
        models=ND.cfg["models"],
        criteria=ND.cfg["criteria"],
    script:
        CALL


rule netdiff_timing:
    input:
        model_files=expand(f"{ND.data}/models/{{model}}/seed{ND.cfg['seeds'][0]}.safetensors", model=ND.cfg["models"]),
        partial_table=rules.netdiff_tables.output.partial_table,
    output:
        inference_table=f"{ND.timing}/inference.csv",
        partial_timing=f"{ND.timing}/partial.csv",
        machine=f"{ND.timing}/machine.json",
    priority: -1  # only measures: the jobs on the way to the verdict go first
    threads: paper_threads(ND)
    resources:
        gpu=gpus(ND),
    params:
        func="icml26.netdiff.rules:timing",
        device=config["device"],
        timing=ND.cfg["timing"],
        partial=ND.cfg["partial"],
        radius=ND.cfg["radius"],
        channel=ND.cfg["channel"],
        rounds=ND_ROUNDS,
    script:
        CALL


rule netdiff_timing_verdict:
    input:
        inference_table=rules.netdiff_timing.output.inference_table,
        partial_timing=rules.netdiff_timing.output.partial_timing,
        machine=rules.netdiff_timing.output.machine,
    output:
        claims=f"{ND.timing}/claims.json",
    params:
        func="icml26.netdiff.rules:timing_verdict",
        substitution=substitution(ND, "data.placements"),
        criteria=ND.cfg["criteria"],
    script:
        CALL


rule netdiff_timing_figures:
    input:
        inference_table=rules.netdiff_timing.output.inference_table,
        machine=rules.netdiff_timing.output.machine,
    output:
        **figure_outputs(ND, "inference", captions={"inference": "inference_figure"}, measured=True),
    params:
        func="icml26.netdiff.rules:timing_figures",
        flat=ND.cfg["criteria"]["flat"],
    script:
        CALL


rule netdiff_figures:
    input:
        calibration_table=rules.netdiff_calibration.output.calibration_table,
        results_table=rules.netdiff_tables.output.results_table,
        counts_table=rules.netdiff_tables.output.counts_table,
        partial_table=rules.netdiff_tables.output.partial_table,
        gap_table=rules.netdiff_tables.output.gap_table,
    output:
        **figure_outputs(ND, *ND_FIGURES, captions=ND_CAPTIONS),
    params:
        func="icml26.netdiff.rules:figures",
        near=ND.cfg["criteria"]["near"],
        channel=ND.cfg["channel"],
    script:
        CALL


rule netdiff_verdict:
    input:
        calibration_table=rules.netdiff_calibration.output.calibration_table,
        results_table=rules.netdiff_tables.output.results_table,
        comparisons_table=rules.netdiff_tables.output.comparisons_table,
        counts_table=rules.netdiff_tables.output.counts_table,
        partial_table=rules.netdiff_tables.output.partial_table,
        gap_table=rules.netdiff_tables.output.gap_table,
    output:
        claims=paper_report(ND, "claims.json", "claims", "verdict"),
        metrics=f"{ND.results}/metrics.json",
    params:
        func="icml26.netdiff.rules:verdict",
        substitution=substitution(ND, "data.placements"),
        channel=ND.cfg["channel"],
        test_nodes=ND.cfg["data"]["test_nodes"],
        criteria=ND.cfg["criteria"],
    script:
        CALL
