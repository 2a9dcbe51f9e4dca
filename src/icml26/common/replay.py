"""Recorded rule calls, replayed in one process: the test suite's cheap second run.

With ``ICML26_RECORD_CALLS=<file>`` set, every job appends its call (function, keyword arguments,
threads, outputs) to that file when it succeeds, so the file lists the jobs in an order that respects
the DAG. ``python -m icml26.common.replay <file>`` run in a fresh copy of the repository calls the same
functions with the same arguments, in that order, in one interpreter: the outputs must be byte-identical
to Snakemake's (docs/ARCHITECTURE.md, "Tests"). It skips Snakemake's start-up, DAG and per-job imports,
not the work, so the check still covers every job, in another directory and process.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
from pathlib import Path
from typing import Any

RECORD_ENV = "ICML26_RECORD_CALLS"


def record(func: str, kwargs: dict[str, Any], threads: int, outputs: list[str]) -> None:
    """Append one call to the file named by ``$ICML26_RECORD_CALLS`` (no-op when unset)."""
    target = os.environ.get(RECORD_ENV)
    if not target:
        return
    line = json.dumps({"func": func, "kwargs": kwargs, "threads": threads, "outputs": outputs}, default=str)
    with open(target, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # jobs finish in parallel
        handle.write(line + "\n")


def replay(calls: str | os.PathLike) -> int:
    """Call every recorded function in order, in the current directory; return how many."""
    from .determinism import pin_threads
    from .runner import resolve

    records = [json.loads(line) for line in Path(calls).read_text(encoding="utf-8").splitlines() if line]
    for call in records:
        for output in call["outputs"]:
            Path(output).parent.mkdir(parents=True, exist_ok=True)  # as Snakemake does before a job
        pin_threads(int(call["threads"]))
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            resolve(call["func"])(**call["kwargs"])
    return len(records)


if __name__ == "__main__":
    print(f"replayed {replay(sys.argv[1])} calls")
