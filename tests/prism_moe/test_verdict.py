"""Every verdict in each state it can reach (holds, does not hold, inconclusive, premise not met, not evaluated),
from tables built by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED, PREMISE_NOT_MET
from icml26.prism_moe import verdict as v


def _conflict(second_half_means):
    rows = [
        {"method": "dense", "seed": seed, "pair": pair, "phase": "second half", "mean": m, "std": 0.1, "count": 5}
        for pair, means in second_half_means.items()
        for seed, m in enumerate(means)
    ]
    return pd.DataFrame(rows)


FIVE = {"a-c": [0.2, 0.1, 0.15, 0.12, 0.18]}


def test_teachers_conflict_states():
    assert v.teachers_conflict(_conflict({"a-b": [-0.1, -0.12, -0.09, -0.11, -0.1], **FIVE})).state == HOLDS
    assert v.teachers_conflict(_conflict({"a-b": [0.1, 0.12, 0.09, 0.11, 0.1], **FIVE})).state == FAILS
    # the committed -0.021 against a seed spread of 0.065, on two seeds: "any pair negative" was a coin flip
    assert v.teachers_conflict(_conflict({"a-b": [-0.067, 0.025], "a-c": [0.2, 0.1]})).state == INCONCLUSIVE
    assert (
        v.teachers_conflict(_conflict({}).reindex(columns=["method", "phase", "pair", "mean"])).state == NOT_EVALUATED
    )


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


METRICS = ["miou", "depth_rmse", "edge_f1", "normal_angle"]
DELTA = pd.DataFrame(
    [
        ["prism", 0.30, 0.20, 0.60, 16.0, 3.0],
        ["dense", 0.28, 0.20, 0.59, 16.2, 1.0],
        ["scratch", 0.25, 0.20, 0.50, 16.0, 0.0],
        ["single_semantic", 0.30, 0.40, 0.40, 20.0, -20.0],  # better at segmentation, the task it knows, only
        ["single_geometric", 0.20, 0.18, 0.55, 17.0, 2.0],  # depth -10 %, edges +10 %: +10 % on its two tasks
        ["single_texture", 0.26, 0.19, 0.52, 15.8, 2.0],
    ],
    columns=["method", *METRICS, "delta_m"],
)
CONFLICT = v.teachers_conflict(_conflict({"a-b": [-0.1, -0.12, -0.09, -0.11, -0.1], **FIVE}))
MET = v.premises(CONFLICT, DELTA)


@pytest.mark.parametrize(
    ("interval", "state"),
    [
        ((2.5, 1.5, 3.5), HOLDS),
        ((2.0, 0.5, 3.5), INCONCLUSIVE),  # above zero, not above the practical margin of one Delta_m point (issue 66)
        ((2.0, -0.5, 4.5), INCONCLUSIVE),
        ((0.5, 0.2, 0.8), FAILS),  # an effect shown to be under one point
        ((-2.0, -3.5, -0.5), FAILS),
    ],
)
def test_prism_beats_dense_on_its_interval(interval, state):
    claim = v.prism_beats_dense(_comparisons(interval), DELTA, MET)
    assert claim.state == state and claim.details["best_single_teacher"] == 2.0


def test_each_teacher_is_judged_useful_on_the_tasks_its_objective_teaches():
    useful = v.usefulness(DELTA)
    assert useful["semantic"] == pytest.approx(20.0)  # mIoU 0.30 against 0.25; its -20 overall Delta_m is not read
    assert useful["geometric"] == pytest.approx(100 * (0.1 + 0.1) / 2)  # depth 0.18 vs 0.20, edges 0.55 vs 0.50
    assert useful["texture"] > 0 and all(p.met for p in MET)
    assert v.usefulness(DELTA[DELTA["method"] != "single_texture"])["texture"] != v.usefulness(DELTA)["texture"]


def test_prism_beats_dense_needs_conflicting_and_useful_teachers():
    calm = v.teachers_conflict(_conflict({"a-b": [0.1, 0.12, 0.09, 0.11, 0.1], **FIVE}))
    claim = v.prism_beats_dense(_comparisons((2.0, 0.5, 3.5)), DELTA, v.premises(calm, DELTA))
    assert claim.state == PREMISE_NOT_MET and [p.met for p in claim.premises] == [False, True, True, True]
    useless = DELTA.copy()
    useless.loc[useless["method"] == "single_geometric", "depth_rmse"] = 0.25  # depth -25 %, edges +10 %: loses
    premised = v.premises(CONFLICT, useless)
    assert [p.met for p in premised] == [True, True, False, True]
    assert v.prism_beats_dense(_comparisons((2.0, 0.5, 3.5)), useless, premised).state == PREMISE_NOT_MET
    unrun = v.premises(CONFLICT, DELTA[DELTA["method"] != "single_semantic"])  # not measured is not met
    assert [p.met for p in unrun] == [True, False, True, True]


def test_prism_beats_dense_is_not_evaluated_without_the_pair():
    assert v.prism_beats_dense(_comparisons((1, 0, 2)).iloc[1:], DELTA, MET).state == NOT_EVALUATED


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
    ("mi", "nmi", "state"),
    [
        ([0.5, 0.4, 0.6, 0.5], [0.3, 0.25, 0.35, 0.3], HOLDS),
        ([0.5, 0.001, 0.6, 0.5], [0.3, 0.25, 0.35, 0.3], FAILS),  # one block at chance
        ([0.05, 0.04, 0.06, 0.05], [0.03, 0.02, 0.04, 0.03], FAILS),  # above chance but not well above
        ([0.5, 0.4, 0.6, 0.5], [0.05, 0.3, 0.02, 0.25], INCONCLUSIVE),  # NMI spread across 0.1
    ],
)
def test_specialisation_states(mi, nmi, state):
    table = _specialisation("stage1", mi, [0.002] * 4, nmi)
    assert v.experts_specialise(table).state == state
    assert v.experts_specialise(table.assign(method="dense")).state == NOT_EVALUATED


def test_task_pathways_rest_on_routing_not_on_the_swap_test_any_routed_model_fails():
    table = _specialisation("stage2", [0.5] * 4, [0.002] * 4, [0.3] * 4)
    assert v.task_pathways(table, _comparisons((1, 0, 2))).state == HOLDS
    swap_harmless = v.task_pathways(table, _comparisons((1, 0, 2), swap=(-1.0, -2.0, -0.5)))
    assert swap_harmless.state == HOLDS and swap_harmless.details["swap_loss"] == -1.0  # reported, not counted
    assert v.task_pathways(table.assign(nmi=0.01), _comparisons((1, 0, 2))).state == FAILS
    assert v.task_pathways(table.assign(mi_bits=0.001), _comparisons((1, 0, 2))).state == FAILS  # at chance
