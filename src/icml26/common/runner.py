"""Runs one rule function in the job's own process, from a Snakemake ``script:``.

Every rule declares ``params: func="icml26.<slug>.rules:<name>"`` plus named
``input``/``output``/``params`` that match the function's keyword arguments.
``workflow/scripts/call.py`` hands the ``snakemake`` object to :func:`run_job`, which
passes it to :func:`call_rule_function` (in this process, or in the opt-in fork server of
:mod:`icml26.common.forkserver`), which pins threads, sends output to the rule's
log and calls the function. The same function is what the tests call.

Before the call it removes what a killed run left beside the outputs (temporary files of atomic
writes) and checks every folder input against the manifest its job recorded (:func:`changed_folders`: Snakemake
sees a folder's own time stamp, not an edit inside it, so an edited teacher or EDF folder would otherwise feed
later jobs unseen); on failure the full traceback goes to the log and one line, the error's own message, to
the console, so the user sees why without opening the log. A job running longer than a minute puts its newest
log line on the console every minute (:mod:`icml26.common.heartbeat`). A successful call is recorded for
:mod:`icml26.common.replay` when ``$ICML26_RECORD_CALLS`` is set (the tests' second run).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a job never waits on (or downloads from) the Hugging Face hub
os.environ.setdefault("MPLBACKEND", "Agg")  # jobs draw off-screen, whatever display the machine has


def resolve(spec: str) -> Callable[..., Any]:
    """``"icml26.ski_rental.rules:evaluate"`` -> the function object."""
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise ValueError(f"rule function must be given as 'module:function', got {spec!r}")
    return getattr(importlib.import_module(module_name), attr)


def rule_kwargs(snakemake: Any) -> dict[str, Any]:
    """Named inputs, outputs and params (minus ``func``) as one keyword dict."""
    kwargs: dict[str, Any] = {}
    for section in (snakemake.input, snakemake.output, snakemake.params):
        for name, value in section.items():
            if name in kwargs:
                raise ValueError(f"rule {snakemake.rule}: name {name!r} is used twice across input/output/params")
            kwargs[name] = value
    kwargs.pop("func", None)
    return kwargs


def console_line(rule: str, error: BaseException, log: Path | None) -> str:
    """``icml26: <rule> failed: <message> (traceback: <log>)`` -- one line, whatever the message."""
    message = " ".join(str(error).split()) or type(error).__name__
    if not isinstance(error, (ValueError, OSError, LookupError)):
        message = f"{type(error).__name__}: {message}"
    return f"icml26: {rule} failed: {message}" + (f" (traceback: {log})" if log else "")


def stale_verdict(snakemake: Any) -> Path | None:
    """The verdict a failed job leaves unsupported: its paper's ``results/<scale>/<slug>/claims.json`` (jobs run in
    the repository root), or None for shared code or a job without a scale."""
    parts = snakemake.params.func.partition(":")[0].split(".")
    scale = (getattr(snakemake, "config", None) or {}).get("scale")
    if len(parts) < 3 or parts[0] != "icml26" or parts[1] == "common" or not scale:
        return None
    return Path("results", scale, parts[1], "claims.json")


def stale_verdict_removed(verdict: Path | None) -> str:
    """Remove a verdict that an earlier run of this work tree left and this failed run no longer supports; the
    committed one (the same bytes as HEAD's) stays, since its provenance names the run that made it. What was done,
    for the console line."""
    from .machine import committed_text

    if verdict is None or not verdict.exists():
        return ""
    if committed_text(verdict) == verdict.read_text(encoding="utf-8"):
        return f"; the committed {verdict} stays as committed (this run did not replace it)"
    verdict.unlink()
    return f"; removed {verdict}, which this run no longer supports (git checkout restores a committed one)"


MANIFESTS = Path(".snakemake", "icml26-folders")  # per folder output: {file: sha256} as its job wrote it


def _manifest_path(folder: str | os.PathLike) -> Path:
    return MANIFESTS / (Path(folder).as_posix().replace("/", "%") + ".json")


def _hashes(folder: str | os.PathLike) -> dict[str, str]:
    from .sources import sha256

    root = Path(folder)
    return {  # Snakemake stamps a folder output with .snakemake_timestamp after the job: not the job's file
        p.relative_to(root).as_posix(): sha256(p)
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith(".snakemake")
    }


def record_folders(outputs: list[str]) -> None:
    """The manifest of every folder a job wrote."""
    import json

    for output in outputs:
        if Path(output).is_dir():
            _manifest_path(output).parent.mkdir(parents=True, exist_ok=True)
            _manifest_path(output).write_text(json.dumps(_hashes(output), indent=1, sort_keys=True))


def changed_folders(inputs: list[str]) -> list[str]:
    """Folder inputs whose files differ from what their job wrote (added, removed or edited since), one line
    each; a folder without a manifest (written before manifests, or not by a job) is not checked."""
    import json

    found = []
    for folder in inputs:
        if not (Path(folder).is_dir() and _manifest_path(folder).is_file()):
            continue
        recorded, now = json.loads(_manifest_path(folder).read_text()), _hashes(folder)
        changed = sorted(k for k in recorded.keys() | now.keys() if recorded.get(k) != now.get(k))
        if changed:
            found.append(
                f"{folder}: {', '.join(changed[:3])}{' ...' if len(changed) > 3 else ''} changed since the job "
                "that wrote it; delete the folder to rebuild it (or rerun that job with --forcerun)"
            )
    return found


def run_job(snakemake: Any) -> None:
    """The job script's one call: the rule function here, or in the fork server that ``$ICML26_FORKSERVER``
    names (icml26.common.forkserver), exiting with the job's status."""
    from .forkserver import ENV, ForkServerError, submit

    address = os.environ.get(ENV)
    if not address:
        call_rule_function(snakemake)
        return
    try:
        status = submit(snakemake, address)
    except ForkServerError as error:
        sys.exit(f"icml26: {snakemake.rule}: {error}")
    sys.exit(status)


def call_rule_function(snakemake: Any) -> None:
    from .determinism import pin_threads
    from .heartbeat import Heartbeat
    from .io import remove_leftovers
    from .replay import record
    from .units import for_job

    pin_threads(int(snakemake.threads))
    func = resolve(snakemake.params.func)
    log = Path(snakemake.log[0]) if len(snakemake.log) else None
    console = sys.stderr
    sink = open(log, "w", encoding="utf-8") if log else contextlib.nullcontext(sys.stderr)
    with sink as stream, contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        start = time.perf_counter()
        print(f"[{snakemake.rule}] {snakemake.params.func}", flush=True)
        for output in snakemake.output:
            for leftover in remove_leftovers(output):
                print(f"removed {leftover}, left by an interrupted run", flush=True)
        kwargs = rule_kwargs(snakemake)
        try:
            changed = changed_folders(list(snakemake.input))
            if changed:
                raise ValueError("; ".join(changed))
            unit = for_job(snakemake)
            kept = unit.committed() if unit else None
            if kept:
                print(unit.reuse(kept), flush=True)
            else:
                with Heartbeat(snakemake.rule, log, console) if log else contextlib.nullcontext():
                    func(**kwargs)
                if unit:
                    unit.record(time.perf_counter() - start)
        except Exception as error:
            traceback.print_exc(file=stream)  # the full story in the log ...
            if not log:
                raise
            line = console_line(snakemake.rule, error, log)
            line += stale_verdict_removed(stale_verdict(snakemake))
            print(line, file=console, flush=True)  # ... its gist on screen, one line ...
            raise SystemExit(1) from None  # ... and the job fails, its traceback not printed a second time
        record_folders([str(o) for o in snakemake.output])
        record(snakemake.params.func, kwargs, int(snakemake.threads), [str(o) for o in snakemake.output])
        print(f"[{snakemake.rule}] done in {time.perf_counter() - start:.2f} s", flush=True)
