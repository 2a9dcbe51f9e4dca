"""What would decide an inconclusive claim: the units its intervals rest on, and a count at the t quantile for
every inconclusive claim the committed results hold (issue 66)."""

from __future__ import annotations

import json

import pytest

from icml26.common.claims import HOLDS, INCONCLUSIVE, Claim, Interval, from_record, to_decide, units_of
from tests.conftest import ROOT

# Inconclusive intervals whose method names no units, so no count can be given (the claim says why instead); a run
# whose method names them leaves this list, and the test fails on any other
NO_UNITS = {
    ("annealed_langevin", "ald_worst_tv_error"): "a band of twice the exact samples' TV error, not over units",
    ("optifluence", "mlp/optifluence_minus_best"): "the ends of two bootstrap intervals over models and canaries",
    ("optifluence", "mlp_wide/optifluence_minus_best"): "the ends of two bootstrap intervals over models and canaries",
    ("optifluence", "cnn/optifluence_minus_best"): "the ends of two bootstrap intervals over models and canaries",
}


@pytest.mark.parametrize(
    ("method", "units"),
    [
        ("t over 3 seeds", (3, "seeds")),
        ("t over 3 and 1 seeds and 100 items (a single seed: its seed variance unknown)", (1, "seeds")),
        ("t over 2 and 5 seeds and 300 items", (2, "seeds")),
        ("bootstrap over 87 correct and 214 wrong specs", (87, "specs")),
        ("Clopper-Pearson over 1,200 items", (1200, "items")),
        ("bootstrap over 20 subjects with seizures", (20, "subjects")),
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
    unexplained, stale = [], set(NO_UNITS)
    for path in sorted((ROOT / "results" / "quick").glob("*/claims.json")):
        for record in json.loads(path.read_text()):
            claim = from_record(record)
            if claim.state != INCONCLUSIVE:
                continue
            plan = to_decide(claim)
            assert plan, f"{path.parent.name}/{claim.id}: inconclusive without an undecided interval"
            for line in plan:
                statistic = line.split(": ", 1)[0]
                if "not estimable" in line:
                    key = (path.parent.name, statistic)
                    stale.discard(key)
                    if key not in NO_UNITS:
                        unexplained.append(f"{key}: {line}")
                else:
                    assert " at this effect size" in line or "too small to settle" in line or "sits on" in line, line
    assert unexplained == [], "an inconclusive interval whose method names no units: name them in its method"
    assert stale == set(), "listed as unit-less but no longer so: remove from NO_UNITS"
