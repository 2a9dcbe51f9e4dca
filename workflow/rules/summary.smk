# The cross-paper summary of claim verdicts at this scale (included last: it needs PAPERS).


rule summary:
    """results/<scale>/summary.md: paper x claim x paper value x measured x verdict."""
    input:
        claims=expand("results/{scale}/{slug}/claims.json", scale=SCALE, slug=PAPERS),
        timing_claims=[getattr(rules, f"{slug}_timing_verdict").output.claims for slug in PAPERS
                       if hasattr(rules, f"{slug}_timing_verdict")],
    output:
        summary=report(
            f"results/{SCALE}/summary.md",
            caption="../report/summary.rst",
            category="summary",
        ),
        timing_summary=f"results/{SCALE}/timing/summary.md",
    params:
        func="icml26.common.summary:build_summary",
        scale=SCALE,
    log:
        f"logs/{SCALE}/summary.log",
    benchmark:
        f"benchmarks/{SCALE}/summary.tsv"
    script:
        CALL
