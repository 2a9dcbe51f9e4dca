# crl_bpt: CRL-BPT, curriculum RL for black-box prompt tuning under an API budget
# (spec: shared/papers/crl_bpt.md).
# blackbox (tiny CLIP trained here, or the user's CLIP) -> calibration, agent (SFT on human templates) ->
# run_{method}_{seed} (one search under the call budget) -> tables -> figures, verdict; timing beside.
# Each rule calls one function of icml26.crl_bpt.rules (see docs/ARCHITECTURE.md).

CB = register("crl_bpt")
CB_RUN = {"method": CB.cfg["methods"], "seed": CB.cfg["seeds"]}
CB_FIGURES = ["accuracy_vs_calls", "accuracy", "reward_variance", "readability"]


rule crl_bpt:
    """Target: every crl_bpt output at the configured scale."""
    input:
        paper_outputs(CB),
        expand(f"{CB.results}/figures/{{name}}.png", name=CB_FIGURES),
        f"{CB.timing}/runs.csv",


rule crl_bpt_blackbox:
    input:
        checkpoint=[CB.cfg["blackbox"]["checkpoint"]] if CB.cfg["blackbox"]["checkpoint"] else [],
    output:
        encoder_folder=directory(f"{CB.data}/blackbox"),
        images_file=f"{CB.data}/target_images.npz",
        loss_file=f"{CB.data}/blackbox_loss.csv",
    threads: paper_threads(CB)
    resources:
        **job_resources(CB),
    params:
        func="icml26.crl_bpt.rules:blackbox",
        encoder=CB.cfg["blackbox"],
        images=CB.cfg["images"],
        target=CB.cfg["target"],
        seed=CB.cfg["seed"],
    script:
        CALL


rule crl_bpt_calibration:
    input:
        encoder_folder=rules.crl_bpt_blackbox.output.encoder_folder,
        images_file=rules.crl_bpt_blackbox.output.images_file,
    output:
        calibration_table=table_report(CB, "calibration"),
    resources:
        gpu=gpus(CB),
    params:
        func="icml26.crl_bpt.rules:calibration",
        human=CB.cfg["human"],
        target=CB.cfg["target"],
        device=config["device"],
    script:
        CALL


rule crl_bpt_agent:
    input:
        checkpoint=[CB.cfg["model"]["checkpoint"]] if CB.cfg["model"]["checkpoint"] else [],
    output:
        model_folder=directory(f"{CB.data}/agent"),
        loss_file=f"{CB.data}/agent_loss.csv",
    threads: paper_threads(CB)
    resources:
        **job_resources(CB, gpu=True),
    params:
        func="icml26.crl_bpt.rules:agent",
        device=config["device"],
        model=CB.cfg["model"],
        sft=CB.cfg["sft"],
        human=CB.cfg["human"],
        search=CB.cfg["search"],
        seed=CB.cfg["seed"],
    script:
        CALL


rule crl_bpt_run:
    input:
        encoder_folder=rules.crl_bpt_blackbox.output.encoder_folder,
        images_file=rules.crl_bpt_blackbox.output.images_file,
        model_folder=rules.crl_bpt_agent.output.model_folder,
    output:
        calls=f"{CB.data}/runs/{{method}}/seed{{seed}}.calls.csv",
        steps=f"{CB.data}/runs/{{method}}/seed{{seed}}.steps.csv",
        curve=f"{CB.data}/runs/{{method}}/seed{{seed}}.curve.csv",
        scores=f"{CB.data}/runs/{{method}}/seed{{seed}}.scores.csv",
        timing=f"{CB.timing}/runs/{{method}}_seed{{seed}}.csv",
    wildcard_constraints:
        method="|".join(CB.cfg["methods"]),
        seed=r"\d+",
    threads: paper_threads(CB)
    resources:
        **job_resources(CB, gpu=True),
    params:
        func="icml26.crl_bpt.rules:run",
        device=config["device"],
        method=lambda w: w.method,
        model=CB.cfg["model"],
        seed=lambda w: int(w.seed),
        search=CB.cfg["search"],
        human=CB.cfg["human"],
    script:
        CALL


rule crl_bpt_tables:
    input:
        calls=expand(f"{CB.data}/runs/{{method}}/seed{{seed}}.calls.csv", **CB_RUN),
        steps=expand(f"{CB.data}/runs/{{method}}/seed{{seed}}.steps.csv", **CB_RUN),
        curves=expand(f"{CB.data}/runs/{{method}}/seed{{seed}}.curve.csv", **CB_RUN),
        scores=expand(f"{CB.data}/runs/{{method}}/seed{{seed}}.scores.csv", **CB_RUN),
    output:
        accuracy_table=table_report(CB, "accuracy"),
        comparisons_table=table_report(CB, "comparisons"),
        curves_table=table_report(CB, "curves"),
        variance_table=table_report(CB, "variance"),
        readability_table=table_report(CB, "readability"),
    params:
        func="icml26.crl_bpt.rules:tables",
        criteria=CB.cfg["criteria"],
    script:
        CALL


rule crl_bpt_timing:
    input:
        runs=expand(f"{CB.timing}/runs/{{method}}_seed{{seed}}.csv", **CB_RUN),
    output:
        run_table=f"{CB.timing}/runs.csv",
        machine=f"{CB.timing}/machine.json",
    priority: -1  # only gathers measurements: the jobs on the way to the verdict go first
    params:
        func="icml26.crl_bpt.rules:timing",
    script:
        CALL


rule crl_bpt_figures:
    input:
        accuracy_table=rules.crl_bpt_tables.output.accuracy_table,
        curves_table=rules.crl_bpt_tables.output.curves_table,
        calibration_table=rules.crl_bpt_calibration.output.calibration_table,
        readability_table=rules.crl_bpt_tables.output.readability_table,
        variance_table=rules.crl_bpt_tables.output.variance_table,
        calls=expand(f"{CB.data}/runs/{{method}}/seed{{seed}}.calls.csv", **CB_RUN),
    output:
        **figure_outputs(CB, *CB_FIGURES, captions={"accuracy": "accuracy_figure", "readability": "readability_figure"}),
    params:
        func="icml26.crl_bpt.rules:figures",
    script:
        CALL


rule crl_bpt_verdict:
    input:
        comparisons_table=rules.crl_bpt_tables.output.comparisons_table,
        accuracy_table=rules.crl_bpt_tables.output.accuracy_table,
        variance_table=rules.crl_bpt_tables.output.variance_table,
        readability_table=rules.crl_bpt_tables.output.readability_table,
        calibration_table=rules.crl_bpt_calibration.output.calibration_table,
    output:
        claims=paper_report(CB, "claims.json", "claims", "verdict"),
        metrics=f"{CB.results}/metrics.json",
    params:
        func="icml26.crl_bpt.rules:verdict",
        substitution=substitution(CB, "blackbox.checkpoint", "model.checkpoint", "images.coop"),
    script:
        CALL
