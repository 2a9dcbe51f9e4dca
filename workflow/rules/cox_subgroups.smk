# cox_subgroups: Cox subgroup discovery with EPE, CRS and DDGroup (spec: shared/papers/cox_subgroups.md).
# synthetic_{dataset}_seed{seed}; dataset_{name} -> real_{name}_seed{seed}; cmapss_dataset -> case_{case}_seed{seed}
# -> tables -> figures, verdict; the first seed's real and case runs -> survival (lifelines) -> figures;
# timing beside. Each rule calls one function of icml26.cox_subgroups.rules (see docs/ARCHITECTURE.md).

CS = register("cox_subgroups")
CS_SYN = CS.cfg["synthetic"]
CS_REAL = CS.cfg["real"]
CS_SETTINGS = CS.cfg["settings"]
CS_SYN_RUNS = [
    f"{CS.data}/synthetic/{dataset}_seed{seed}.csv"
    for dataset in CS_SYN["datasets"]
    for seed in CS_SYN[dataset]["seeds"]
]
CS_REAL_RUNS = expand(f"{CS.data}/real/{{name}}_seed{{seed}}.csv", name=CS_REAL["datasets"], seed=CS_REAL["seeds"])
CS_CASE = CS.cfg["case_study"]
CS_CASE_RUNS = expand(
    f"{CS.data}/case_study/{{case}}_seed{{seed}}.csv", case=list(CS_CASE["cases"]), seed=CS_CASE["seeds"]
)
CS_VIEWS = CS.cfg["survival_views"]
CS_TIMINGS = [p.replace(CS.data, f"{CS.timing}/seconds") for p in CS_SYN_RUNS + CS_REAL_RUNS + CS_CASE_RUNS]


rule cox_subgroups:
    """Target: every cox_subgroups output at the configured scale."""
    input:
        paper_outputs(CS),
        f"{CS.results}/figures/synthetic.png",
        f"{CS.results}/figures/pareto.png",
        f"{CS.results}/figures/case_study.png",
        f"{CS.results}/figures/kaplan_meier.png",
        f"{CS.timing}/method_seconds.csv",


rule cox_subgroups_synthetic:
    output:
        table=f"{CS.data}/synthetic/{{dataset}}_seed{{seed}}.csv",
        timing=f"{CS.timing}/seconds/synthetic/{{dataset}}_seed{{seed}}.csv",
    wildcard_constraints:
        dataset="nonlinear|counter",
        seed=r"\d+",
    threads: paper_threads(CS)
    resources:
        **job_resources(CS),
    params:
        func="icml26.cox_subgroups.rules:synthetic_run",
        dataset=lambda w: w.dataset,
        seed=lambda w: int(w.seed),
        n_train=lambda w: CS_SYN[w.dataset]["n_train"],
        n_test=lambda w: CS_SYN[w.dataset]["n_test"],
        methods=lambda w: CS_SYN[w.dataset]["methods"],
        settings=CS_SETTINGS,
    script:
        CALL


rule cox_subgroups_dataset:
    input:
        unpack(lambda w: {"metabric": CS_REAL["metabric_source"]} if w.name == "metabric" else {}),
    output:
        table=f"{CS.data}/datasets/{{name}}.csv",
    wildcard_constraints:
        name="|".join(CS_REAL["datasets"]),
    params:
        func="icml26.cox_subgroups.rules:dataset",
        name=lambda w: w.name,
    script:
        CALL


rule cox_subgroups_real:
    input:
        data=f"{CS.data}/datasets/{{name}}.csv",
    output:
        table=f"{CS.data}/real/{{name}}_seed{{seed}}.csv",
        timing=f"{CS.timing}/seconds/real/{{name}}_seed{{seed}}.csv",
    wildcard_constraints:
        name="|".join(CS_REAL["datasets"]),
        seed=r"\d+",
    threads: paper_threads(CS)
    resources:
        **job_resources(CS),
    params:
        func="icml26.cox_subgroups.rules:real_run",
        name=lambda w: w.name,
        seed=lambda w: int(w.seed),
        test_size=CS_REAL["test_size"],
        methods=CS.cfg["methods"],
        settings=CS_SETTINGS,
    script:
        CALL


rule cox_subgroups_cmapss_dataset:
    input:
        **{
            name.lower(): [f"{CS_CASE['source_dir']}/{name}_{subset}.txt" for subset in CS_CASE["subsets"]]
            for name in ("train", "test", "RUL")
        },
    output:
        table=f"{CS.data}/datasets/cmapss.csv",
    params:
        func="icml26.cox_subgroups.rules:cmapss_dataset",
        subsets=CS_CASE["subsets"],
        snapshot_every=CS_CASE["snapshot_every"],
        test_engines=CS_CASE["test_engines"],
    script:
        CALL


