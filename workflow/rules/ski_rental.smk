# ski_rental: ski rental with distributional predictions (spec: shared/papers/ski_rental.md).
# predictions -> policies -> {evaluate, error_sweep} -> figures -> verdict; oracles beside.
# Each rule calls one function of icml26.ski_rental.rules (see docs/ARCHITECTURE.md).

SKI = register("ski_rental")
SKI_FIG_B = max(SKI.cfg["B_values"])


rule ski_rental:
    """Target: every ski_rental output at the configured scale."""
    input:
        paper_outputs(SKI),
        f"{SKI.results}/figures/pareto.png",
        f"{SKI.results}/figures/error_sweep.png",


rule ski_rental_predictions:
    output:
        predictions=f"{SKI.data}/predictions.csv",
    params:
        func="icml26.ski_rental.rules:predictions",
        B_values=SKI.cfg["B_values"],
        N_factor=SKI.cfg["N_factor"],
        families=SKI.cfg["families"],
    script:
        CALL


rule ski_rental_policies:
    input:
        predictions=rules.ski_rental_predictions.output.predictions,
    output:
        policies=f"{SKI.data}/policies.csv",
    threads: paper_threads(SKI)
    resources:
        **job_resources(SKI),
    params:
        func="icml26.ski_rental.rules:policies",
        lambdas=SKI.cfg["lambdas"],
        R_grid=SKI.cfg["R_grid"],
    script:
        CALL


rule ski_rental_evaluate:
    input:
        predictions=rules.ski_rental_predictions.output.predictions,
        policies=rules.ski_rental_policies.output.policies,
    output:
        table=report(
            f"{SKI.results}/tables/consistency_robustness.csv",
            caption="../report/ski_rental/consistency_robustness.rst",
            category="ski_rental",
            subcategory="tables",
        ),
    params:
        func="icml26.ski_rental.rules:evaluate",
    script:
        CALL


rule ski_rental_error_sweep:
    input:
        predictions=rules.ski_rental_predictions.output.predictions,
        policies=rules.ski_rental_policies.output.policies,
    output:
        table=report(
            f"{SKI.results}/tables/error_sweep.csv",
            caption="../report/ski_rental/error_sweep_table.rst",
            category="ski_rental",
            subcategory="tables",
        ),
    threads: paper_threads(SKI)
    resources:
        **job_resources(SKI),
    params:
        func="icml26.ski_rental.rules:error_sweep",
        shift=SKI.cfg["error"]["shift"],
        mixture=SKI.cfg["error"]["mixture"],
    script:
        CALL


rule ski_rental_oracles:
    output:
        table=report(
            f"{SKI.results}/tables/oracles.csv",
            caption="../report/ski_rental/oracles.rst",
            category="ski_rental",
            subcategory="tables",
        ),
    params:
        func="icml26.ski_rental.rules:oracles",
        B_values=SKI.cfg["B_values"],
        N_factor=SKI.cfg["N_factor"],
    script:
        CALL


rule ski_rental_figures:
    input:
        evaluation=rules.ski_rental_evaluate.output.table,
        sweep=rules.ski_rental_error_sweep.output.table,
    output:
        **figure_outputs(SKI, "pareto", "error_sweep"),
    params:
        func="icml26.ski_rental.rules:figures",
        B=SKI_FIG_B,
        lam=SKI.cfg["figures"]["lam"],
        R=SKI.cfg["figures"]["R"],
    script:
        CALL


rule ski_rental_verdict:
    input:
        evaluation=rules.ski_rental_evaluate.output.table,
        sweep=rules.ski_rental_error_sweep.output.table,
        oracles=rules.ski_rental_oracles.output.table,
    output:
        claims=report(
            f"{SKI.results}/claims.json",
            caption="../report/ski_rental/claims.rst",
            category="ski_rental",
            subcategory="verdict",
        ),
        metrics=f"{SKI.results}/metrics.json",
    params:
        func="icml26.ski_rental.rules:verdict",
        substitution=substitution(SKI),
        R_grid=SKI.cfg["R_grid"],
    script:
        CALL
