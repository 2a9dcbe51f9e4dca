# completep_rl: SP / CompleteP / NTK parameterisations for scaling PPO agents
# (spec: shared/papers/completep_rl.md).
# coordinate check -> slopes; runs_{task}_{param}_{width} (learning rates and seeds inside, one file per
# learning rate) -> summary tables -> figures, verdict. The sweep is one job per (task, parameterisation,
# width): a job start costs ~5 CPU-s of imports (torch, gymnasium), about as much as a smoke run's training.
# Each rule calls one function of icml26.completep_rl.rules (see docs/ARCHITECTURE.md).

CP = register("completep_rl")
CP_SWEEP = CP.cfg["sweep"]
CP_LRS = [f"{lr:g}" for lr in CP_SWEEP["lrs"]]
CP_RUNS = [
    f"{CP.data}/runs/{t}/{p}/w{w}_lr{lr}.npz"
    for t in CP_SWEEP["tasks"]
    for p in CP_SWEEP["parameterisations"]
    for w in CP_SWEEP["widths"]
    for lr in CP_LRS
]
CP_TABLES = ["runs", "optimal_lr", "transfer", "efficiency", "consistency"]
CP_FIGURES = ["coordinate_check", "lr_transfer", "efficiency", "consistency"]


rule completep_rl:
    """Target: every completep_rl output at the configured scale."""
    input:
        paper_outputs(CP),
        expand(f"{CP.results}/figures/{{name}}.png", name=CP_FIGURES),
        f"{CP.timing}/run_seconds.csv",


rule completep_rl_coordinate:
    output:
        table=report(
            f"{CP.results}/tables/coordinate_check.csv",
            caption="../report/completep_rl/coordinate_table.rst",
            category="completep_rl",
            subcategory="tables",
        ),
        slopes=f"{CP.results}/tables/coordinate_slopes.csv",
    params:
        **CP.cfg["coordinate"],
        func="icml26.completep_rl.rules:coordinate_check",
        parameterisations=CP_SWEEP["parameterisations"],
        base_width=CP.cfg["base_width"],
    script:
        CALL


rule completep_rl_runs:
    output:
        runs=[f"{CP.data}/runs/{{task}}/{{param}}/w{{width}}_lr{lr}.npz" for lr in CP_LRS],
        timing=f"{CP.timing}/run_seconds/{{task}}_{{param}}_w{{width}}.csv",
    wildcard_constraints:
        task="|".join(CP_SWEEP["tasks"]),
        param="|".join(CP_SWEEP["parameterisations"]),
        width="[0-9]+",
    threads: paper_threads(CP)
    resources:
        **job_resources(CP),
    params:
        func="icml26.completep_rl.rules:train_runs",
        task=lambda w: w.task,
        parameterisation=lambda w: w.param,
        width=lambda w: int(w.width),
        lrs=[float(lr) for lr in CP_LRS],
        seeds=CP_SWEEP["seeds"],
        ppo_settings={**CP.cfg["ppo"], "base_width": CP.cfg["base_width"], "base_depth": CP.cfg["ppo"]["depth"]},
        device=config["device"],
    script:
        CALL


rule completep_rl_summary:
    input:
        runs=CP_RUNS,
    output:
        table=report(
            f"{CP.results}/tables/runs.csv",
            caption="../report/completep_rl/runs_table.rst",
            category="completep_rl",
            subcategory="tables",
        ),
        optimum=f"{CP.results}/tables/optimal_lr.csv",
        transfer=f"{CP.results}/tables/transfer.csv",
        efficiency=f"{CP.results}/tables/efficiency.csv",
        consistency=f"{CP.results}/tables/consistency.csv",
        curves=f"{CP.data}/curves.csv",
    params:
        func="icml26.completep_rl.rules:summarise",
        lrs=CP_SWEEP["lrs"],
        base_width=CP.cfg["base_width"],
    script:
        CALL


rule completep_rl_timing:
    input:
        timings=[
            f"{CP.timing}/run_seconds/{t}_{p}_w{w}.csv"
            for t in CP_SWEEP["tasks"]
            for p in CP_SWEEP["parameterisations"]
            for w in CP_SWEEP["widths"]
        ],
    output:
        summary=f"{CP.timing}/run_seconds.csv",
        machine=f"{CP.timing}/machine.json",
    params:
        func="icml26.completep_rl.rules:timing",
    script:
        CALL


rule completep_rl_figures:
    input:
        coordinate=rules.completep_rl_coordinate.output.table,
        runs_table=rules.completep_rl_summary.output.table,
        curves=rules.completep_rl_summary.output.curves,
        efficiency=rules.completep_rl_summary.output.efficiency,
        consistency=rules.completep_rl_summary.output.consistency,
    output:
        **figure_outputs(CP, *CP_FIGURES),
    params:
        func="icml26.completep_rl.rules:figures",
    script:
        CALL


rule completep_rl_verdict:
    input:
        slopes=rules.completep_rl_coordinate.output.slopes,
        transfer=rules.completep_rl_summary.output.transfer,
        optimum=rules.completep_rl_summary.output.optimum,
        efficiency=rules.completep_rl_summary.output.efficiency,
        consistency=rules.completep_rl_summary.output.consistency,
        runs_table=rules.completep_rl_summary.output.table,
    output:
        claims=report(
            f"{CP.results}/claims.json",
            caption="../report/completep_rl/claims.rst",
            category="completep_rl",
            subcategory="verdict",
        ),
        metrics=f"{CP.results}/metrics.json",
    params:
        func="icml26.completep_rl.rules:verdict",
        substitution=substitution(CP),
        lrs=CP_SWEEP["lrs"],
    script:
        CALL
