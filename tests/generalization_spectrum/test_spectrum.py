"""Gains, transfer efficiency and the far-transfer tail on a hand-made score table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.generalization_spectrum.spectrum import efficiency, far_tail, gains, pass_rates


def scores():
    """Two seeds, 4 samples each; base solves little, sft memorises D0, rl transfers to D1/D2."""
    correct = {"base": [0, 0, 1, 1, 1], "sft": [4, 1, 1, 1, 1], "rl": [3, 3, 2, 2, 1], "none": [0, 0, 1, 1, 1]}
    rows = [
        {
            "learner": learner,
            "seed": seed,
            "variant": f"D{k}",
            "samples": 4,
            "correct": c if seed == 0 else max(c - (k == 3), 0),
        }
        for learner, counts in correct.items()
        for seed in (0, 1)
        for k, c in enumerate(counts)
    ]
    frame = pd.DataFrame(rows)
    return frame.assign(checkpoint=0, pass1=frame["correct"] / frame["samples"])


def test_gains_are_pass_rates_minus_the_base_models():
    rates, gain = pass_rates(scores()), gains(scores())
    assert list(rates.columns) == ["D0", "D1", "D2", "D3", "D4"] and "base" not in gain.index
    assert gain.loc["sft", "D0"] == pytest.approx(1.0) and gain.loc["rl", "D1"] == pytest.approx(0.75)
    assert gain.loc["rl", "D3"] == pytest.approx(rates.loc["rl", "D3"] - rates.loc["base", "D3"])
    with pytest.raises(ValueError, match="no rows of the base model 'nobody'"):
        gains(scores(), base="nobody")


def test_efficiency_divides_by_the_d0_gain_and_is_undefined_without_one():
    e = efficiency(gains(scores()))
    assert e.loc["sft", "D0"] == 1.0 and e.loc["sft", "D1"] == pytest.approx(0.25)
    assert e.loc["rl", "D1"] == pytest.approx(0.75 / 0.75) and e.loc["rl", "D2"] == pytest.approx(0.25 / 0.75)
    assert np.isnan(e.loc["none"]).all()  # g_0 = 0: nothing memorised, no efficiency


def test_far_tail_counts_seeds_solved_more_often_than_by_the_base():
    tail = far_tail(scores())
    assert tail["rl"] == pytest.approx(1.0) and tail["sft"] == 0.0 and tail["none"] == 0.0
