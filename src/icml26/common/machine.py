"""The machine and code a result was computed with: processor, BLAS kernels, thread settings, git commit.

One place for what every record of a computation names (a paper's ``provenance.json``, a kept job's ``unit.json``,
a measured ``timing/machine.json``). Only the standard library and threadpoolctl: the job runner records units with
it, so every rule's code depends on this file (icml26.common.codedeps).
"""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path
from typing import Any

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TORCH_NUM_THREADS")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


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


def kernels(pools: list[dict[str, Any]]) -> str:
    """'openblas Haswell': the BLAS kernels of :func:`blas`, which set the last digits and much of the speed (the
    same processor model ran SkylakeX and Haswell kernels on different days)."""
    names = sorted(
        {f"{b.get('internal_api', '?')} {b.get('architecture', '?')}" for b in pools if b.get("user_api") == "blas"}
    )
    return ", ".join(names) or "no BLAS"


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


def git_show(revision: str, path: str | os.PathLike, root: str | os.PathLike = ".") -> str | None:
    """``path``'s text at ``revision`` (``git show``), or None where git has none."""
    try:
        done = subprocess.run(
            ["git", "show", f"{revision}:{Path(path).as_posix()}"], cwd=root, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def committed_text(path: str | os.PathLike, root: str | os.PathLike = ".") -> str | None:
    """``path``'s text as this checkout's HEAD commits it, or None (not a checkout of its own, or not committed)."""
    return git_show("HEAD", path, root) if git_state(root).get("commit") is not None else None
