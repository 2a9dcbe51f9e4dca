"""Measured outputs: wall-clock numbers, which unlike every other output differ from run to run.

Convention (docs/ARCHITECTURE.md, "Measured outputs"): they live in ``results/<scale>/<slug>/timing/``
(the paper is registered with ``timing: true``), beside a ``machine.json`` that says where they were
measured; comparisons time the candidates in interleaved order (A B A B ..., after a warm-up) and report
medians, so drift of the machine's load hits every candidate alike. A claim that rests on wall-clock
time is written to ``timing/claims.json`` by a rule named ``<slug>_timing_verdict``; the summary shows it
marked as measured on this machine. Byte-identity checks leave ``timing/`` out. Peak memory
(:func:`peak_memory_mb`) is measured the same way: it too depends on the machine and the allocator.
"""

from __future__ import annotations

import ctypes
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .io import write_json
from .machine import cpu_model


def machine() -> dict[str, Any]:
    """Where a measurement was taken: processor, cores this process may use, Python, key libraries."""
    versions = {
        name: getattr(sys.modules[name], "__version__", "?") for name in ("numpy", "torch") if name in sys.modules
    }
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu_model(),
        "cores": cores,
        "platform": platform.platform(terse=True),
        "python": platform.python_version(),
        **versions,
    }


def describe(info: dict[str, Any]) -> str:
    """One line for a table: 'Intel Xeon ..., 2 cores, Python 3.11.7'."""
    return f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores, Python {info.get('python', '?')}"


def write_machine(path: str | os.PathLike) -> None:
    write_json(path, machine())


def interleaved(candidates: dict[str, Callable[[], Any]], repeats: int, warmup: int = 1) -> dict[str, list[float]]:
    """Seconds of each candidate over ``repeats`` rounds, candidates alternating within each round."""
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    for _ in range(warmup):
        for run in candidates.values():
            run()
    seconds: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(repeats):
        for name, run in candidates.items():
            start = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - start)
    return seconds


def medians(seconds: dict[str, list[float]]) -> dict[str, float]:
    return {name: statistics.median(values) for name, values in seconds.items()}


def peak_memory_mb(run: Callable[[], Any], device: str = "cpu") -> float:
    """The memory one call of ``run`` adds at its peak, in MiB. CUDA: the allocator's peak beyond what was
    allocated before. CPU (Linux with glibc): the resident set's high-water mark beyond the resident set before,
    after handing glibc's free pages back (``malloc_trim``, so memory kept from earlier calls cannot hide the
    call's own) and resetting the mark (``/proc/self/clear_refs``). NaN where neither is available: nothing
    guessed."""
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize(device)
        before = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
        run()
        torch.cuda.synchronize(device)
        return (torch.cuda.max_memory_allocated(device) - before) / 2**20
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        Path("/proc/self/clear_refs").write_text("5")
        before = _status_kb("VmRSS")
    except OSError:
        return math.nan
    run()
    return (_status_kb("VmHWM") - before) / 1024


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise OSError(f"/proc/self/status has no {key}")
