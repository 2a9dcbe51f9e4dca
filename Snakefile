# icml26: one Snakemake workflow for every reproduced ICML 2026 paper.
#   snakemake --cores 2                      every registered paper + summary, quick scale
#   snakemake ski_rental --cores 2           one paper
#   snakemake ski_rental --cores 2 --configfile config/smoke.yaml   (target first)
# Conventions: docs/ARCHITECTURE.md. Adding a paper: docs/ADDING_A_PAPER.md.

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/ski_rental.smk"
include: "workflow/rules/massart_drift.smk"
include: "workflow/rules/dvm_ad.smk"
include: "workflow/rules/annealed_langevin.smk"
include: "workflow/rules/cox_subgroups.smk"
include: "workflow/rules/manifold_microscope.smk"
include: "workflow/rules/seizure_benchmark.smk"
include: "workflow/rules/completep_rl.smk"
include: "workflow/rules/cerebellar_control.smk"
include: "workflow/rules/summary.smk"


rule all:
    """Every registered paper at the configured scale, and the summary of verdicts."""
    default_target: True
    input:
        rules.summary.output.summary,
        [getattr(rules, slug).input for slug in PAPERS],
