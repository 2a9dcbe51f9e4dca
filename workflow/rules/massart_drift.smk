# massart_drift: drifting halfspaces under Massart noise (spec: shared/papers/massart_drift.md).
# sweep/{averaging,erm,realizable}_seed{s} -> scaling; traces; oracles; -> figures, verdict.
# Each rule calls one function of icml26.massart_drift.rules (see docs/ARCHITECTURE.md).

MD = register("massart_drift")
MD_LEARNERS = ["averaging", "erm", "realizable"]
MD_STREAM = MD.cfg["stream"]
MD_SWEEPS = expand(f"{MD.data}/sweep/{{learner}}_seed{{seed}}.csv", learner=MD_LEARNERS, seed=MD.cfg["sweep"]["seeds"])


rule massart_drift:
    """Target: every massart_drift output at the configured scale."""
    input:
        paper_outputs(MD),
        expand(
            f"{MD.results}/figures/{{name}}.{{ext}}",
            name=["excess_vs_drift", "window_vs_drift", "traces"],
            ext=["png", "pdf"],
        ),


rule massart_drift_sweep:
    output:
        table=f"{MD.data}/sweep/{{learner}}_seed{{seed}}.csv",
    wildcard_constraints:
        learner="|".join(MD_LEARNERS),
        seed=r"\d+",
    threads: paper_threads(MD)
    resources:
        **job_resources(MD),
    params:
        func="icml26.massart_drift.rules:sweep",
        learner=lambda w: w.learner,
        seed=lambda w: int(w.seed),
        Delta=MD.cfg["sweep"]["Delta"],
        W=MD.cfg["sweep"]["W"],
        eta=MD.cfg["eta"],
        reps=MD.cfg["sweep"]["reps"],
    script:
        CALL


rule massart_drift_scaling:
    input:
        sweeps=MD_SWEEPS,
    output:
        best=report(
            f"{MD.results}/tables/best_window.csv",
            caption="../report/massart_drift/best_window.rst",
            category="massart_drift",
            subcategory="tables",
        ),
        slopes=report(
            f"{MD.results}/tables/slopes.csv",
            caption="../report/massart_drift/slopes.rst",
            category="massart_drift",
            subcategory="tables",
        ),
    params:
        func="icml26.massart_drift.rules:scaling_tables",
    script:
        CALL


rule massart_drift_traces:
    output:
        table=f"{MD.data}/traces.csv",
    threads: paper_threads(MD)
    resources:
        **job_resources(MD),
    params:
        **MD_STREAM,
        func="icml26.massart_drift.rules:traces",
        eta=MD.cfg["eta"],
    script:
        CALL


rule massart_drift_oracles:
    output:
        table=report(
            f"{MD.results}/tables/oracles.csv",
            caption="../report/massart_drift/oracles.rst",
            category="massart_drift",
            subcategory="tables",
        ),
    params:
        func="icml26.massart_drift.rules:oracles",
        eta=MD.cfg["eta"],
        reps=MD.cfg["oracle_reps"],
        seed=0,
    script:
        CALL


rule massart_drift_figures:
    input:
        best=rules.massart_drift_scaling.output.best,
        slopes=rules.massart_drift_scaling.output.slopes,
        traces=rules.massart_drift_traces.output.table,
    output:
        **figure_outputs(
            MD,
            "excess_vs_drift",
            "window_vs_drift",
            "traces",
            captions={"excess_vs_drift": "scaling", "window_vs_drift": "scaling"},
        ),
    params:
        func="icml26.massart_drift.rules:figures",
        eta=MD.cfg["eta"],
        gamma=MD_STREAM["gamma"],
        Delta=MD_STREAM["Delta"],
    script:
        CALL


rule massart_drift_verdict:
    input:
        slopes=rules.massart_drift_scaling.output.slopes,
        best=rules.massart_drift_scaling.output.best,
        traces=rules.massart_drift_traces.output.table,
        oracles=rules.massart_drift_oracles.output.table,
    output:
        claims=report(
            f"{MD.results}/claims.json",
            caption="../report/massart_drift/claims.rst",
            category="massart_drift",
            subcategory="verdict",
        ),
        metrics=f"{MD.results}/metrics.json",
    params:
        func="icml26.massart_drift.rules:verdict",
        substitution=substitution(MD),
        eta=MD.cfg["eta"],
        gamma=MD_STREAM["gamma"],
        Delta=MD_STREAM["Delta"],
    script:
        CALL
