"""Kept paper-scale units (icml26.common.units) against today's code: which a run would reuse, and rekeying.

A unit's key names the code it ran. ``check`` says, for each kept unit, whether the code at this checkout gives it
the same key (so a run reuses it) or which piece of code or data changed since (so a run computes it again): worth
running before committing an edit while a paper-scale run is half done.

``rekey`` recomputes the keys when the way code is counted changes (as when a rule function's own module came to
count only by the part the function can run, or code came to count without comments and docstrings), each from
the code at the commit its ``unit.json`` says it was
computed at, never from today's code: a unit whose code has since changed gets a key today's run does not
produce, so it is not reused. A unit computed with uncommitted changes, whose commit is not in the repository or
whose recorded file digests do not match its commit, is left as it is and named, and the command exits 1.

    python -m icml26.common.unit_keys check results/paper/<slug>/units [...]   (make units PAPER=<slug>)
    python -m icml26.common.unit_keys rekey results/paper/<slug>/units [...]

run from the repository root; after ``rekey``, commit the renamed folders.
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
from .units import RECORD, SOURCE, digest_path, recomputed


def _source_at(commit: str, into: Path) -> Path:
    """The ``src`` tree of ``commit``, written under ``into``."""
    archive = subprocess.run(["git", "archive", commit, str(SOURCE)], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / SOURCE


class Left(Exception):
    """A unit that cannot be rekeyed; the message says why, and the unit stays as it is."""


def rekey(record_path: Path, sources: dict[str, Path], scratch: Path) -> str:
    """Rekey one unit in place (its folder renamed to the new key); the line saying what was done. Raises
    :class:`Left` naming why when its code is not known."""
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        git, func, inputs = record.get("git") or {}, record["func"], record["inputs"]
    except (OSError, ValueError, KeyError, AttributeError) as error:
        raise Left(f"not a unit record ({error.__class__.__name__}: {error})") from None
    home = record_path.parent
    if git.get("dirty") or not git.get("commit"):
        raise Left("computed with uncommitted changes, so its code is not known")
    commit = git["commit"]
    if commit not in sources:
        try:
            sources[commit] = _source_at(commit, scratch / commit)
        except subprocess.CalledProcessError:
            raise Left(f"commit {commit[:10]} is not in this repository") from None
    src = sources[commit]
    for label, digest in inputs.items():  # the record must describe that commit's files (by either way of counting)
        path = src.parent / label
        if label.startswith(f"{SOURCE}/") and path.is_file() and digest not in (sha256(path), digest_path(path)):
            raise Left(f"{label} differs from commit {commit[:10]}'s")
    try:
        new, now = recomputed(record, src)
    except (LookupError, FileNotFoundError, SyntaxError) as error:
        raise Left(f"{func} cannot be read at commit {commit[:10]}: {error}") from None
    if new == record["key"]:
        return f"{home}: already current"
    target = home.parent / new[:20]
    if target.exists():
        raise Left(f"{target} exists")
    record |= {"key": new, "inputs": now, "rekeyed_from": record["key"]}
    write_json(record_path, record)
    home.rename(target)
    return f"{home} -> {target.name}"


def check(record_path: Path) -> str | None:
    """None when a run at this checkout reuses the unit, else what changed since it was computed."""
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        func, inputs = record["func"], record["inputs"]
        key, now = recomputed(record)
    except FileNotFoundError as error:  # a file under src/ it read (coins' gold spec) is gone at this checkout
        return f"reads {error.filename}, which is not here"
    except (OSError, ValueError, KeyError, AttributeError) as error:
        return f"not a unit record ({error.__class__.__name__}: {error})"
    except (LookupError, SyntaxError) as error:
        return f"{func} cannot be read here: {error}"
    if key == record["key"]:
        return None
    changed = sorted(label for label in inputs.keys() | now.keys() if inputs.get(label) != now.get(label))
    return f"changed since: {', '.join(changed) or 'how the key is computed (rekey it)'}"


USAGE = "usage: python -m icml26.common.unit_keys {check,rekey} results/paper/<slug>/units [...]"


def _unregistered(folders: list[str]) -> list[str]:
    """The papers of absent ``results/<scale>/<slug>/units`` folders that the registry does not name: a mistyped
    ``PAPER=`` would otherwise read as "none finished yet"."""
    from .registry import papers

    absent = [Path(folder).parent.name for folder in folders if "*" not in folder and not Path(folder).is_dir()]
    if not absent or not Path("workflow", "papers.yaml").is_file():
        return []
    known = {paper.slug for paper in papers()}
    return [slug for slug in absent if slug not in known]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("check", "rekey"):
        print(USAGE, file=sys.stderr)
        return 2
    verb, folders = argv[0], argv[1:]
    unknown = _unregistered(folders)
    if unknown:
        print(f"make units: unknown paper(s) {', '.join(unknown)} (PAPER= takes a registered slug)", file=sys.stderr)
        return 2
    records = [p for folder in folders for p in sorted(Path(folder).glob(f"*/*/{RECORD}"))]
    if not records:
        print(
            f"no kept units under {', '.join(folders)} (no {RECORD}: none finished yet at paper scale, or the paper "
            "keeps none: only the steps under its `units:` in workflow/papers.yaml are kept)"
        )
        return 0 if verb == "check" else 2
    left = 0
    if verb == "check":
        for path in records:
            why = check(path)
            left += why is not None
            if why:
                print(f"{path.parent}: not reused ({why})", flush=True)
        print(f"{len(records) - left} of {len(records)} kept units reused by a run at this checkout", flush=True)
        return 1 if left else 0
    sources: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path in records:
            try:
                print(rekey(path, sources, Path(scratch)), flush=True)
            except Left as why:
                left += 1
                print(f"{path.parent}: left as it is ({why})", flush=True)
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
