"""The smoke DAG through a real single-node SLURM cluster (scripts/slurm_cluster.sh)."""

import os
import shutil
import subprocess

import pytest

from tests.conftest import GUARD, ROOT, copy_repository, run, snakemake, tool_env, tree_digest

pytestmark = [pytest.mark.workflow, pytest.mark.slurm]
# First status check after 7 s instead of the profile's 5 s: a smoke job takes 5-8 s here, and every
# check that finds nothing finished pushes the next one 10 s further away.
PROFILE = (
    "--profile",
    "workflow/profiles/slurm",
    "--configfile",
    "config/smoke.yaml",
    "--slurm-init-seconds-before-status-checks",
    "7",
)


@pytest.fixture(scope="module")
def cluster():
    if shutil.which("slurmctld") is None or os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI must run the SLURM test: install slurm-wlm and munge (make system-deps) and run as root")
        pytest.skip("needs root and Debian's slurm-wlm + munge (make system-deps)")
    script = ["bash", str(ROOT / "scripts" / "slurm_cluster.sh")]
    already_up = subprocess.run(["pgrep", "-x", "slurmctld"], capture_output=True, check=False).returncode == 0
    run([*script, "start"], ROOT, timeout=GUARD)
    yield
    if not already_up:  # a config left naming a stopped controller slows every later Snakemake start by ~9 s
        run([*script, "stop"], ROOT, timeout=GUARD)


def test_slurm_run_is_byte_identical_to_the_local_run(cluster, smoke_run, tmp_path):
    repo = copy_repository(tmp_path / "slurm")
    proc = snakemake(repo, "ski_rental", *PROFILE, env=tool_env(warm=False))  # SLURM starts each job itself
    jobs = len(list((smoke_run / "logs" / "smoke" / "ski_rental").rglob("*.log")))  # one log per job of the local run
    assert jobs >= 5 and (proc.stdout + proc.stderr).count("has been submitted with SLURM jobid") == jobs  # none local
    assert tree_digest(repo / "results" / "smoke" / "ski_rental", repo / "data" / "smoke") == tree_digest(
        smoke_run / "results" / "smoke" / "ski_rental", smoke_run / "data" / "smoke"
    )


def test_failing_slurm_job_is_reported_as_failed(cluster, tmp_path):
    repo = copy_repository(tmp_path / "slurm-failing")
    predictions = repo / "data" / "smoke" / "ski_rental" / "predictions.csv"
    snakemake(repo, str(predictions.relative_to(repo)), "--cores", "1", "--configfile", "config/smoke.yaml")
    predictions.write_text("this is not a predictions table\n")
    proc = snakemake(
        repo,
        "results/smoke/ski_rental/tables/consistency_robustness.csv",
        *PROFILE,
        "--latency-wait",
        "5",
        check=False,
        env=tool_env(warm=False),
    )  # a failed job has no outputs to wait for
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "Error in rule ski_rental_policies" in text and "FAILED" in text
