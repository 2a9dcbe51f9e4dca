"""Where a paper's results were computed: machine, BLAS and its kernel, thread settings, library versions,
and the commit.

Same config gives byte-identical outputs only on the same machine with the same libraries: BLAS kernels
(chosen per processor at run time) and thread-level reductions change the last bits, and chaotic training
amplifies them. So every run writes ``results/<scale>/<slug>/provenance.json`` beside its verdict (git-tracked
at quick scale like the verdict, and, as it may differ from run to run, left out of byte-identity checks like
``timing/``), and ``make verify`` names the provenance of the numbers it compares. A rerun that reproduces the
committed output bytes keeps the committed record (:func:`write`).
"""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from .io import atomic_path, write_json
from .machine import collect_machine, git_state, kernels


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


def collect(scale: str, slug: str) -> dict[str, Any]:
    from .criteria import digest
    from .units import commits

    units = commits(scale, slug)
    return {
        "paper": slug,
        "scale": scale,
        "written": collect_written(),
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


SAME_RESULTS = ("paper", "scale", "outputs", "criteria", "units")  # what makes a rerun the committed run's twin


def write(claims: str, metrics: str, provenance: str, *, scale: str, slug: str) -> None:
    """The provenance of the run that just wrote ``claims`` and ``metrics`` (the rule's inputs), with their hashes.
    A rerun that reproduces the committed output bytes under the same criteria and kept units keeps the committed
    record, whatever machine, libraries or commit it ran on: the record still says truly where those bytes were
    first computed, and rerunning a paper in a fresh clone leaves ``git status`` clean. The console line says
    which happened."""
    from .machine import committed_text

    info = collect(scale, slug) | {"outputs": output_hashes(claims, metrics)}
    committed = committed_text(provenance)
    try:
        kept = json.loads(committed) if committed else None
    except ValueError:
        kept = None
    if isinstance(kept, dict) and _results(kept) == _results(info):
        with atomic_path(provenance) as tmp:
            tmp.write_text(committed, encoding="utf-8")
        kept_line = f"the committed output bytes, reproduced; their record kept ({describe(kept)})"
        print(f"{slug}: {describe(info)}: {kept_line}", flush=True)
        return
    print(f"{slug}: {describe(info)}", flush=True)
    write_json(provenance, info)


def _results(record: dict[str, Any]) -> dict[str, Any]:
    """What of a record says which results it describes, as JSON reads it back."""
    return json.loads(json.dumps({k: record.get(k) for k in SAME_RESULTS}, default=str))


def collect_written() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def describe(info: dict[str, Any]) -> str:
    """One line: 'AMD EPYC 7763, 2 cores, openblas Haswell, Python 3.11.7, commit 1a2b3c4d5e'."""
    git = info.get("git") or {}
    state = " (uncommitted changes)" if git.get("dirty") else ""
    commit = f"commit {git['commit'][:10]}{state}" if git.get("commit") else "no git commit"
    where = f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores, {kernels(info.get('blas', []))}"
    return f"{where}, Python {info.get('python', '?')}, {commit}"
