"""Every verdict comes out true, false, or not evaluated, from tables built by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from icml26.prism_moe import verdict as v


def _conflict(second_half_means):
    rows = [
        {"method": "dense", "seed": seed, "pair": pair, "phase": "second half", "mean": m, "std": 0.1, "count": 5}
        for pair, means in second_half_means.items()
        for seed, m in enumerate(means)
    ]
    return pd.DataFrame(rows)


def test_teachers_conflict_needs_a_pair_negative_in_every_seed():
    assert v.teachers_conflict(_conflict({"a-b": [-0.1, -0.05], "a-c": [0.2, 0.1]})).holds is True
    assert v.teachers_conflict(_conflict({"a-b": [-0.1, 0.05], "a-c": [0.2, 0.1]})).holds is False
    assert v.teachers_conflict(_conflict({}).reindex(columns=["method", "phase", "pair", "mean"])).holds is None


def _comparisons(prism_dense, swap=(1.0, 0.5, 1.5)):
    rows = [
        {
            "method": "prism",
            "baseline": "dense",
            "difference": prism_dense[0],
            "low": prism_dense[1],
            "high": prism_dense[2],
        },
        {"method": "prism", "baseline": "prism_swapped", "difference": swap[0], "low": swap[1], "high": swap[2]},
    ]
    return pd.DataFrame(rows)


DELTA = pd.DataFrame({"method": ["prism", "dense", "single_texture"], "delta_m": [3.0, 1.0, 2.0]})


@pytest.mark.parametrize(("interval", "holds"), [((2.0, 0.5, 3.5), True), ((2.0, -0.5, 4.5), False)])
def test_prism_beats_dense_needs_the_interval_above_zero(interval, holds):
    claim = v.prism_beats_dense(_comparisons(interval), DELTA)
    assert claim.holds is holds and claim.details["best_single_teacher"] == 2.0


def test_prism_beats_dense_is_not_evaluated_without_the_pair():
    assert v.prism_beats_dense(_comparisons((1, 0, 2)).iloc[1:], DELTA).holds is None


def _specialisation(stage, mi, null_max, nmi):
    return pd.DataFrame(
        {
            "method": "prism",
            "seed": [0, 0, 1, 1],
            "stage": stage,
            "block": [0, 1, 0, 1],
            "mi_bits": mi,
            "null_max": null_max,
            "nmi": nmi,
        }
    )


@pytest.mark.parametrize(
    ("mi", "nmi", "holds"),
    [
        ([0.5, 0.4, 0.6, 0.5], [0.3, 0.25, 0.35, 0.3], True),
        ([0.5, 0.001, 0.6, 0.5], [0.3, 0.25, 0.35, 0.3], False),  # one block at chance
        ([0.05, 0.04, 0.06, 0.05], [0.03, 0.02, 0.04, 0.03], False),  # above chance but not well above
    ],
)
def test_specialisation_needs_every_case_above_the_null_and_enough_nmi(mi, nmi, holds):
    table = _specialisation("stage1", mi, [0.002] * 4, nmi)
    assert v.experts_specialise(table).holds is holds
    assert v.experts_specialise(table.assign(method="dense")).holds is None


def test_task_pathways_also_need_the_swap_to_hurt():
    table = _specialisation("stage2", [0.5] * 4, [0.002] * 4, [0.3] * 4)
    assert v.task_pathways(table, _comparisons((1, 0, 2))).holds is True
    assert v.task_pathways(table, _comparisons((1, 0, 2), swap=(0.1, -0.2, 0.4))).holds is False
    assert v.task_pathways(table.assign(nmi=0.01), _comparisons((1, 0, 2))).holds is False
