"""Intervals of method differences, and every verdict in each state it can reach."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.common.bootstrap import difference
from icml26.common.claims import FAILS, INCONCLUSIVE
from icml26.text_feedback_rl import verdict


def test_identical_methods_differ_by_exactly_zero():
    scores = np.random.default_rng(0).random((2, 50))
    found = difference(scores, scores.copy())
    assert found.mean == 0 and found.low <= 0 <= found.high and not found.significant


def test_a_clear_gain_is_significant_and_its_interval_covers_the_true_difference():
    rng = np.random.default_rng(1)
    base = (rng.random((3, 400)) < 0.3).astype(float)
    better = (rng.random((3, 400)) < 0.5).astype(float)
    found = difference(better, base)
    assert found.significant and found.low < 0.2 < found.high
    assert not difference(base, better).significant
    assert found.method == "t over 3 and 3 seeds and 400 items"


def test_a_gain_from_one_lucky_seed_is_not_significant():
    rng = np.random.default_rng(2)
    base = (rng.random((2, 300)) < 0.3).astype(float)
    lucky = np.vstack([(rng.random(300) < 0.9).astype(float), (rng.random(300) < 0.1).astype(float)])
    found = difference(lucky, base)
    assert found.mean > 0 and not found.significant  # the seeds' variance: the interval sees the spread


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="same problems"):
        difference(np.zeros((2, 5)), np.zeros((2, 6)))


def _table(low_sd_multi: float, low_fm: float = 0.05, low_ablation: float = 0.02) -> pd.DataFrame:
    rows = []
    for task in ("code", "permutation"):
        rows += [
            (task, "sd", "grpo_single", 0.2, 0.1, 0.3),
            (task, "sd", "grpo_multi", 0.1, low_sd_multi if task == "code" else 0.05, 0.2),
            (task, "fm_w1", "grpo_single", 0.1, low_fm, 0.2),
            (task, "fm_w1", "grpo_multi", 0.1, 0.05, 0.2),
            (task, "sd", "sd_turn2_baseline", 0.05, low_ablation, 0.1),
        ]
    frame = pd.DataFrame(rows, columns=["task", "method", "baseline", "difference", "low", "high"])
    confidence = np.where(frame["method"] == "fm_w1", 0.975, 0.95)  # FM: two weights, Bonferroni
    return frame.assign(metric="sampled", confidence=confidence, seeds=5)


def _curves(second_turn: float = 0.5, grpo_final: float = 0.3) -> pd.DataFrame:
    """Training curves: every run starts at sampled pass@1 0.1 (the warm start), second turn ``second_turn``."""
    rows = []
    for task in ("code", "permutation"):
        for method in ("grpo_single", "grpo_multi", "sd"):
            rows.append((task, method, 0, 0, 0.1, 0.1, second_turn))
            final = grpo_final if method.startswith("grpo") else 0.4
            rows.append((task, method, 0, 100, final, final, 0.5))
    return pd.DataFrame(rows, columns=["task", "method", "seed", "step", "greedy", "sampled", "second_turn"])


MET = verdict.premises(_curves(), baseline=True)


def test_the_premises_read_the_warm_start_and_the_baselines_from_the_curves():
    """Issue 66: a policy no better after feedback than before, or a GRPO that never leaves the warm start, makes the
    claims "premise not met" whatever the comparisons say."""
    assert [p.met for p in MET] == [True, True, True, True]
    assert MET[0].measured == pytest.approx(0.4) and MET[1].measured == pytest.approx(0.2)
    deaf = verdict.premises(_curves(second_turn=0.1), baseline=True)
    assert [p.met for p in deaf] == [False, True, False, True]
    stuck = verdict.premises(_curves(grpo_final=0.1), baseline=True)
    table = _table(0.02)
    assert verdict.outperforms_baselines(table, "sd", "a", "RLTF-SD", MET).holds is True
    assert verdict.outperforms_baselines(table, "sd", "a", "RLTF-SD", stuck).state == "premise not met"
    ablation = verdict.first_turn_baseline_matters(table, verdict.premises(_curves(second_turn=0.1), baseline=False))
    assert ablation.state == "premise not met" and len(ablation.premises) == 2  # the feedback premise only


def test_the_claims_hold_when_every_interval_lies_above_zero():
    table = _table(0.02)
    assert verdict.outperforms_baselines(table, "sd", "a", "RLTF-SD", MET).holds is True
    fm = verdict.feedback_modelling_beats_grpo(table, "fm_w1", MET)
    assert fm.holds is True and fm.id == "feedback_modelling_beats_grpo_lambda_1"
    assert "(97.5 % interval" in fm.statement and {i.level for i in fm.interval} == {0.975}
    assert verdict.first_turn_baseline_matters(table, MET).holds is True


def test_one_interval_reaching_zero_on_one_task_makes_the_claim_inconclusive():
    sd = verdict.outperforms_baselines(_table(-0.01), "sd", "a", "RLTF-SD", MET)
    assert sd.state == INCONCLUSIVE and "code vs grpo_multi +0.100 [-0.010, +0.200]" in sd.headline
    assert "to decide: code vs grpo_multi: about" in sd.headline
    assert verdict.feedback_modelling_beats_grpo(_table(0.02, low_fm=0.0), "fm_w1", MET).state == INCONCLUSIVE
    assert verdict.first_turn_baseline_matters(_table(0.02, low_ablation=-0.2), MET).state == INCONCLUSIVE


def test_an_interval_wholly_below_zero_does_not_hold():
    table = _table(0.02)
    table.loc[table["baseline"] == "sd_turn2_baseline", ["difference", "low", "high"]] = [-0.1, -0.15, -0.05]
    assert verdict.first_turn_baseline_matters(table, MET).state == FAILS


def test_a_method_that_was_not_run_is_not_evaluated():
    table = _table(0.02)
    claim = verdict.first_turn_baseline_matters(table[table["baseline"] != "sd_turn2_baseline"], MET)
    assert claim.holds is None and "not run" in claim.note
    fm = verdict.feedback_modelling_beats_grpo(table[table["method"] != "fm_w1"], None, MET)
    assert fm.id == "feedback_modelling_beats_grpo" and fm.state == "not evaluated"


def test_the_fm_runs_are_one_family_whose_intervals_are_bonferroni_corrected():
    from icml26.text_feedback_rl.rules import _comparisons

    rng = np.random.default_rng(4)
    frame = []
    for method, rate in [("grpo_single", 0.3), ("grpo_multi", 0.3), ("sd", 0.4), ("fm_w0.1", 0.4), ("fm_w1", 0.4)]:
        for seed in range(2):
            passed = rng.random(200) < rate
            frame += [("code", method, seed, p, float(v), float(v)) for p, v in enumerate(passed)]
    frame = pd.DataFrame(frame, columns=["task", "method", "seed", "problem", "greedy", "sampled"])
    table = _comparisons(frame, {"confidence": 0.95, "resamples": 200})
    fm = table[table["method"].str.startswith("fm_w")]
    assert set(fm["confidence"]) == {0.975} and set(table.loc[table["method"] == "sd", "confidence"]) == {0.95}
    assert set(table["seeds"]) == {2}
    # the same data at 95 %: a narrower interval (t over two seeds and 200 problems)
    row = fm[(fm["method"] == "fm_w1") & (fm["baseline"] == "grpo_single") & (fm["metric"] == "sampled")].iloc[0]
    alone = _comparisons(
        frame[frame["method"].isin(["grpo_single", "grpo_multi", "fm_w1"])], {"confidence": 0.95, "resamples": 200}
    )
    single = alone[(alone["method"] == "fm_w1") & (alone["baseline"] == "grpo_single") & (alone["metric"] == "sampled")]
    assert single["confidence"].item() == 0.95
    assert row["high"] - row["low"] > single["high"].item() - single["low"].item()
    assert row["difference"] == pytest.approx(single["difference"].item())
