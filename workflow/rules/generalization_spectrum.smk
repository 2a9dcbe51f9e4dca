# generalization_spectrum: per-sample generalisation D0-D4 of SFT, RFT, RL and ICL in a synthetic programming
# world (spec: shared/papers/generalization_spectrum.md).
# world -> base (pretrained here, or the user's checkpoint) -> reference (base, ICL) and learner_{sft,rft,rl}
# -> tables (matched memorisation) -> figures, verdict; timing (tokens/s, seconds per learner) beside.
# Each rule calls one function of icml26.generalization_spectrum.rules (see docs/ARCHITECTURE.md).

GS = register("generalization_spectrum")
GS_LEARNERS = ["sft", "rft", "rl"]
GS_COMMON = {"seed": GS.cfg["seed"], "device": config["device"]}


rule generalization_spectrum:
    """Target: every generalization_spectrum output at the configured scale."""
    input:
        paper_outputs(GS),
        expand(f"{GS.results}/figures/{{name}}.png", name=["spectrum", "curves"]),
        f"{GS.results}/tables/passk.csv",
        f"{GS.timing}/costs.csv",


rule generalization_spectrum_world:
    output:
        world_file=f"{GS.data}/world.json",
        problems_table=table_report(GS, "problems"),
    params:
        **GS.cfg["world"],
        func="icml26.generalization_spectrum.rules:world",
        seed=GS.cfg["seed"],
    script:
        CALL


rule generalization_spectrum_base:
    input:
        world_file=rules.generalization_spectrum_world.output.world_file,
        checkpoint=[GS.cfg["model"]["checkpoint"]] if GS.cfg["model"]["checkpoint"] else [],
    output:
        model_folder=directory(f"{GS.data}/base"),
        loss_table=table_report(GS, "pretraining"),
        timing=f"{GS.timing}/pretraining.csv",
    threads: paper_threads(GS)
    resources:
        **job_resources(GS, gpu=True),
    params:
        **GS_COMMON,
        func="icml26.generalization_spectrum.rules:base",
        model=GS.cfg["model"],
        pretraining=GS.cfg["pretraining"],
    script:
        CALL


rule generalization_spectrum_reference:
    input:
        world_file=rules.generalization_spectrum_world.output.world_file,
        model_folder=rules.generalization_spectrum_base.output.model_folder,
    output:
        scores=f"{GS.data}/scores/reference.csv",
    resources:
        **job_resources(GS, gpu=True),
    params:
        **GS_COMMON,
        func="icml26.generalization_spectrum.rules:reference",
        evaluation=GS.cfg["evaluation"],
    script:
        CALL


rule generalization_spectrum_learner:
    input:
        world_file=rules.generalization_spectrum_world.output.world_file,
        model_folder=rules.generalization_spectrum_base.output.model_folder,
    output:
        scores=f"{GS.data}/scores/{{learner}}.csv",
        timing=f"{GS.timing}/learners/{{learner}}.csv",
    wildcard_constraints:
        learner="|".join(GS_LEARNERS),
    resources:
        **job_resources(GS, gpu=True),
    params:
        **GS_COMMON,
        func="icml26.generalization_spectrum.rules:learner",
        learner=lambda w: w.learner,
        model=GS.cfg["model"],
        settings=lambda w: GS.cfg["learners"][w.learner],
        evaluation=GS.cfg["evaluation"],
    script:
        CALL


rule generalization_spectrum_tables:
    input:
        scores=[
            rules.generalization_spectrum_reference.output.scores,
            *expand(f"{GS.data}/scores/{{learner}}.csv", learner=GS_LEARNERS),
        ],
    output:
        curves_table=table_report(GS, "curves"),
        spectrum_table=table_report(GS, "spectrum"),
        far_tail_table=table_report(GS, "far_tail"),
        passk_table=table_report(GS, "passk"),
        matched_table=table_report(GS, "matched"),
    params:
        func="icml26.generalization_spectrum.rules:tables",
        k=GS.cfg["evaluation"]["k"],
    script:
        CALL


rule generalization_spectrum_timing:
    input:
        pretraining=rules.generalization_spectrum_base.output.timing,
        runs=expand(f"{GS.timing}/learners/{{learner}}.csv", learner=GS_LEARNERS),
    output:
        cost_table=f"{GS.timing}/costs.csv",
        machine=f"{GS.timing}/machine.json",
    priority: -1  # only gathers measurements: the jobs on the way to the verdict go first
    params:
        func="icml26.generalization_spectrum.rules:timing",
    script:
        CALL


rule generalization_spectrum_figures:
    input:
        curves_table=rules.generalization_spectrum_tables.output.curves_table,
        spectrum_table=rules.generalization_spectrum_tables.output.spectrum_table,
        matched_table=rules.generalization_spectrum_tables.output.matched_table,
    output:
        **figure_outputs(GS, "spectrum", "curves", captions={"spectrum": "spectrum_figure", "curves": "curves_figure"}),
    params:
        func="icml26.generalization_spectrum.rules:figures",
    script:
        CALL


rule generalization_spectrum_verdict:
    input:
        spectrum_table=rules.generalization_spectrum_tables.output.spectrum_table,
        far_tail_table=rules.generalization_spectrum_tables.output.far_tail_table,
        matched_table=rules.generalization_spectrum_tables.output.matched_table,
    output:
        claims=report(
            f"{GS.results}/claims.json",
            caption="../report/generalization_spectrum/claims.rst",
            category="generalization_spectrum",
            subcategory="verdict",
        ),
        metrics=f"{GS.results}/metrics.json",
    params:
        func="icml26.generalization_spectrum.rules:verdict",
        substitution=substitution(GS, "model.checkpoint"),
        criteria=GS.cfg["criteria"],
    script:
        CALL
