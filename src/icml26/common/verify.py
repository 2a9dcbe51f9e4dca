"""``make verify``: the results in this work tree against the committed ones, with declared tolerances.

On the machine and library versions that produced them, a rerun gives the committed files byte for byte
(the tests check it). Elsewhere BLAS kernels, thread-level reductions and chaotic training move the last
digits, so this report says, per paper: verdicts that flipped (never acceptable), numbers outside their
tolerance, numbers that moved within it. Each paper declares its tolerances beside its verdict code, as
``TOLERANCES`` in ``icml26.<slug>.verdict``: ``(pattern, Tolerance)`` pairs, the first whose pattern
(``fnmatch``, on paths such as ``metrics/leaderboard/KNN/mean_auroc`` or
``claims/<id>/measured/mean_auroc_pct``) matches a number applies; unmatched numbers get :data:`EXACT`.
Prose is compared too: a claim's statement, ids, evidence and premises' reasons exactly (they are written before
the run), its headline and note with every number masked (their numbers are the measured ones, compared with
their tolerances), so a verdict cannot be re-worded unseen. And each file is checked against the sha256 its run
recorded in ``provenance.json``: a claims.json or metrics.json edited by hand after the run fails, rerun or not.
Each claim's criteria are checked against their registry, ``config/criteria/<slug>.yaml`` (``common.criteria``).

    python -m icml26.common.verify [--scale quick] [--against HEAD|FOLDER] [paper ...]
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .tolerance import EXACT, Tolerance

# prose that quotes the measured numbers: compared with its numbers masked (the numbers have their tolerances)
QUOTING = {"headline", "note"}
NUMBER = re.compile(r"[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
VERDICT_FIELDS = ("/state", "/holds")  # a claim's verdict, and its old-reader form
FILES = ("claims.json", "metrics.json")


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """Leaves of a JSON value by slash-joined path (claims by their ids, not their positions)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            here = f"{path}/{key}" if path else str(key)
            out |= {here: masked(item)} if key in QUOTING and isinstance(item, str) else flatten(item, here)
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict) and "id" in v for v in value):
        return flatten({v["id"]: v for v in value}, path)
    if isinstance(value, list):
        return flatten({str(i): v for i, v in enumerate(value)}, path) if value else {path: []}
    return {path: value}


def masked(text: str) -> str:
    """Prose with its numbers replaced by ``#``: what must not change when only the numbers move."""
    return NUMBER.sub("#", text)


def tolerances(slug: str) -> list[tuple[str, Tolerance]]:
    try:
        module = importlib.import_module(f"icml26.{slug}.verdict")
    except ModuleNotFoundError as error:
        if not f"icml26.{slug}.verdict".startswith(str(error.name)):  # the verdict's own imports failed
            raise
        return []
    return list(getattr(module, "TOLERANCES", []))


def tolerance_for(path: str, declared: list[tuple[str, Tolerance]]) -> Tolerance:
    return next((t for pattern, t in declared if fnmatch.fnmatchcase(path, pattern)), EXACT)


@dataclass
class PaperReport:
    slug: str
    provenance: str = ""
    flipped: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    misregistered: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    within: list[str] = field(default_factory=list)
    identical: int = 0
    verdicts: int = 0

    @property
    def ok(self) -> bool:
        return not self.flipped and not self.outside and not self.edited and not self.misregistered

    def lines(self, show: int = 8) -> list[str]:
        state = "OK" if self.ok else "FAILED"
        head = (
            f"{self.slug}: {state} -- {self.verdicts} verdicts, {len(self.flipped)} flipped; "
            f"{self.identical} values identical, {len(self.within)} moved within tolerance, "
            f"{len(self.outside)} outside"
        )
        out = [head, f"  computed on: {self.provenance}"]
        for title, items, limit in (
            ("EDITED", self.edited, None),
            ("CRITERIA", self.misregistered, None),
            ("FLIPPED", self.flipped, None),
            ("outside tolerance", self.outside, None),
            ("within tolerance", self.within, show),
        ):
            for item in items[:limit]:
                out.append(f"  {title}: {item}")
            if limit is not None and len(items) > limit:
                out.append(f"  ... and {len(items) - limit} more within tolerance")
        return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def compare(slug: str, committed: dict[str, Any], current: dict[str, Any]) -> PaperReport:
    """One paper's committed ``{file: json}`` against its current one."""
    report = PaperReport(slug)
    declared = tolerances(slug)
    old, new = {}, {}
    for name in FILES:
        stem = name.removesuffix(".json")
        old |= {f"{stem}/{k}": v for k, v in flatten(_states(name, committed[name])).items()}
        new |= {f"{stem}/{k}": v for k, v in flatten(_states(name, current[name])).items()}
    for path in sorted(old.keys() | new.keys()):
        if path not in new or path not in old:
            report.outside.append(
                f"{path}: {'no longer written' if path not in new else 'not in the committed results'}"
            )
            continue
        a, b = old[path], new[path]
        if path.endswith(VERDICT_FIELDS) and path.startswith("claims/") and path.count("/") == 2:
            report.verdicts += path.endswith("/state")
            claim = path.removeprefix("claims/").rsplit("/", 1)[0]
            if a == b:
                report.identical += 1
            elif path.endswith("/state") or old.get(f"claims/{claim}/state") == new.get(f"claims/{claim}/state"):
                report.flipped.append(f"{claim}: {a} -> {b}")  # a flipped state, or holds flipped on its own
        elif _number(a) and _number(b):
            if a == b:
                report.identical += 1
                continue
            tolerance = tolerance_for(_measured_path(path, old), declared)
            line = f"{path}: {a:.10g} -> {b:.10g} ({tolerance}{': ' + tolerance.why if tolerance.why else ''})"
            (report.within if tolerance.allows(float(a), float(b)) else report.outside).append(line)
        elif a == b:
            report.identical += 1
        else:
            report.outside.append(f"{path}: {a!r} -> {b!r}")
    return report


