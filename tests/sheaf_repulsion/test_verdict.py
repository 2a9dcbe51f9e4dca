"""Each claim on hand-built tables, in every state it can reach: holds, does not hold, inconclusive and premise not
met (a model that fails the task; discovery that finds no valid circuit even without repulsion)."""

from __future__ import annotations

import pandas as pd
import pytest

from icml26.common import intervals
from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED, PREMISE_NOT_MET
from icml26.sheaf_repulsion.verdict import (
    CRITERIA,
    dispensable_minimal_circuit,
    grows_with_circuits,
    late_change,
    low_overlap,
    overlap_details,
    overlap_premises,
)

MODEL = 0.98  # the trained model's accuracy: the premise 'the model does the task' met


def circuits(accuracy=0.95, density=0.05, complement=0.5, runs=3, independent_accuracy=None, second=0.9):
    """Circuits of both methods; ``second``: the model's accuracy without independent run 0's edges (above
    ``complete``: a second mechanism exists, and that circuit is then not complete itself)."""
    return pd.DataFrame(
        [
            {
                "method": m,
                "run": k,
                "accuracy": independent_accuracy if m == "independent" and independent_accuracy else accuracy,
                "density": density,
                "faithfulness": 0.4,
                "complement_accuracy": second if (m, k) == ("independent", 0) else complement,
            }
            for m in ("oasr", "independent")
            for k in range(runs)
        ]
    )


def curve(late=None, runs=3, steps=500):
    """Discovery curves at 0.8 accuracy every 50 steps; ``late``: (run, accuracy) of independent run ``run``
    from step 460 on."""
    rows = []
    for method in ("oasr", "independent"):
        for run in range(runs):
            for step in range(50, steps + 1, 50):
                moved = late and method == "independent" and run == late[0] and step > 0.9 * steps
                rows.append({"method": method, "run": run, "step": step, "accuracy": late[1] if moved else 0.8})
    return pd.DataFrame(rows)


CURVE = curve()
DETAILS = overlap_details(circuits(), CURVE)  # what the overlap claims report beside their criteria


def test_late_change_is_the_accuracy_moved_over_the_last_tenth_of_the_steps():
    assert late_change(CURVE, "independent") == {0: 0.0, 1: 0.0, 2: 0.0}
    moved = late_change(curve(late=(1, 0.95)), "independent")  # 450 is the last point before the final tenth
    assert moved[1] == pytest.approx(0.15) and moved[0] == moved[2] == 0.0
    details = overlap_details(circuits(), curve(late=(1, 0.95)))
    claim = low_overlap(circuits(), overlap(0.06, 0.4), details, CRITERIA, MODEL)
    assert "moved at most 0.150 over the last 10%" in claim.headline
    assert claim.details["accuracy_change_over_last_10%_of_steps"]["independent"][1] == pytest.approx(0.15)
    assert claim.details["faithfulness_ld_ratio"]["oasr"] == [0.4] * 3


def overlap(oasr, independent, chance=0.05):
    """Pairs (a, b) of each method with the given IoU per pair (a dict (a, b) -> IoU or one number)."""
    rows = []
    for method, value in (("oasr", oasr), ("independent", independent)):
        for a, b in [(0, 1), (0, 2), (1, 2)]:
            iou = value[(a, b)] if isinstance(value, dict) else value
            rows.append({"method": method, "run_a": a, "run_b": b, "iou": iou, "chance_iou": chance})
    return pd.DataFrame(rows)


def test_low_overlap_states():
    assert low_overlap(circuits(), overlap(0.06, 0.4), DETAILS, CRITERIA, MODEL).state == HOLDS
    assert low_overlap(circuits(), overlap(0.2, 0.4), DETAILS, CRITERIA, MODEL).state == FAILS  # OASR 4x chance
    assert low_overlap(circuits(), overlap(0.06, 0.1), DETAILS, CRITERIA, MODEL).state == FAILS  # independent not high
    unfaithful = circuits(accuracy=0.7, independent_accuracy=0.95)  # OASR's circuits not faithful, independent ones are
    assert low_overlap(unfaithful, overlap(0.06, 0.4), DETAILS, CRITERIA, MODEL).state == FAILS
    assert low_overlap(circuits(density=0.3), overlap(0.06, 0.4), DETAILS, CRITERIA, MODEL).state == PREMISE_NOT_MET
    # OASR pairs at 1x, 1x and 3.8x chance: the jackknife over the three runs straddles 2x
    spread = overlap({(0, 1): 0.05, (0, 2): 0.05, (1, 2): 0.19}, 0.4)
    assert low_overlap(circuits(), spread, DETAILS, CRITERIA, MODEL).state == INCONCLUSIVE


