"""Matched memorisation on hand-made learning curves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.generalization_spectrum.matched import at_level, common_level, matched


def curves():
    rows = [
        ("sft", 0, 0.0, 0.0),
        ("sft", 1, 0.5, 0.1),
        ("sft", 2, 1.0, 0.2),
        ("rl", 0, 0.0, 0.0),
        ("rl", 1, 0.4, 0.3),
        ("rl", 2, 0.8, 0.5),
        ("icl", 0, 0.6, 0.4),
    ]
    table = pd.DataFrame(rows, columns=["learner", "checkpoint", "D0", "D1"])
    return table.assign(D2=table["D1"] / 2, D3=0.0, D4=0.0)


def test_the_common_level_is_the_highest_d0_every_trained_learner_reaches():
    assert common_level(curves()) == pytest.approx(0.8)  # rl tops out at 0.8; icl has no curve
    with pytest.raises(ValueError, match="nothing to match"):
        common_level(curves()[curves()["learner"] == "icl"])


def test_pass_rates_are_interpolated_where_d0_first_reaches_the_level():
    level, table = matched(curves())
    assert table.loc["sft", "D1"] == pytest.approx(0.1 + 0.1 * (0.8 - 0.5) / 0.5)  # between checkpoints 1 and 2
    assert table.loc["rl", "D1"] == pytest.approx(0.5) and table.loc["rl", "D0"] == pytest.approx(level)
    assert table.loc["icl", "D1"] == pytest.approx(0.4)  # a single point is read as it is
    assert table.loc["sft", "D2"] == pytest.approx(table.loc["sft", "D1"] / 2)


def test_a_learner_that_never_reaches_the_level_has_no_reading():
    curve = curves()[curves()["learner"] == "rl"]
    assert np.isnan(at_level(curve, 0.9)).all()
