"""The calibration sweep: deterministic, one row per setting, the admissibility bands applied as stated."""

from __future__ import annotations

import pandas as pd

from icml26.netdiff.calibration import admissible, sweep


def test_admissible_needs_every_heuristic_inside_its_band():
    table = pd.DataFrame(
        {"greedy": [0.80, 0.95, 0.80], "mutual_nearest": [0.85, 0.85, 0.85], "omnidirectional": [0.30, 0.30, 0.45]}
    )
    assert admissible(table)["admissible"].tolist() == [True, False, False]


def test_the_sweep_is_deterministic_with_one_row_per_setting():
    run = lambda: sweep([4, 6], [-6.0], [8], radius=0.5, instances=2, seed=0, log=lambda line: None)  # noqa: E731
    first, second = run(), run()
    pd.testing.assert_frame_equal(first, second)
    assert first[["sectors", "side_db", "nodes"]].values.tolist() == [[4, -6.0, 8], [6, -6.0, 8]]
    assert (first["target"] > 0).all() and (first["omnidirectional"] < 1).all()
