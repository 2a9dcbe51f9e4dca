# sheaf_repulsion: Overlap-Aware Sheaf Repulsion, many faithful circuits with little overlap
# (spec: shared/papers/sheaf_repulsion.md).
# model -> discover_{oasr,independent} -> baselines (EAP, ACDC-lite), minimal (3-edge search,
# indispensability) -> tables -> figures, verdict; timing (what each method costs) beside.
# Each rule calls one function of icml26.sheaf_repulsion.rules (see docs/ARCHITECTURE.md).

SR = register("sheaf_repulsion")
SR_METHODS = ["oasr", "independent"]
# The discovery settings of a method: independent runs are OASR's without the repulsion (so a change of
# `discovery.overlap` reruns only the OASR runs).
SR_DISCOVERY = {
    m: {**SR.cfg["discovery"], "overlap": SR.cfg["discovery"]["overlap"] if m == "oasr" else 0.0} for m in SR_METHODS
}
SR_COMMON = {
    "names": SR.cfg["model"]["names"],
    "architecture": SR.cfg["model"]["architecture"],
    "seed": SR.cfg["seed"],
    "device": config["device"],
}


rule sheaf_repulsion:
    """Target: every sheaf_repulsion output at the configured scale."""
    input:
        paper_outputs(SR),
        expand(f"{SR.results}/figures/{{name}}.png", name=["iou", "iou_by_k", "circuits", "minimal", "discovery"]),
        f"{SR.timing}/costs.csv",


rule sheaf_repulsion_model:
    input:
        checkpoint=[SR.cfg["model"]["checkpoint"]] if SR.cfg["model"]["checkpoint"] else [],
    output:
        weights=f"{SR.data}/model.npz",
        training_table=table_report(SR, "training"),
    threads: paper_threads(SR)
    resources:
        **job_resources(SR, gpu=True),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:model",
        training=SR.cfg["model"]["training"],
        held_out=SR.cfg["held_out"],
    script:
        CALL


rule sheaf_repulsion_discover:
    input:
        weights=rules.sheaf_repulsion_model.output.weights,
    output:
        circuits=f"{SR.data}/circuits/{{method}}.npz",
        curve=f"{SR.data}/circuits/{{method}}_curve.csv",
        timing=f"{SR.timing}/discovery/{{method}}.csv",
    wildcard_constraints:
        method="|".join(SR_METHODS),
    threads: paper_threads(SR)
    resources:
        **job_resources(SR, gpu=True),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:discover",
        method=lambda w: w.method,
        discovery=lambda w: SR_DISCOVERY[w.method],
        runs=SR.cfg["runs"],
        held_out=SR.cfg["held_out"],
        curve_every=SR.cfg["curve_every"],
    script:
        CALL


rule sheaf_repulsion_baselines:
    input:
        weights=rules.sheaf_repulsion_model.output.weights,
        oasr=f"{SR.data}/circuits/oasr.npz",
    output:
        circuits=f"{SR.data}/circuits/baselines.npz",
        timing=f"{SR.timing}/baselines.csv",
    threads: paper_threads(SR)
    resources:
        **job_resources(SR, gpu=True),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:baselines",
        held_out=SR.cfg["held_out"],
        acdc_threshold=SR.cfg["baselines"]["acdc_threshold"],
        acdc_sentences=SR.cfg["baselines"]["acdc_sentences"],
    script:
        CALL


rule sheaf_repulsion_minimal:
    input:
        weights=rules.sheaf_repulsion_model.output.weights,
    output:
        minimal_table=table_report(SR, "minimal"),
    threads: paper_threads(SR)
    resources:
        **job_resources(SR, gpu=True),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:minimal",
        held_out=SR.cfg["held_out"],
        size=SR.cfg["minimal"]["size"],
        candidates=SR.cfg["minimal"]["candidates"],
        tolerance=SR.cfg["criteria"]["tolerance"],
    script:
        CALL


rule sheaf_repulsion_tables:
    input:
        weights=rules.sheaf_repulsion_model.output.weights,
        oasr=f"{SR.data}/circuits/oasr.npz",
        independent=f"{SR.data}/circuits/independent.npz",
        baseline=rules.sheaf_repulsion_baselines.output.circuits,
        curves=expand(f"{SR.data}/circuits/{{method}}_curve.csv", method=SR_METHODS),
    output:
        circuits_table=table_report(SR, "circuits"),
        overlap_table=table_report(SR, "overlap"),
        discovery_table=table_report(SR, "discovery"),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:tables",
        held_out=SR.cfg["held_out"],
        criteria=SR.cfg["criteria"],
    script:
        CALL


rule sheaf_repulsion_timing:
    input:
        weights=rules.sheaf_repulsion_model.output.weights,
        discovery=expand(f"{SR.timing}/discovery/{{method}}.csv", method=SR_METHODS),
        baselines=rules.sheaf_repulsion_baselines.output.timing,
    output:
        cost_table=f"{SR.timing}/costs.csv",
        machine=f"{SR.timing}/machine.json",
    priority: -1  # only measures: the jobs on the way to the verdict go first
    resources:
        gpu=gpus(SR),
    params:
        **SR_COMMON,
        func="icml26.sheaf_repulsion.rules:timing",
        batch_size=SR.cfg["discovery"]["batch_size"],
        repeats=SR.cfg["timing"]["repeats"],
    script:
        CALL


rule sheaf_repulsion_figures:
    input:
        circuits_table=rules.sheaf_repulsion_tables.output.circuits_table,
        overlap_table=rules.sheaf_repulsion_tables.output.overlap_table,
        minimal_table=rules.sheaf_repulsion_minimal.output.minimal_table,
        discovery_table=rules.sheaf_repulsion_tables.output.discovery_table,
    output:
        **figure_outputs(
            SR,
            "iou",
            "iou_by_k",
            "circuits",
            "minimal",
            "discovery",
            captions={"minimal": "minimal_figure", "circuits": "circuits_figure", "discovery": "discovery_figure"},
        ),
    params:
        func="icml26.sheaf_repulsion.rules:figures",
        criteria=SR.cfg["criteria"],
        complete_from=SR.cfg["discovery"]["complete_from"],
    script:
        CALL


rule sheaf_repulsion_verdict:
    input:
        circuits_table=rules.sheaf_repulsion_tables.output.circuits_table,
        overlap_table=rules.sheaf_repulsion_tables.output.overlap_table,
        minimal_table=rules.sheaf_repulsion_minimal.output.minimal_table,
        training_table=rules.sheaf_repulsion_model.output.training_table,
        discovery_table=rules.sheaf_repulsion_tables.output.discovery_table,
    output:
        claims=report(
            f"{SR.results}/claims.json",
            caption="../report/sheaf_repulsion/claims.rst",
            category="sheaf_repulsion",
            subcategory="verdict",
        ),
        metrics=f"{SR.results}/metrics.json",
    params:
        func="icml26.sheaf_repulsion.rules:verdict",
        substitution=substitution(SR, "model.checkpoint"),
        criteria=SR.cfg["criteria"],
        sentences=SR.cfg["held_out"],
    script:
        CALL
