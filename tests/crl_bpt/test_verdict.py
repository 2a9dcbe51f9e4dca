"""Every verdict reaches each of its states on hand-made tables: holds, does not hold, inconclusive (an interval
that straddles), premise not met (a black box where templates do not matter, no room above random search) and not
evaluated."""

import pandas as pd

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED, PREMISE_NOT_MET
from icml26.crl_bpt import verdict as v


def _comparisons(low: float, high: float | None = None, against=v.BASELINES + (v.FIXED,)) -> pd.DataFrame:
    high = low + 0.1 if high is None else high
    return pd.DataFrame(
        [
            {
                "method": v.FULL,
                "baseline": b,
                "difference": (low + high) / 2,
                "low": low,
                "high": high,
                "interval": "t over 3 and 3 seeds and 100 items",
            }
            for b in against
        ]
    )


def _premises(best=0.9, plain=0.5, random=(0.7, 0.72, 0.74)):
    calibration = pd.DataFrame(
        {"kind": ["baseline", "human", "names the domain in full"], "test_accuracy": [plain, 0.6, best]}
    )
    accuracy = pd.DataFrame({"method": "random_search", "seed": [0, 1, 2], "test_accuracy": list(random)})
    return v.headroom(calibration, accuracy)


MET = _premises()


def test_headroom_premises():
    assert [p.met for p in MET] == [True, True]
    assert [p.met for p in _premises(plain=0.85)] == [False, True]  # templates barely matter
    assert [p.met for p in _premises(random=(0.86, 0.86, 0.86))] == [True, False]  # random search at the ceiling


def test_beats_baselines_states():
    assert v.beats_baselines(_comparisons(0.02), MET).state == HOLDS
    # issue 66: an interval that clears zero but not the practical margin (one point of accuracy) does not hold it
    assert v.beats_baselines(_comparisons(0.005), MET).state == INCONCLUSIVE
    assert v.beats_baselines(_comparisons(-0.05, 0.008), MET).state == FAILS
    assert v.beats_baselines(_comparisons(-0.1, -0.01), MET).state == FAILS
    frame = _comparisons(0.01)
    frame.loc[frame["baseline"] == "random_search", ["difference", "low", "high"]] = [0.024, -0.012, 0.076]
    claim = v.beats_baselines(frame, MET)
    assert claim.state == INCONCLUSIVE and claim.holds is None  # the committed +0.024 [-0.012, +0.076]
    assert "vs random_search about" in claim.headline and "seeds at this effect size" in claim.headline
    assert v.beats_baselines(_comparisons(0.01), _premises(random=(0.86, 0.86, 0.86))).state == PREMISE_NOT_MET
    missing = v.beats_baselines(_comparisons(0.01, against=("human_best",)), MET)
    assert missing.state == NOT_EVALUATED and "random_search" in missing.note


def test_curriculum_beats_fixed():
    assert v.curriculum_beats_fixed(_comparisons(0.02), MET[:1]).state == HOLDS
    assert v.curriculum_beats_fixed(_comparisons(-0.2, -0.02), MET[:1]).state == FAILS
    assert v.curriculum_beats_fixed(_comparisons(-0.006, 0.059), MET[:1]).state == INCONCLUSIVE
    assert v.curriculum_beats_fixed(_comparisons(0.02), _premises(plain=0.85)[:1]).state == PREMISE_NOT_MET
    assert v.curriculum_beats_fixed(_comparisons(0.02, against=v.BASELINES), MET[:1]).state == NOT_EVALUATED


def _readability(readable, best_ok=True) -> pd.DataFrame:
    readable = readable if isinstance(readable, list) else [readable] * 3
    return pd.DataFrame(
        [
            {
                "method": v.FULL,
                "seed": s,
                "generated": 100,
                "valid": 100,
                "readable": r,
                "distinct_readable": 7,
                "best_template": "a photo of a {} .",
                "best_readable": best_ok,
            }
            for s, r in enumerate(readable)
        ]
    )


def test_readable_states():
    assert v.readable(_readability([95, 96, 97])).state == HOLDS
    assert v.readable(_readability([80, 78, 79])).state == FAILS
    assert v.readable(_readability([99, 70, 98])).state == INCONCLUSIVE  # one seed drifted into word salad
    assert v.readable(_readability([95, 96, 97], best_ok=False)).state == FAILS
    assert v.readable(_readability(100).assign(method="reinforce")).state == NOT_EVALUATED


def test_variance_reduced_states():
    rows = pd.DataFrame(
        {"method": v.CONTROLLED, "seed": [0, 1, 2], "ratio": [0.5, 0.55, 0.6], "alpha_mean": 0.8, "var_reward": 4.0,
         "reward_baseline_correlation": 0.6}
    )  # fmt: skip
    assert v.variance_reduced(rows).state == HOLDS
    assert v.variance_reduced(rows.assign(ratio=[1.2, 1.25, 1.3])).state == FAILS
    assert v.variance_reduced(rows.assign(ratio=[0.992, 0.993, 0.994])).state == FAILS  # within 1 % of no reduction
    committed = v.variance_reduced(rows.assign(ratio=[0.988, 0.988, 0.999]))
    assert committed.state == INCONCLUSIVE and "to decide" in committed.headline
    assert v.variance_reduced(rows.assign(method="reinforce")).state == NOT_EVALUATED
    # a seed whose raw rewards never vary (every template invalid) has no ratio: the premise is not met
    constant = v.variance_reduced(rows.assign(var_reward=[4.0, 0.0, 4.0], ratio=[0.5, float("nan"), 0.6]))
    assert constant.state == PREMISE_NOT_MET and [p.met for p in constant.premises] == [False, True]
    nothing = v.variance_reduced(rows.assign(var_reward=0.0, ratio=float("nan")))
    assert nothing.state == NOT_EVALUATED and "no seed's raw rewards varied" in nothing.note


def test_a_control_variate_uncorrelated_with_the_rewards_is_premise_not_met():
    """Issue 66: the run got a variance ratio of 0.992 and was judged; a control variate whose baseline reward does
    not move with the sampled rewards has nothing to remove, so the claim tests nothing."""
    rows = pd.DataFrame(
        {"method": v.CONTROLLED, "seed": [0, 1, 2], "ratio": [0.99, 0.992, 0.995], "alpha_mean": 0.8,
         "var_reward": 4.0, "reward_baseline_correlation": [0.3, -0.02, 0.1]}
    )  # fmt: skip
    claim = v.variance_reduced(rows)
    assert claim.state == PREMISE_NOT_MET and [p.met for p in claim.premises] == [True, False]
    assert claim.premises[1].measured == -0.02 and claim.details["reward_baseline_correlation"]["1"] == -0.02