def _states(name: str, value: Any) -> Any:
    """Claims written before verdict states (``holds`` only) get the state ``holds`` stood for instead, so a
    committed record of either age compares with a current one by state."""
    if name != "claims.json" or not isinstance(value, list):
        return value
    from .claims import LEGACY_STATE

    return [
        r if "state" in r else {k: v for k, v in r.items() if k != "holds"} | {"state": LEGACY_STATE[r.get("holds")]}
        for r in value
    ]


def _measured_path(path: str, flat: dict[str, Any]) -> str:
    """An interval's bounds move like the number they bound: ``claims/<id>/interval/<i>/low`` takes the
    tolerance of ``claims/<id>/measured/<statistic>`` (the interval names its statistic)."""
    parts = path.split("/")
    if len(parts) == 5 and parts[0] == "claims" and parts[2] == "interval" and parts[4] in ("estimate", "low", "high"):
        statistic = flat.get("/".join([*parts[:4], "statistic"]))
        if isinstance(statistic, str):
            return f"claims/{parts[1]}/measured/{statistic}"
    return path


def reference_text(path: Path, against: str) -> str | None:
    """The reference version of ``path``: from the folder ``against`` (another checkout) if it is one, else
    from the git revision ``against``; ``None`` where it has none."""
    if Path(against).is_dir():
        source = Path(against) / path
        return source.read_text() if source.exists() else None
    from .machine import git_show

    return git_show(against, path)


def registry_problems(slug: str, folder: Path, claims: list[dict]) -> list[str]:
    """Claims judged on criteria other than ``config/criteria/<slug>.yaml`` registers, and results computed under
    another version of that file (the sha256 their provenance recorded; none before 2026-12-05)."""
    from . import criteria
    from .claims import from_record

    found = criteria.problems(slug, [from_record(r) for r in claims], criteria.load(slug))
    path = folder / "provenance.json"
    recorded = json.loads(path.read_text()).get("criteria") if path.exists() else None
    if recorded is not None and recorded != criteria.digest(slug):
        found.append(
            f"{criteria.FOLDER / slug}.yaml changed since these results were computed (provenance records "
            f"{recorded[:12]}): rerun, and say on the docs page what the old criterion gave"
        )
    return found


def edited_files(folder: Path) -> list[str]:
    """The result files whose bytes differ from what their run recorded (provenance ``outputs``): a hand edit, or a
    file copied in from another run. Provenance written before the hashes (2026-12-05) records none to check."""
    from .sources import sha256

    path = folder / "provenance.json"
    recorded = json.loads(path.read_text()).get("outputs", {}) if path.exists() else {}
    return [
        f"{folder / name}: not the file its run wrote (sha256 {sha256(folder / name)[:12]}, the run recorded "
        f"{digest[:12]}): edited by hand, or copied from another run"
        for name, digest in sorted(recorded.items())
        if (folder / name).exists() and sha256(folder / name) != digest
    ]


