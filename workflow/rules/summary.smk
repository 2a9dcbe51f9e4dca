# The cross-paper summary of claim verdicts at this scale (included last: it needs PAPERS). Claims on
# wall-clock time come from rules named <slug>_timing_verdict (docs/ARCHITECTURE.md, "Measured outputs").
# Every paper's verdict gets its provenance (machine, BLAS kernel, libraries, commit) beside it, under timing/.


rule provenance:
    """results/<scale>/<slug>/provenance.json: where that paper's verdict and metrics were computed."""
    input:
        claims=f"results/{SCALE}/{{slug}}/claims.json",
        metrics=f"results/{SCALE}/{{slug}}/metrics.json",
    output:
        provenance=f"results/{SCALE}/{{slug}}/provenance.json",
    log:
        f"logs/{SCALE}/{{slug}}/provenance.log",
    benchmark:
        f"benchmarks/{SCALE}/{{slug}}/provenance.tsv"
    wildcard_constraints:
        slug="|".join(PAPERS),
    params:
        func="icml26.common.provenance:write",
        scale=SCALE,
        slug=lambda w: w.slug,
    script:
        CALL


rule summary:
    """results/<scale>/summary.md (a subset run's in results/<scale>/subset/; and .rst, the report's first page): verdict
    counts, then each claim's headline."""
    input:
        claims=expand("results/{scale}/{slug}/claims.json", scale=SCALE, slug=PAPERS),
        timing_claims=[r.output.claims for r in workflow.rules if r.name in {f"{s}_timing_verdict" for s in PAPERS}],
        changes=verdict_changes(),
        beside=claims_beside(),
        not_run=[p for p in ["results/paper/not_run.yaml"] if os.path.exists(p)],
        abstracts=[p for s in PAPERS if os.path.exists(p := f"config/abstract_claims/{s}.yaml")],
    output:
        summary=report(
            f"{summary_folder()}/summary.md",
            caption="../report/summary.rst",
            category="summary",
        ),
        report_page=f"{summary_folder()}/summary.rst",
        timing_summary=f"{summary_folder()}/timing/summary.md",
    log:
        f"logs/{SCALE}/summary.log",
    benchmark:
        f"benchmarks/{SCALE}/summary.tsv"
    params:
        func="icml26.common.summary:build_summary",
        scale=SCALE,
        up=int(summary_folder() != f"results/{SCALE}"),  # the subset's summary links one folder up
    script:
        CALL
