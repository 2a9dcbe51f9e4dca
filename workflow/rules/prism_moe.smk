# prism_moe: PRISM, dual-stream MoE distillation of conflicting teachers into one dense-prediction student
# (spec: shared/papers/prism_moe.md).
# scenes (procedural, or the user's files) -> teacher_{teacher} (three objectives, the paper's CLIP / SAM / DINOv2,
# or the user's programs) ->
# student_{method}_{seed} (stage 1 distillation, stage 2 tasks, evaluation, routing) -> tables -> figures, verdict;
# timing beside. Each rule calls one function of icml26.prism_moe.rules (see docs/ARCHITECTURE.md).

from icml26.prism_moe.settings import source_files

PM = register("prism_moe")
PM_PAIRS = [(m, s) for m in PM.cfg["methods"] for s in PM.cfg["seeds_by_method"].get(m, PM.cfg["seeds"])]
PM_RUN = {"method": [m for m, _ in PM_PAIRS], "seed": [s for _, s in PM_PAIRS]}  # expand(..., zip, **PM_RUN)
PM_TEACHERS = ["semantic", "geometric", "texture"]  # icml26.prism_moe.methods.OBJECTIVES
PM_FIGURES = ["delta_m", "task_metrics", "routing", "specialisation", "conflict"]
PM_CAPTIONS = {n: f"{n}_figure" for n in ["delta_m", "routing", "specialisation", "conflict"]}


rule prism_moe:
    """Target: every prism_moe output at the configured scale."""
    input:
        paper_outputs(PM),
        expand(f"{PM.results}/figures/{{name}}.png", name=PM_FIGURES),
        f"{PM.timing}/throughput.csv",


rule prism_moe_scenes:
    input:
        sources=source_files(PM.cfg["data"]),
    output:
        train_file=f"{PM.data}/scenes/train.npz",
        test_file=f"{PM.data}/scenes/test.npz",
    params:
        func="icml26.prism_moe.rules:scenes",
        data=PM.cfg["data"],
    script:
        CALL


rule prism_moe_teacher:
    input:
        train_file=rules.prism_moe_scenes.output.train_file,
        program=lambda w: [p] if (p := PM.cfg["teachers"]["programs"][w.teacher]) else [],
        hub=lambda w: [h] if (h := PM.cfg["teachers"]["hub"][w.teacher]) else [],
    output:
        teacher_folder=directory(f"{PM.data}/teachers/{{teacher}}"),
        loss_file=f"{PM.data}/teachers/{{teacher}}.loss.csv",
    wildcard_constraints:
        teacher="|".join(PM_TEACHERS),
    threads: paper_threads(PM)
    resources:
        **job_resources(PM),
    params:
        func="icml26.prism_moe.rules:teacher",
        name=lambda w: w.teacher,
        teachers=PM.cfg["teachers"],
        patch=PM.cfg["student"]["patch"],
        seed=PM.cfg["seed"],
    script:
        CALL


rule prism_moe_student:
    input:
        train_file=rules.prism_moe_scenes.output.train_file,
        test_file=rules.prism_moe_scenes.output.test_file,
        teacher_folders=expand(f"{PM.data}/teachers/{{teacher}}", teacher=PM_TEACHERS),
    output:
        model_file=f"{PM.data}/students/{{method}}/seed{{seed}}.safetensors",
        stats_file=f"{PM.data}/students/{{method}}/seed{{seed}}.stats.npz",
        routing_file=f"{PM.data}/students/{{method}}/seed{{seed}}.routing.npz",
        loss_file=f"{PM.data}/students/{{method}}/seed{{seed}}.loss.csv",
        conflict_file=f"{PM.data}/students/{{method}}/seed{{seed}}.conflict.csv",
        summary_file=f"{PM.data}/students/{{method}}/seed{{seed}}.json",
        timing=f"{PM.timing}/students/{{method}}_seed{{seed}}.csv",
    wildcard_constraints:
        method="|".join(PM.cfg["methods"]),
        seed=r"\d+",
    threads: paper_threads(PM)
    resources:
        **job_resources(PM, gpu=True),
    params:
        func="icml26.prism_moe.rules:student",
        device=config["device"],
        method=lambda w: w.method,
        seed=lambda w: int(w.seed),
        student=PM.cfg["student"],
        training=PM.cfg["training"],
        measure=PM.cfg["measure"],
        labelled=PM.cfg["data"]["labelled"],
    script:
        CALL


rule prism_moe_tables:
    input:
        stats=expand(f"{PM.data}/students/{{method}}/seed{{seed}}.stats.npz", zip, **PM_RUN),
        routing=expand(f"{PM.data}/students/{{method}}/seed{{seed}}.routing.npz", zip, **PM_RUN),
        conflicts=expand(f"{PM.data}/students/{{method}}/seed{{seed}}.conflict.csv", zip, **PM_RUN),
        summaries=expand(f"{PM.data}/students/{{method}}/seed{{seed}}.json", zip, **PM_RUN),
    output:
        metrics_table=table_report(PM, "metrics"),
        delta_table=table_report(PM, "delta_m"),
        comparisons_table=table_report(PM, "comparisons"),
        specialisation_table=table_report(PM, "specialisation"),
        routing_table=table_report(PM, "routing"),
        conflict_table=table_report(PM, "conflict"),
        parameters_table=table_report(PM, "parameters"),
    params:
        func="icml26.prism_moe.rules:tables",
        criteria=PM.cfg["criteria"],
    script:
        CALL


rule prism_moe_timing:
    input:
        runs=expand(f"{PM.timing}/students/{{method}}_seed{{seed}}.csv", zip, **PM_RUN),
    output:
        throughput_table=f"{PM.timing}/throughput.csv",
        machine=f"{PM.timing}/machine.json",
    priority: -1  # only gathers measurements: the jobs on the way to the verdict go first
    params:
        func="icml26.prism_moe.rules:timing",
    script:
        CALL


rule prism_moe_figures:
    input:
        metrics_table=rules.prism_moe_tables.output.metrics_table,
        delta_table=rules.prism_moe_tables.output.delta_table,
        specialisation_table=rules.prism_moe_tables.output.specialisation_table,
        routing_table=rules.prism_moe_tables.output.routing_table,
        conflict_files=expand(f"{PM.data}/students/{{method}}/seed{{seed}}.conflict.csv", zip, **PM_RUN),
    output:
        **figure_outputs(PM, *PM_FIGURES, captions=PM_CAPTIONS),
    params:
        func="icml26.prism_moe.rules:figures",
    script:
        CALL


rule prism_moe_verdict:
    input:
        comparisons_table=rules.prism_moe_tables.output.comparisons_table,
        delta_table=rules.prism_moe_tables.output.delta_table,
        specialisation_table=rules.prism_moe_tables.output.specialisation_table,
        conflict_table=rules.prism_moe_tables.output.conflict_table,
    output:
        claims=paper_report(PM, "claims.json", "claims", "verdict"),
        metrics=f"{PM.results}/metrics.json",
    params:
        func="icml26.prism_moe.rules:verdict",
        substitution=substitution(
            PM,
            "data.source",
            *(f"teachers.{kind}.{name}" for kind in ("hub", "programs") for name in PM_TEACHERS),
        ),
    script:
        CALL
