"""Snakemake `script:` entry point shared by every rule: run the rule's function.

The rule names its function in ``params.func``; see icml26.common.runner (and icml26.common.forkserver for
``$ICML26_FORKSERVER``).
"""

from icml26.common.runner import run_job

run_job(snakemake)  # noqa: F821 -- injected by Snakemake
