"""Shared fixtures: a throw-away copy of the repository and a Snakemake runner."""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from icml26.common.forkserver import ENV as FORKSERVER
from icml26.common.forkserver import running_server

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv that runs pytest also runs snakemake and dvc


def source_files() -> list[str]:
    """Files a clean checkout would have: tracked plus untracked-but-not-ignored."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    return [f for f in out if f and (ROOT / f).is_file()]


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


def fetch_replicas(repo: Path) -> Path:
    """``repo`` with a tiny replica of every model a paper section's ``fetch:`` list names, where `make fetch` puts
    them (icml26.common.lm.replicas; no DVC): the paper-scale config then passes its checks and plans."""
    from icml26.common import fetch
    from icml26.common.lm import replicas
    from icml26.common.registry import papers

    for paper in papers(repo):
        if fetch.entries(paper.slug, root=repo):
            source = replicas.sources(paper.slug, repo.parent / "hub" / paper.slug, root=repo)
            list(fetch.run(paper.slug, source=source, root=repo, dvc=False))
    return repo


def copy_repository(dest: Path) -> Path:
    """Copy the working tree's source files (no outputs, no caches) to ``dest``.

    ``shared/`` (the offline data) sits beside the checkout, as in CI; the copy gets a link to it.
    """
    for name in source_files():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    shared, link = ROOT.parent / "shared", dest.parent / "shared"
    if shared.is_dir() and not link.exists():
        link.symlink_to(shared)
    return dest


def copy_with_own_data(where: Path) -> Path:
    """A repository copy at ``where/icml26`` beside its own copy of ``../shared/data`` (a real copy, not the
    link, so a test can change its bytes without touching the offline data)."""
    shutil.copytree(ROOT.parent / "shared" / "data", where / "shared" / "data")
    return copy_repository(where / "icml26")


def figure_files(folder: Path, *names: str) -> dict[str, str]:
    """The outputs of a paper's figure job (``<name>_png``, ``<name>_pdf``) as files in ``folder``."""
    return {f"{name}_{ext}": str(folder / f"{name}.{ext}") for name in names for ext in ("png", "pdf")}


_SERVERS = contextlib.ExitStack()
atexit.register(_SERVERS.close)


@functools.cache
def forkserver() -> str:
    """This test process's fork server (icml26.common.forkserver), started at first use: Snakemake jobs
    start from it instead of importing numpy, pandas, matplotlib, scikit-learn and torch each."""
    return _SERVERS.enter_context(running_server())


def tool_env(warm: bool = True) -> dict[str, str]:
    """The environment of every command a test runs; ``warm``: Snakemake jobs go through the fork server
    (``smoke_run`` and the SLURM tests run cold, so both paths are tested and compared)."""
    env = dict(os.environ)
    env.pop(FORKSERVER, None)
    if warm:
        env[FORKSERVER] = forkserver()
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    for role in ("AUTHOR", "COMMITTER"):  # temporary git repositories need an identity
        env.setdefault(f"GIT_{role}_NAME", "icml26 tests")
        env.setdefault(f"GIT_{role}_EMAIL", "tests@icml26.invalid")
    return env


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


SNAKEMAKE_MARKER = ".snakemake_timestamp"  # Snakemake's own file in a directory() output, not ours
MEASURED = "timing"  # results/<scale>/<slug>/timing/: wall-clock measurements, never byte-identical
PROVENANCE = "provenance.json"  # results/<scale>/<slug>/provenance.json: when and where it ran, never identical


def repeatable(relative: str | Path) -> bool:
    """Whether an output must be byte-identical on a rerun (not a measurement, not a provenance record)."""
    parts = Path(relative).parts
    return MEASURED not in parts and parts[-1] != PROVENANCE


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


def tree_digest(*roots: Path) -> dict[str, str]:
    """sha256 of every file under the given folders, keyed by path relative to its root's parent.

    Measured outputs (a ``timing/`` folder, docs/ARCHITECTURE.md) and provenance records are left out: they
    differ run to run; so is Snakemake's marker in directory outputs, which a replayed run
    (icml26.common.replay) does not write.
    """
    digest = {}
    for root in roots:
        for path in sorted(
            p for p in root.rglob("*") if p.is_file() and repeatable(p.relative_to(root)) and p.name != SNAKEMAKE_MARKER
        ):
            digest[str(path.relative_to(root.parent))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


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
