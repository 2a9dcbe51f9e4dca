"""Pre-registered criteria: what each claim is judged on, written down before the run that judges it.

``config/criteria/<slug>.yaml`` lists, per claim, every deciding statistic with the side and threshold it is
judged against and its practical margin (how far beyond the threshold the statistic must lie to matter), when the
criterion was fixed, and why the margin is what it is. The verdict code judges; this file is the record that it
judged what was registered:

- ``make verify`` fails a committed claim whose intervals differ from the registry (a threshold moved, a statistic
  added or dropped, a margin changed), and a claim the registry does not list;
- each run's ``provenance.json`` records the registry file's sha256 (``criteria``), and ``make verify`` fails
  results computed under another version of it: changing a criterion means registering the change, dated, then
  rerunning, and the docs page says what the old criterion gave.

A margin that scales with a measured reference (rule 3's ``percent_of``: a return) is registered by its
rule as text ("1 % of NTK's mean return"); the check then asks only that the claim was judged with a positive one.

The registry describes the quick scale (the committed results); smaller scales judge fewer tasks or toys with the
same thresholds. Claims without intervals (deterministic, wall-clock) register ``deterministic``.
"""

from __future__ import annotations

import fnmatch
import hashlib
import math
from pathlib import Path
from typing import Any

import yaml

from .claims import NOT_EVALUATED, PREMISE_NOT_MET, Claim

FOLDER = Path("config") / "criteria"
DETERMINISTIC = "deterministic"

# The margin rule (docs/ARCHITECTURE.md, "Practical margins"), fixed 2026-12-05 before any claim's margin was set
# and applied by a claim's kind, never by its numbers:
# 1. a threshold that is itself a size (a bound, a band, a factor, a rate to reach, a non-inferiority allowance)
#    carries the margin: 0 on top of it;
# 2. a comparison whose gap the paper reports for the same methods takes a round value under half the smallest
#    such gap (cox_subgroups' Synth-Counter F1: 0.05 under 0.13 / 2);
# 3. any other comparison against no effect (a difference at 0, a ratio at 1, a chance level) takes one percent of
#    the statistic's scale: the constants and functions below.
POINT = 0.01  # on [0, 1] (rates, accuracies, F1, AUROC, shares, relative changes), a ratio to 1, a count per sample
SIGNED_POINT = 0.02  # on a correlation's or a cosine's [-1, 1]
DELTA_M_POINT = 1.0  # Delta_m, a mean relative change already in percent: one percentage point


def rank_point(methods: int) -> float:
    """Rule 3 for a mean rank among ``methods`` methods: one percent of the rank's range."""
    return (methods - 1) / 100


def percent_of(reference: float) -> float:
    """Rule 3 for an unbounded statistic (a return): one percent of the reference method's magnitude."""
    return abs(reference) / 100


def path_of(slug: str, root: Path = Path(".")) -> Path:
    return root / FOLDER / f"{slug}.yaml"


def load(slug: str, root: Path = Path(".")) -> dict[str, Any] | None:
    """The paper's registry, or None when it registers none."""
    path = path_of(slug, root)
    return yaml.safe_load(path.read_text()) if path.exists() else None


def digest(slug: str, root: Path = Path(".")) -> str | None:
    """sha256 of the paper's registry file (what a run records in its provenance), or None."""
    path = path_of(slug, root)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def _same(a: float, b: float) -> bool:
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def rows_text(rows) -> str:
    """One statistic's registered or judged rows as text: "> 0 (margin 0.01), <= 1 (margin 0)"."""
    rows = [rows] if isinstance(rows[0], str) else rows
    return ", ".join(
        f"{side} {threshold:g} (margin {margin if isinstance(margin, str) else format(margin, 'g')})"
        for side, threshold, margin in rows
    )


def _agree(wanted, judged) -> bool:
    """A registered row and a judged one agree: same side and threshold, and the same margin -- or, where the
    registry names the margin by its rule because it scales with a measured reference (``percent_of``), any
    positive margin."""
    (side, threshold, margin), (judged_side, judged_threshold, judged_margin) = wanted, judged
    if side != judged_side or not _same(float(threshold), judged_threshold):
        return False
    return judged_margin > 0 if isinstance(margin, str) else _same(float(margin), judged_margin)


def problems(slug: str, claims: list[Claim], registry: dict[str, Any] | None) -> list[str]:
    """Where ``claims`` were judged on something other than what ``registry`` registers, one line each."""
    if registry is None:
        return [f"{FOLDER / slug}.yaml: no registered criteria for {slug}"]
    registered = registry.get("claims", {})
    found = []
    for claim in claims:
        if claim.state == NOT_EVALUATED:
            continue
        entry = registered.get(claim.id)
        if entry is None:
            found.append(f"{claim.id}: not registered in {FOLDER / slug}.yaml")
            continue
        rows = entry["criteria"]
        unmet = claim.state == PREMISE_NOT_MET  # its statistics may be undefined: what it judged must still match
        if not isinstance(claim.interval, list):
            if rows != DETERMINISTIC and not unmet:
                found.append(f"{claim.id}: judged {claim.interval}, registered with intervals")
            continue
        if rows == DETERMINISTIC:
            found.append(f"{claim.id}: judged on intervals, registered as deterministic")
            continue
        judged = {}
        for interval in claim.interval:
            judged.setdefault(interval.statistic, []).append(
                (interval.side, interval.threshold, interval.margin or 0.0)
            )
        for statistic, criteria in sorted(judged.items()):
            key = next((k for k in rows if k == statistic), None) or next(
                (k for k in rows if fnmatch.fnmatchcase(statistic, k)), None
            )  # a pattern where the statistic's name depends on the data (the most conflicting pair)
            wanted = rows.get(key)
            if wanted is None:
                found.append(f"{claim.id}: statistic {statistic!r} judged but not registered")
                continue
            wanted = [wanted] if isinstance(wanted[0], str) else wanted
            pairs = sorted(map(tuple, wanted), key=lambda row: row[:2]), sorted(criteria)
            if len(pairs[0]) != len(pairs[1]) or not all(_agree(w, j) for w, j in zip(*pairs)):
                found.append(
                    f"{claim.id}: {statistic!r} judged {rows_text(pairs[1])}, registered {rows_text(pairs[0])} "
                    f"(fixed {entry.get('fixed', '?')}): register a change, dated, before the run"
                )
        exact = {k for k in rows if not any(c in k for c in "*?[")}
        found += [f"{claim.id}: registered {s!r} not judged" for s in sorted(exact - set(judged)) if not unmet]
    return found
