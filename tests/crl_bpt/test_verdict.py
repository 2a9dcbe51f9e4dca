"""Every verdict comes out true, false and not evaluated on hand-made tables."""

import pandas as pd

from icml26.crl_bpt import verdict as v


def _comparisons(low: float, against=v.BASELINES + (v.FIXED,)) -> pd.DataFrame:
    return pd.DataFrame(
        [{"method": v.FULL, "baseline": b, "difference": low + 0.05, "low": low, "high": low + 0.1} for b in against]
    )


def test_beats_baselines_needs_every_interval_above_zero():
    assert v.beats_baselines(_comparisons(0.01)).holds is True
    frame = _comparisons(0.01)
    frame.loc[frame["baseline"] == "random_search", "low"] = -0.001
    claim = v.beats_baselines(frame)
    assert claim.holds is False and "random_search" in claim.headline
    missing = v.beats_baselines(_comparisons(0.01, against=("human_best",)))
    assert missing.holds is None and "random_search" in missing.note


def test_curriculum_beats_fixed():
    assert v.curriculum_beats_fixed(_comparisons(0.02)).holds is True
    assert v.curriculum_beats_fixed(_comparisons(-0.02)).holds is False
    assert v.curriculum_beats_fixed(_comparisons(0.02, against=v.BASELINES)).holds is None


def _readability(readable: int, best_ok=True) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "method": v.FULL,
                "seed": s,
                "generated": 100,
                "valid": 100,
                "readable": readable,
                "distinct_readable": 7,
                "best_template": "a photo of a {} .",
                "best_readable": best_ok,
            }
            for s in range(3)
        ]
    )


def test_readable_threshold_and_best_templates():
    assert v.readable(_readability(90)).holds is True
    assert v.readable(_readability(89)).holds is False
    assert v.readable(_readability(100, best_ok=False)).holds is False
    assert v.readable(_readability(100).assign(method="reinforce")).holds is None


def test_variance_reduced_in_every_seed():
    rows = pd.DataFrame({"method": v.CONTROLLED, "seed": [0, 1, 2], "ratio": [0.5, 0.9, 0.99], "alpha_mean": 0.8})
    assert v.variance_reduced(rows).holds is True
    assert v.variance_reduced(rows.assign(ratio=[0.5, 1.01, 0.2])).holds is False
    assert v.variance_reduced(rows.assign(method="reinforce")).holds is None
