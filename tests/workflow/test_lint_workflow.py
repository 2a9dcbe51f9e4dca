"""`scripts/lint_workflow.py` reads Snakemake's lint report: the conda advice is accepted, anything else fails."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "lint_workflow.py"
spec = importlib.util.spec_from_file_location("lint_workflow", SCRIPT)
lint_workflow = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lint_workflow)

REPORT = """Lints for snakefile /repo/workflow/rules/x.smk:
    * Mixed rules and functions in same snakefile.:
      Small one-liner functions used only once should be defined as lambda
Lints for rule x_figures (line 12, /repo/workflow/rules/x.smk):
    * Specify a conda environment or container for each rule.:
      This way, the used software for each specific step is documented, and the
"""


def test_every_finding_is_read_with_its_place_and_only_the_conda_advice_is_accepted():
    found = lint_workflow.findings(REPORT)
    assert found == [
        ("snakefile /repo/workflow/rules/x.smk", "Mixed rules and functions in same snakefile."),
        (
            "rule x_figures (line 12, /repo/workflow/rules/x.smk)",
            "Specify a conda environment or container for each rule.",
        ),
    ]
    assert [title for _, title in found if title not in lint_workflow.ACCEPTED] == [
        "Mixed rules and functions in same snakefile."
    ]