def test_pairs_that_share_runs_are_not_counted_as_independent():
    """Issue 66: four runs make six pairs; one run whose circuits overlap everyone's moves three of them. A t
    interval over the six pairs as if independent cleared the threshold; the jackknife over runs does not."""
    from icml26.sheaf_repulsion.verdict import _ratio_interval

    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    rows = [
        {"method": "independent", "run_a": a, "run_b": b, "iou": 0.25 if 0 in (a, b) else 0.16, "chance_iou": 0.05}
        for a, b in pairs
    ]  # run 0 overlaps others 5x chance, the rest 3.2x: mean 4.1x
    table = pd.DataFrame(rows)
    interval = _ratio_interval(table, "independent", CRITERIA["high"], ">=")
    naive = intervals.over_seeds("x", table["iou"] / table["chance_iou"], CRITERIA["high"], ">=")
    assert naive.state == HOLDS and naive.low > 3.0  # the six pairs as independent: 3.26 and up
    assert interval.estimate == pytest.approx(4.1) and interval.low < 3.0 and interval.state == INCONCLUSIVE
    assert interval.dof == 3 and "jackknife of 4 runs" in interval.method


def test_overlap_premises_a_model_that_fails_or_discovery_that_finds_nothing_valid():
    claim = low_overlap(circuits(), overlap(0.06, 0.4), DETAILS, CRITERIA, 0.6)
    assert claim.state == PREMISE_NOT_MET and [p.met for p in claim.premises] == [False, True, True]
    # no valid independent circuit
    claim = low_overlap(circuits(accuracy=0.87), overlap(0.06, 0.4), DETAILS, CRITERIA, MODEL)
    assert claim.state == PREMISE_NOT_MET and claim.holds is None
    assert [p.met for p in claim.premises] == [True, False, True]


def test_without_a_second_mechanism_the_overlap_claims_are_premise_not_met():
    """Issue 66: the quick run's model is back at chance (0.496) without the first independent circuit, so no second
    valid circuit can exist; the overlap claims were judged anyway (does not hold). Now they are not."""
    alone = circuits(second=0.496)
    claim = low_overlap(alone, overlap(0.2, 0.4), DETAILS, CRITERIA, MODEL)  # would fail: OASR 4x chance
    assert claim.state == PREMISE_NOT_MET and [p.met for p in claim.premises] == [True, True, False]
    assert claim.premises[2].measured == 0.496 and claim.premises[2].threshold == CRITERIA["complete"]
    growing = overlap({(0, 1): 0.1, (0, 2): 0.0, (1, 2): 0.0}, 0.4)
    assert grows_with_circuits(growing, CRITERIA, overlap_premises(alone, MODEL, CRITERIA), {}).state == (
        PREMISE_NOT_MET
    )


def test_growth_has_no_interval_with_one_pair_at_two_runs():
    met = overlap_premises(circuits(), MODEL, CRITERIA)
    growing = overlap({(0, 1): 0.1, (0, 2): 0.0, (1, 2): 0.0}, 0.4)  # gap 0.3 among 2, 0.367 among 3 (+22 %)
    assert grows_with_circuits(growing, CRITERIA, met, {}).state == INCONCLUSIVE  # never 'holds' on one pair
    shrinking = overlap({(0, 1): 0.0, (0, 2): 0.2, (1, 2): 0.2}, 0.4)  # gap 0.4 among 2, 0.267 among 3
    # a shrinking gap on one pair: no interval, so inconclusive (an estimate alone never decides: issue 66)
    assert grows_with_circuits(shrinking, CRITERIA, met, {}).state == INCONCLUSIVE
    unmet = overlap_premises(circuits(accuracy=0.8), MODEL, CRITERIA)
    assert grows_with_circuits(growing, CRITERIA, unmet, {}).state == PREMISE_NOT_MET
    two_runs = overlap(0.1, 0.4)
    two_runs = two_runs[(two_runs["run_a"] < 2) & (two_runs["run_b"] < 2)]
    assert grows_with_circuits(two_runs, CRITERIA, met, {}).state == NOT_EVALUATED


def test_the_minimal_circuit_claim_needs_a_faithful_circuit_and_an_alternative_for_every_edge():
    def minimal(accuracy, without):
        return pd.DataFrame(
            {"edge": [f"e{i}" for i in range(len(without))], "accuracy": accuracy, "best_without": without}
        )

    assert dispensable_minimal_circuit(minimal(0.97, [0.95, 0.97, 0.93]), CRITERIA, MODEL, 512).state == HOLDS
    assert dispensable_minimal_circuit(minimal(0.97, [0.95, 0.5, 0.93]), CRITERIA, MODEL, 512).state == FAILS
    assert dispensable_minimal_circuit(minimal(0.6, [0.6, 0.6, 0.6]), CRITERIA, MODEL, 512).state == FAILS
    # 0.92 of 64 sentences: Clopper-Pearson reaches below 0.9
    assert dispensable_minimal_circuit(minimal(0.92, [0.92] * 3), CRITERIA, MODEL, 64).state == INCONCLUSIVE
    assert dispensable_minimal_circuit(minimal(0.97, [0.97] * 3), CRITERIA, 0.5, 512).state == PREMISE_NOT_MET
    assert dispensable_minimal_circuit(minimal(0.9, []), CRITERIA, MODEL, 512).state == FAILS


def test_pairs_with_an_empty_circuit_have_no_ratio_and_no_pair_gives_no_interval():
    empty = overlap(0.0, 0.4, chance=0.0)  # every chance IoU 0: no ratio anywhere
    claim = low_overlap(circuits(), empty, DETAILS, CRITERIA, MODEL)
    assert claim.state == INCONCLUSIVE and all(i.estimate != i.estimate for i in claim.interval[1:])  # NaN