def provenance_line(folder: Path, against: str) -> str:
    """Where the compared numbers were computed, and whether that is the committed run itself."""
    from .provenance import describe

    path = folder / "provenance.json"
    committed = reference_text(path, against)
    if not path.exists():
        return f"unknown ({path} missing)"
    text = path.read_text()
    if text == committed and rerun_here(folder):
        return f"{describe(json.loads(text))} -- rerun here, reproducing the committed run's bytes (their record kept)"
    if text == committed:
        return f"{describe(json.loads(text))} -- the committed run: nothing here was rerun"
    reference = f"; committed: {describe(json.loads(committed))}" if committed else ""
    return describe(json.loads(text)) + reference


def parsed(name: str | Path, text: str) -> Any:
    """The JSON in ``text``; a file that is not JSON is one line naming it (a ``FileNotFoundError`` for main)."""
    try:
        return json.loads(text)
    except ValueError as error:
        raise FileNotFoundError(f"{name}: not valid JSON ({error}): rerun the paper, or restore it from git") from None


def verify(slugs: list[str], scale: str = "quick", against: str = "HEAD") -> list[PaperReport]:
    reports = []
    for slug in slugs:
        folder = Path("results", scale, slug)
        missing = [str(folder / n) for n in FILES if not (folder / n).exists()]
        if missing:
            raise FileNotFoundError(f"{slug}: no results to verify ({', '.join(missing)} missing)")
        committed = {n: reference_text(folder / n, against) for n in FILES}
        absent = [n for n, text in committed.items() if text is None]
        if absent:
            raise FileNotFoundError(f"{slug}: {', '.join(absent)} not in the reference ({against})")
        current = {n: parsed(folder / n, (folder / n).read_text()) for n in FILES}
        report = compare(slug, {n: parsed(f"{against}:{folder / n}", t) for n, t in committed.items()}, current)
        report.provenance = provenance_line(folder, against)
        report.edited = edited_files(folder)
        try:
            report.misregistered = registry_problems(slug, folder, current["claims.json"])
        except Exception as error:  # a criteria file or claims that do not parse: one line naming them
            raise FileNotFoundError(
                f"{slug}: config/criteria/{slug}.yaml or {folder}/claims.json cannot be read as criteria and claims "
                f"({type(error).__name__}: {' '.join(str(error).split())[:200]})"
            ) from None
        reports.append(report)
    return reports


def main(argv: list[str] | None = None) -> int:
    from .registry import papers

    parser = argparse.ArgumentParser(prog="make verify", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "papers", nargs="*", help="paper slugs (default: every registered paper with committed results at the scale)"
    )
    parser.add_argument("--scale", default="quick")
    parser.add_argument(
        "--against", default="HEAD", help="the reference results: a git revision, or another checkout's folder"
    )
    args = parser.parse_args(argv)
    known = [p.slug for p in papers()]
    unknown = sorted(set(args.papers) - set(known))
    if unknown:
        print(f"make verify: unknown paper(s) {', '.join(unknown)}; registered: {', '.join(known)}", file=sys.stderr)
        return 2
    committed = [s for s in known if reference_text(Path("results", args.scale, s, "claims.json"), args.against)]
    if not args.papers and len(committed) < len(known):  # paper scale: only the papers run there (not_run.yaml)
        absent = sorted(set(known) - set(committed))
        print(f"not verified, no committed {args.scale}-scale results in {args.against}: {', '.join(absent)}")
    try:
        reports = verify(args.papers or committed, args.scale, args.against)
    except FileNotFoundError as error:
        print(f"make verify: {error}", file=sys.stderr)
        return 2
    for report in reports:
        print("\n".join(report.lines()))
    failed = [r.slug for r in reports if not r.ok]
    flipped = sum(len(r.flipped) for r in reports)
    idle = [r.slug for r in reports if not rerun_here(Path("results", args.scale, r.slug))]
    print(
        f"verify ({args.scale}, against {args.against}): {len(reports) - len(failed)} of {len(reports)} papers "
        f"within tolerance, {flipped} verdicts flipped"
        + (f"; FAILED: {', '.join(failed)}" if failed else "")
        + (f"; {len(idle)} of them not rerun here, their committed files compared with themselves" if idle else "")
    )
    return 1 if failed else 0


def rerun_here(folder: Path) -> bool:
    """Whether this work tree ran the paper: its tables or figures exist (never committed, so a fresh clone has none,
    while its claims.json, metrics.json and provenance.json are the committed ones)."""
    return (folder / "tables").is_dir() or (folder / "figures").is_dir()


if __name__ == "__main__":
    sys.exit(main())
