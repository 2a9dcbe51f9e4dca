"""Recompute the keys of kept paper-scale units after the key's definition changed (icml26.common.units).

A unit's key names the code it ran. When the way that code is counted changes (as when a rule function's own
module came to count only by the part the function can run), the kept units' keys are recomputed here, each from
the code at the commit its ``unit.json`` says it was computed at, never from today's code: a unit whose code has
since changed gets a key today's run does not produce, so it is not reused. A unit computed with uncommitted
changes, or whose recorded file digests do not match its commit, is left as it is and named.

    python -m icml26.common.rekey_units results/paper/<slug>/units [...]

run from the repository root; then commit the renamed folders.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from .io import write_json
from .sources import sha256
from .units import RECORD, SOURCE, code_digests, content_key


def _source_at(commit: str, into: Path) -> Path:
    """The ``src`` tree of ``commit``, written under ``into``."""
    archive = subprocess.run(["git", "archive", commit, str(SOURCE)], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / SOURCE


def rekey(record_path: Path, sources: dict[str, Path], scratch: Path) -> str:
    """Rekey one unit in place (its folder renamed to the new key); the line saying what was done."""
    record = json.loads(record_path.read_text(encoding="utf-8"))
    home, git = record_path.parent, record.get("git") or {}
    if git.get("dirty") or not git.get("commit"):
        return f"{home}: left as it is (computed with uncommitted changes, so its code is not known)"
    commit = git["commit"]
    if commit not in sources:
        sources[commit] = _source_at(commit, scratch / commit)
    src = sources[commit]
    for label, digest in record["inputs"].items():  # the record must describe that commit's files
        path = src.parent / label
        if label.startswith(f"{SOURCE}/") and path.is_file() and sha256(path) != digest:
            return f"{home}: left as it is ({label} differs from commit {commit[:10]}'s)"
    data = {label: d for label, d in record["inputs"].items() if not label.startswith(f"{SOURCE}/")}
    inputs = data | code_digests(record["func"], src)
    new = content_key(record["rule"], record["func"], record["params"], inputs)
    if new == record["key"]:
        return f"{home}: already current"
    target = home.parent / new[:20]
    if target.exists():
        return f"{home}: left as it is ({target} exists)"
    record |= {"key": new, "inputs": inputs, "rekeyed_from": record["key"]}
    write_json(record_path, record)
    home.rename(target)
    return f"{home} -> {target.name}"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-3].strip(), file=sys.stderr)
        return 2
    records = [p for folder in argv for p in sorted(Path(folder).glob(f"*/*/{RECORD}"))]
    if not records:
        print(f"no {RECORD} under {', '.join(argv)}", file=sys.stderr)
        return 2
    sources: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path in records:
            print(rekey(path, sources, Path(scratch)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
