"""What would decide an inconclusive claim: the units its intervals rest on, and a count at the t quantile for
every inconclusive claim the committed results hold (issue 66)."""

from __future__ import annotations

import json

import pytest

from icml26.common.claims import HOLDS, INCONCLUSIVE, Claim, Interval, from_record, to_decide, units_of
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("method", "units"),
    [
        ("t over 3 seeds", (3, "seeds")),
        ("t over 3 and 1 seeds and 100 items (a single seed: its seed variance unknown)", (1, "seeds")),
        ("t over 2 and 5 seeds and 300 items", (2, "seeds")),
        ("bootstrap over 87 correct and 214 wrong specs", (87, "specs")),
        ("Clopper-Pearson over 1,200 items", (1200, "items")),
        ("bootstrap over 20 subjects with seizures", (20, "subjects")),
        ("ends of the two bootstrap intervals over 40 canaries and 256 models", (40, "canaries")),
        ("measured +- 2 x the exact samples' TV error (0.014) over 10000 particles", (10000, "particles")),
        ("as measured", None),
    ],
)
def test_the_units_an_interval_rests_on_are_read_from_its_method(method, units):
    assert units_of(Interval("x", 0.1, -0.1, 0.3, 0.0, ">", method)) == units


def test_an_undecided_interval_gets_a_count_and_a_decided_claim_none():
    straddling = Interval("gain", 0.1, -0.02, 0.22, 0.0, ">", "t over 3 seeds", dof=2)
    claim = Claim("c", "s", None, 0.1, "all", INCONCLUSIVE, [straddling], premises_note="none")
    (line,) = to_decide(claim)
    assert line.startswith("gain: about ") and line.endswith("seeds at this effect size (now 3)")
    decided = Interval("gain", 0.1, 0.05, 0.15, 0.0, ">", "t over 3 seeds", dof=2)
    assert to_decide(Claim("c", "s", None, 0.1, "all", HOLDS, [decided], premises_note="none")) == []


def test_every_committed_inconclusive_claim_says_what_would_decide_it():
    for path in sorted((ROOT / "results" / "quick").glob("*/claims.json")):
        for record in json.loads(path.read_text()):
            claim = from_record(record)
            if claim.state != INCONCLUSIVE:
                continue
            plan = to_decide(claim)
            assert plan, f"{path.parent.name}/{claim.id}: inconclusive without an undecided interval"
            for line in plan:  # every method names its units (until 2026-12-05 four did not: "not estimable")
                assert " at this effect size" in line or "too small to settle" in line or "sits on" in line, line