rule cox_subgroups_case:
    input:
        data=rules.cox_subgroups_cmapss_dataset.output.table,
    output:
        table=f"{CS.data}/case_study/{{case}}_seed{{seed}}.csv",
        timing=f"{CS.timing}/seconds/case_study/{{case}}_seed{{seed}}.csv",
    wildcard_constraints:
        case="|".join(CS_CASE["cases"]),
        seed=r"\d+",
    threads: paper_threads(CS)
    resources:
        **job_resources(CS),
    params:
        func="icml26.cox_subgroups.rules:case_study_run",
        case=lambda w: w.case,
        adjust=lambda w: CS_CASE["cases"][w.case]["adjust"],
        subgroup=lambda w: CS_CASE["cases"][w.case]["subgroup"],
        seed=lambda w: int(w.seed),
        test_size=CS_CASE["test_size"],
        methods=CS.cfg["methods"],
        settings=CS_SETTINGS,
    script:
        CALL


rule cox_subgroups_case_table:
    input:
        runs=CS_CASE_RUNS,
    output:
        summary=paper_report(CS, "tables/case_study.csv", "case_study_table"),
    params:
        func="icml26.cox_subgroups.rules:case_study_table",
    script:
        CALL


rule cox_subgroups_tables:
    input:
        synthetic_runs=CS_SYN_RUNS,
        real_runs=CS_REAL_RUNS,
    output:
        synthetic_summary=paper_report(CS, "tables/synthetic.csv", "synthetic_table"),
        real_summary=paper_report(CS, "tables/real.csv", "real_table"),
    params:
        func="icml26.cox_subgroups.rules:tables",
    script:
        CALL


rule cox_subgroups_survival:
    input:
        real_data=expand(f"{CS.data}/datasets/{{name}}.csv", name=CS_REAL["datasets"]),
        real_runs=expand(f"{CS.data}/real/{{name}}_seed{CS_REAL['seeds'][0]}.csv", name=CS_REAL["datasets"]),
        case_data=rules.cox_subgroups_cmapss_dataset.output.table,
        case_runs=expand(f"{CS.data}/case_study/{{case}}_seed{CS_CASE['seeds'][0]}.csv", case=list(CS_CASE["cases"])),
    output:
        kaplan_meier=f"{CS.results}/tables/kaplan_meier.csv",
        logrank=table_report(CS, "logrank"),
        hazard_ratios=table_report(CS, "hazard_ratios"),
    params:
        func="icml26.cox_subgroups.rules:subgroup_survival",
        method=CS_VIEWS["method"],
        real_test_size=CS_REAL["test_size"],
        case_test_size=CS_CASE["test_size"],
        cases=CS_CASE["cases"],
        cox_alpha=CS_SETTINGS["cox_alpha"],
    script:
        CALL


rule cox_subgroups_timing:
    input:
        timings=CS_TIMINGS,
    output:
        summary=f"{CS.timing}/method_seconds.csv",
        machine=f"{CS.timing}/machine.json",
    params:
        func="icml26.cox_subgroups.rules:timing",
    script:
        CALL


rule cox_subgroups_figures:
    input:
        synthetic_summary=rules.cox_subgroups_tables.output.synthetic_summary,
        real_summary=rules.cox_subgroups_tables.output.real_summary,
        case_summary=rules.cox_subgroups_case_table.output.summary,
        kaplan_meier=rules.cox_subgroups_survival.output.kaplan_meier,
        logrank=rules.cox_subgroups_survival.output.logrank,
    output:
        **figure_outputs(CS, "synthetic", "pareto", "case_study", "kaplan_meier"),
    params:
        func="icml26.cox_subgroups.rules:figures",
    script:
        CALL


rule cox_subgroups_verdict:
    input:
        synthetic_summary=rules.cox_subgroups_tables.output.synthetic_summary,
        real_summary=rules.cox_subgroups_tables.output.real_summary,
        case_summary=rules.cox_subgroups_case_table.output.summary,
    output:
        claims=paper_report(CS, "claims.json", "claims", "verdict"),
        metrics=f"{CS.results}/metrics.json",
    params:
        func="icml26.cox_subgroups.rules:verdict",
        substitution=substitution(CS),
    script:
        CALL
