"""Where a paper's results were computed: machine, BLAS and its kernel, thread settings, library versions,
and the commit.

Same config gives byte-identical outputs only on the same machine with the same libraries: BLAS kernels
(chosen per processor at run time) and thread-level reductions change the last bits, and chaotic training
amplifies them. So every run writes ``results/<scale>/<slug>/provenance.json`` beside its verdict (git-tracked
at quick scale like the verdict, and, being different on every run, left out of byte-identity checks like
``timing/``), and ``make verify`` names the provenance of the numbers it compares.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from .io import write_json
from .timing import cpu_model

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TORCH_NUM_THREADS")


def pinned_versions() -> dict[str, str]:
    """The installed version of every library icml26 pins (its requirements in the package metadata)."""
    versions = {}
    for requirement in metadata.requires("icml26") or []:
        if "extra ==" in requirement:
            continue
        name = re.split(r"[ ;=<>!~\[]", requirement, maxsplit=1)[0]
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return dict(sorted(versions.items()))


def blas() -> list[dict[str, Any]]:
    """numpy's and scipy's BLAS/LAPACK libraries as threadpoolctl sees them: implementation, version, the
    kernel selected for this processor (``architecture``) and threads. torch's own are not listed (importing
    torch costs seconds); its version is in ``libraries``."""
    import numpy  # noqa: F401  (loads the BLAS threadpoolctl inspects)
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    keep = ("user_api", "internal_api", "version", "architecture", "num_threads", "threading_layer")
    return [
        {k: pool[k] for k in keep if k in pool} | {"library": Path(pool["filepath"]).name} for pool in threadpool_info()
    ]


def git_state(root: str | os.PathLike = ".") -> dict[str, Any]:
    """The commit and whether the work tree had changes (``None`` where this is not a git checkout). A copy of
    the project inside some other repository (benchmarks/measure.py's ``--workdir``) is not a checkout: the
    enclosing repository's commit would name the wrong code."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    commit = git("rev-parse", "HEAD") if top and Path(top).resolve() == Path(root).resolve() else None
    # results/ is left out: the run itself rewrites the committed verdicts there
    status = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results") if commit else None
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def collect_machine() -> dict[str, Any]:
    """Processor, cores, platform, Python, thread settings and BLAS kernels: what sets the last digits."""
    return {
        "cpu": cpu_model(),
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "threads": {name: os.environ.get(name) for name in THREAD_VARIABLES},
        "blas": blas(),
    }


def collect(scale: str, slug: str) -> dict[str, Any]:
    from .criteria import digest
    from .units import commits

    units = commits(scale, slug)
    return {
        "paper": slug,
        "scale": scale,
        "written": datetime.now(UTC).isoformat(timespec="seconds"),
        **collect_machine(),
        "git": git_state(),
        **({"units": units} if units else {}),  # where its kept jobs were computed (common.units)
        "libraries": pinned_versions(),
        "criteria": digest(slug),  # sha256 of config/criteria/<slug>.yaml: the registry this run was judged under
    }


def output_hashes(claims: str | os.PathLike, metrics: str | os.PathLike) -> dict[str, str]:
    """sha256 of the verdict and metrics files as the run wrote them: ``make verify`` finds a later hand edit."""
    from .sources import sha256

    return {Path(claims).name: sha256(claims), Path(metrics).name: sha256(metrics)}


def write(claims: str, metrics: str, provenance: str, *, scale: str, slug: str) -> None:
    """The provenance of the run that just wrote ``claims`` and ``metrics`` (the rule's inputs), with their hashes."""
    info = collect(scale, slug) | {"outputs": output_hashes(claims, metrics)}
    print(f"{slug}: {describe(info)}", flush=True)
    write_json(provenance, info)


def describe(info: dict[str, Any]) -> str:
    """One line: 'AMD EPYC 7763, 2 cores, openblas Haswell, Python 3.11.7, commit 1a2b3c4d5e'."""
    git = info.get("git") or {}
    state = " (uncommitted changes)" if git.get("dirty") else ""
    commit = f"commit {git['commit'][:10]}{state}" if git.get("commit") else "no git commit"
    where = f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores, {kernels(info.get('blas', []))}"
    return f"{where}, Python {info.get('python', '?')}, {commit}"


def kernels(pools: list[dict[str, Any]]) -> str:
    """'openblas Haswell': the BLAS kernels of :func:`blas`, which set the last digits and much of the speed (the
    same processor model ran SkylakeX and Haswell kernels on different days)."""
    names = sorted(
        {f"{b.get('internal_api', '?')} {b.get('architecture', '?')}" for b in pools if b.get("user_api") == "blas"}
    )
    return ", ".join(names) or "no BLAS"
