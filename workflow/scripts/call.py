"""Snakemake `script:` entry point shared by every rule: call the rule's function.

The rule names its function in ``params.func``; see icml26.common.runner.
"""

from icml26.common.runner import call_rule_function

call_rule_function(snakemake)  # noqa: F821 -- injected by Snakemake
