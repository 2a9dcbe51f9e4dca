# icml26: one Snakemake workflow for every reproduced ICML 2026 paper.
#   snakemake --cores 2                      every registered paper + summary, quick scale
#   snakemake ski_rental --cores 2           one paper
#   snakemake ski_rental --cores 2 --configfile config/smoke.yaml   (target first)
#   snakemake --cores 2 --config "papers=[ski_rental, dvm_ad]"        a subset, with its own summary
# Conventions: docs/ARCHITECTURE.md. Adding a paper: docs/ADDING_A_PAPER.md.

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


# The HTML report's first page: the verdict summary once `rule summary` has written it.
report: summary_page()


for _slug in selected_papers():  # workflow/papers.yaml, or the config's `papers` subset

    include: f"workflow/rules/{_slug}.smk"


include: "workflow/rules/summary.smk"


complete_rules()  # log, benchmark and code inputs of every rule that calls a function


rule all:
    """Every registered paper at the configured scale, and the summary of verdicts (for --report: what is built)."""
    default_target: True
    input:
        built_only(rules.summary.output.summary, *[getattr(rules, slug).input for slug in PAPERS]),
