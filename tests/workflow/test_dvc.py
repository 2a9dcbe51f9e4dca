"""DVC round trip: push from one clone, pull into a fresh one, Snakemake has nothing to do."""

import sys

import pytest

from tests.conftest import copy_repository, run, snakemake, tree_digest

pytestmark = pytest.mark.workflow


def test_push_fresh_clone_pull_and_nothing_to_rebuild(tmp_path):
    # A project repository with history, as a user would have it.
    origin = copy_repository(tmp_path / "origin")
    run(["git", "init", "-q", "-b", "main"], origin)
    run(["git", "add", "-A"], origin)
    run(["git", "commit", "-qm", "snapshot"], origin)

    # Clone 1 builds the smoke stage through DVC and pushes to the default remote,
    # a folder beside the clone (tmp_path/icml26-dvc-remote): no set-up needed.
    first = tmp_path / "first"
    run(["git", "clone", "-q", str(origin), str(first)], tmp_path)
    run(["dvc", "repro", "ski_rental@smoke"], first)
    run(["git", "add", "-A"], first)
    run(["git", "commit", "-qm", "smoke results"], first)
    pushed = run(["dvc", "push", "ski_rental@smoke"], first).stdout
    assert (tmp_path / "icml26-dvc-remote").is_dir(), pushed

    # Clone 2 starts from git only, then `make pull` restores data and results.
    second = tmp_path / "second"
    run(["git", "clone", "-q", str(first), str(second)], tmp_path)
    assert not (second / "results" / "smoke" / "ski_rental" / "tables").exists()
    run(["make", "pull", "SCALE=smoke", "PAPER=ski_rental", f"VENV={sys.prefix}"], second)

    assert tree_digest(second / "results" / "smoke" / "ski_rental", second / "data" / "smoke") == tree_digest(
        first / "results" / "smoke" / "ski_rental", first / "data" / "smoke"
    )
    out = snakemake(second, "ski_rental", "-n", "--cores", "1", "--configfile", "config/smoke.yaml").stdout
    assert "Nothing to be done" in out
    assert "Data and pipelines are up to date" in run(["dvc", "status", "ski_rental@smoke"], second).stdout
