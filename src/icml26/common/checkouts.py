"""A throw-away copy of this checkout and the environment its commands run in: what the tests, ``make gpu-check``
(scripts/gpu_check.py), the fault sweep (scripts/fault_sweep.py) and ``make bench`` (benchmarks/measure.py) share.

These work in a source checkout only (``ROOT`` is the repository that holds this file): the copy is what a clean
clone would have (tracked and untracked-but-not-ignored files), beside a link to the offline data in ``../shared``.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .forkserver import ENV as FORKSERVER
from .forkserver import running_server

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent  # the venv that runs this also runs snakemake and dvc


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


SNAKEMAKE_MARKER = ".snakemake_timestamp"  # Snakemake's own file in a directory() output, not ours
MEASURED = "timing"  # results/<scale>/<slug>/timing/: wall-clock measurements, never byte-identical
PROVENANCE = "provenance.json"  # results/<scale>/<slug>/provenance.json: when and where it ran, never identical


def repeatable(relative: str | Path) -> bool:
    """Whether an output must be byte-identical on a rerun (not a measurement, not a provenance record)."""
    parts = Path(relative).parts
    return MEASURED not in parts and parts[-1] != PROVENANCE


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
