"""The quick-scale verdicts committed to git are exactly what the code produces now."""

import subprocess

import pytest

from tests.conftest import ROOT, snakemake

pytestmark = pytest.mark.workflow


def committed(pattern: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", pattern], cwd=ROOT, check=True, capture_output=True, text=True)
    return out.stdout.split()


def test_committed_quick_results_are_current(repo):
    files = committed("results/quick")
    assert "results/quick/summary.md" in files and "results/quick/ski_rental/claims.json" in files
    for name in files:  # the copy starts from the committed bytes; rebuild them from scratch
        (repo / name).unlink()
    snakemake(repo, "--cores", "2")
    stale = [name for name in files if (repo / name).read_bytes() != (ROOT / name).read_bytes()]
    assert stale == [], f"rerun `make run` and commit: {stale}"
