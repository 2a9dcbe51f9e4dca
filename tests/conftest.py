"""Shared fixtures: a throw-away copy of the repository and a Snakemake runner."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from icml26.common.checkouts import (  # noqa: F401  (re-exported: the tests import them from here)
    BIN,
    MEASURED,
    PROVENANCE,
    ROOT,
    SNAKEMAKE_MARKER,
    copy_repository,
    copy_with_own_data,
    fetch_replicas,
    repeatable,
    source_files,
    tool_env,
    tree_digest,
)
from icml26.common.determinism import pin_threads


def committed_results(slug: str) -> dict:
    """A paper's committed quick ``claims.json`` and ``metrics.json``, parsed: what ``make verify`` compares a run
    with, and what the papers' tolerance tests move."""
    import json

    from icml26.common.verify import FILES

    return {name: json.loads((ROOT / "results" / "quick" / slug / name).read_text()) for name in FILES}


def as_fetched(section: dict, where: Path) -> Path:
    """``where`` with a folder for each entry of a paper section's ``fetch:`` list where `make fetch` puts them (a
    ``config.json`` in each model folder, as in every one; a data set as the paper's ``replica_data`` writes it, as
    its checks read it): run a settings check from there to see the section past its "not fetched yet" line."""
    import importlib

    for entry in section.get("fetch", {}).values():
        folder = where / entry["into"]
        if entry["kind"] == "dataset":
            paper = importlib.import_module(f"icml26.{entry['into'].split('/')[1]}")
            paper.replica_data(entry.get("hub") or entry["source"], folder)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text("{}")
    return where


def figure_files(folder: Path, *names: str) -> dict[str, str]:
    """The outputs of a paper's figure job (``<name>_png``, ``<name>_pdf``) as files in ``folder``."""
    return {f"{name}_{ext}": str(folder / f"{name}.{ext}") for name in names for ext in ("png", "pdf")}


# One thread per test process, as a Snakemake job pins its own (`threads:`): `make test` runs three xdist workers on
# two cores, and BLAS or torch pools of two threads in each oversubscribe them, their waiting threads spinning (pyod's
# LUNAR on 41 rows: 2.7 CPU-s at one thread, 47 at two beside busy cores). Subprocesses inherit the setting.
pin_threads(1)

GUARD = 3600  # seconds: a hung command is stopped, a slow machine never is (no wall-clock assertion)


def run(
    args: list[str], cwd: Path, check: bool = True, timeout: int = GUARD, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run a command from the venv; on failure show its output. ``timeout`` only guards against a hang."""
    proc = subprocess.run(
        [str(BIN / args[0]) if (BIN / args[0]).exists() else args[0], *args[1:]],
        cwd=cwd,
        env=env or tool_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        )
    return proc


def snakemake(
    cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return run(["snakemake", *args], cwd, check=check, env=env)


def planned_after_edit(repo: Path, path: Path, *targets: str) -> set[str]:
    """The rules `snakemake -n` plans at smoke scale after a content edit of ``path`` (its bytes restored after)."""
    original = path.read_bytes()
    path.write_bytes(original + b"\n# an edit\n")
    try:
        return planned_rules(repo, *targets, "--cores", "2", "--configfile", "config/smoke.yaml")
    finally:
        path.write_bytes(original)


def dag_jobs(repo: Path, *args: str) -> list[dict]:
    """The jobs `snakemake -n --forceall` plans for ``args``: rule, input and output of each."""
    out = snakemake(repo, "-n", "--forceall", *args).stdout
    jobs = []
    for line in out.splitlines():
        if line.startswith(("rule ", "localrule ")) and line.endswith(":"):
            jobs.append({"rule": line.split()[1].rstrip(":"), "input": [], "output": []})
        elif jobs and line.startswith(("    input: ", "    output: ")):
            field, _, files = line.strip().partition(": ")
            jobs[-1][field] = files.split(", ")
    return jobs


def planned_rules(repo: Path, *args: str) -> set[str]:
    out = snakemake(repo, "-n", *args).stdout
    return {line.split()[1].rstrip(":") for line in out.splitlines() if line.startswith(("rule ", "localrule "))}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh copy of the repository in a temporary folder."""
    return copy_repository(tmp_path / "icml26")


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory) -> Path:
    """One smoke-scale run of ski_rental, shared by the tests that only read its outputs; the one local
    Snakemake run of the suite whose jobs start cold, each in its own interpreter (the default path)."""
    where = copy_repository(tmp_path_factory.mktemp("smoke") / "icml26")
    snakemake(where, "ski_rental", "--cores", "2", "--configfile", "config/smoke.yaml", env=tool_env(warm=False))
    return where


# Test files that read the session's ski_rental smoke run (`smoke_run`): one unit of work, so it is built once.
SHARE_SMOKE_RUN = ("tests/workflow/test_slurm.py", "tests/workflow/test_workflow.py")


def smoke_half(nodeid: str) -> str | None:
    """``halfN`` for test_papers.py's tests parametrized ``[halfN-...]``, else None."""
    found = re.search(r"\[(half\d+)", nodeid)
    return found.group(1) if found else None


def pytest_xdist_make_scheduler(config, log):
    """`make test` runs two pytest-xdist workers, handed work a test file at a time (so a module fixture, a
    smoke run or a started cluster, is built once), with the files in :data:`SHARE_SMOKE_RUN` as one unit and
    each half of test_papers.py's smoke runs (tests parametrized ``[halfN-...]``) as a unit of its own, so
    the two halves are built side by side.

    By hand rather than ``--dist loadgroup``: xdist 3.8 marks groups by rewriting ``item._nodeid``, which
    pytest 9 no longer reads, so its groups silently come apart.
    """
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::")[0]
            if file in SHARE_SMOKE_RUN:
                return "ski_rental smoke run"
            half = smoke_half(nodeid)
            return f"{file}::{half}" if half else file

    return ByFile(config, log)


def pytest_collection_modifyitems(config, items):
    """Hand out the longest units first, so no worker ends on a long tail: the SLURM tests and the ski_rental
    smoke run (mostly waiting on the scheduler, so the other worker computes meanwhile), then the two halves
    of every paper's smoke run (test_papers.py), then the other workflow files, then the unit tests."""

    def key(item):
        file = item.nodeid.split("::")[0]
        half = smoke_half(item.nodeid) or ""  # grouped, so one process builds each half once
        return (
            file not in SHARE_SMOKE_RUN,
            file != "tests/workflow/test_papers.py",
            half,
            not item.get_closest_marker("workflow"),
        )

    items.sort(key=key)
