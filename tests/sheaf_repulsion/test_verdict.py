"""Each claim on hand-built tables: a case where it holds and cases where it does not."""

from __future__ import annotations

import pandas as pd

from icml26.sheaf_repulsion.verdict import CRITERIA, dispensable_minimal_circuit, grows_with_circuits, low_overlap


def circuits(accuracy=0.95, density=0.05, complement=0.5, runs=3):
    return pd.DataFrame(
        [
            {"method": m, "run": k, "accuracy": accuracy, "density": density, "complement_accuracy": complement}
            for m in ("oasr", "independent")
            for k in range(runs)
        ]
    )


def overlap(oasr, independent, chance=0.05):
    """Pairs (a, b) of each method with the given IoU per pair (a dict (a, b) -> IoU or one number)."""
    rows = []
    for method, value in (("oasr", oasr), ("independent", independent)):
        for a, b in [(0, 1), (0, 2), (1, 2)]:
            iou = value[(a, b)] if isinstance(value, dict) else value
            rows.append({"method": method, "run_a": a, "run_b": b, "iou": iou, "chance_iou": chance})
    return pd.DataFrame(rows)


def test_low_overlap_holds_only_with_valid_circuits_near_chance_and_high_overlap_without():
    assert low_overlap(circuits(), overlap(0.06, 0.4), CRITERIA).holds is True
    assert low_overlap(circuits(), overlap(0.2, 0.4), CRITERIA).holds is False  # OASR 4x chance
    assert low_overlap(circuits(), overlap(0.06, 0.1), CRITERIA).holds is False  # independent not high
    assert low_overlap(circuits(accuracy=0.7), overlap(0.06, 0.4), CRITERIA).holds is False  # not faithful
    assert low_overlap(circuits(density=0.3), overlap(0.06, 0.4), CRITERIA).holds is False  # not sparse
    assert low_overlap(circuits(complement=0.9), overlap(0.06, 0.4), CRITERIA).holds is False  # not complete


def test_growth_compares_the_gap_among_all_circuits_with_the_gap_among_two():
    growing = overlap({(0, 1): 0.1, (0, 2): 0.0, (1, 2): 0.0}, 0.4)  # gap 0.3 among 2, 0.367 among 3 (+22 %)
    assert grows_with_circuits(growing, CRITERIA).holds is True
    assert grows_with_circuits(growing, {**CRITERIA, "growth": 0.25}).holds is False  # not by 25 %
    flat = overlap({(0, 1): 0.1, (0, 2): 0.09, (1, 2): 0.09}, 0.4)  # gap 0.3 among 2, 0.307 among 3 (+2 %)
    assert grows_with_circuits(flat, CRITERIA).holds is False
    shrinking = overlap({(0, 1): 0.0, (0, 2): 0.2, (1, 2): 0.2}, 0.4)  # gap 0.4 among 2, 0.267 among 3
    assert grows_with_circuits(shrinking, CRITERIA).holds is False
    two_runs = overlap(0.1, 0.4)
    two_runs = two_runs[(two_runs["run_a"] < 2) & (two_runs["run_b"] < 2)]
    assert grows_with_circuits(two_runs, CRITERIA).holds is None


def test_the_minimal_circuit_claim_needs_a_faithful_circuit_and_an_alternative_for_every_edge():
    def minimal(accuracy, without):
        return pd.DataFrame(
            {"edge": [f"e{i}" for i in range(len(without))], "accuracy": accuracy, "best_without": without}
        )

    assert dispensable_minimal_circuit(minimal(0.95, [0.93, 0.95, 0.91]), CRITERIA).holds is True
    assert dispensable_minimal_circuit(minimal(0.95, [0.93, 0.5, 0.91]), CRITERIA).holds is False
    assert dispensable_minimal_circuit(minimal(0.6, [0.6, 0.6, 0.6]), CRITERIA).holds is False
    assert dispensable_minimal_circuit(minimal(0.9, []), CRITERIA).holds is False
