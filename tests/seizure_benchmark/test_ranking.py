"""Ranking-stability statistics against hand-computed values."""

import numpy as np
import pandas as pd
import pytest

from icml26.seizure_benchmark import ranking


def test_kendall_w_is_one_for_identical_rankings_and_zero_for_balanced_disagreement():
    assert ranking.kendall_w(np.array([[1, 2, 3], [1, 2, 3], [1, 2, 3]])) == pytest.approx(1.0)
    assert ranking.kendall_w(np.array([[1, 2, 3], [3, 2, 1]])) == pytest.approx(0.0)


def test_kendall_w_textbook_value():
    # 3 raters, 4 items; rank sums 4, 6, 9, 11 (mean 7.5) -> S = 29; W = 12 S / (m^2 (n^3 - n)) = 348 / 540
    ranks = np.array([[1, 2, 3, 4], [2, 1, 4, 3], [1, 3, 2, 4]], dtype=float)
    assert ranking.kendall_w(ranks) == pytest.approx(348 / 540)


def test_kendall_w_tie_correction():
    # one rater ties the last two items: T = 2^3 - 2 = 6, subtracted once per tie group (times m)
    ranks = np.array([[1, 2, 3.5, 3.5], [1, 2, 3, 4]])
    totals = ranks.sum(axis=0)
    s = ((totals - totals.mean()) ** 2).sum()
    assert ranking.kendall_w(ranks) == pytest.approx(12 * s / (4 * 60 - 2 * 6))


def test_stability_and_concordance_on_a_constructed_leaderboard():
    # "b" wins on average through one subject; "a" is better on most subjects.
    f1 = pd.DataFrame(
        {"a": [0.6, 0.6, 0.6, 0.0], "b": [0.5, 0.5, 0.5, 1.0], "c": [0.1, 0.1, 0.1, 0.1]},
        index=["01", "02", "03", "04"],
    )
    table = ranking.stability(f1, f1.mean()).set_index("algorithm")
    assert list(table.index) == ["b", "a", "c"]  # sorted by aggregate F1
    assert table.loc["a", "mean_rank"] == pytest.approx((1 + 1 + 1 + 3) / 4)
    assert table.loc["b", "mean_rank"] == pytest.approx((2 + 2 + 2 + 1) / 4)
    assert table.loc["c", "top3_fraction"] == 1.0
    conc = ranking.concordance(f1, f1.mean())
    assert conc["kendall_tau"] == pytest.approx(1 / 3)  # orders (b, a, c) vs (a, b, c): one pair of three swapped
    assert conc["subjects"] == 4


def test_stability_orders_by_the_given_aggregate_not_by_the_seizure_subjects_mean():
    f1 = pd.DataFrame({"a": [0.6, 0.6], "b": [0.5, 0.5]}, index=["01", "02"])
    aggregate = pd.Series({"a": 0.3, "b": 0.5})  # e.g. "a" raised false alarms on seizure-free subjects
    table = ranking.stability(f1, aggregate)
    assert table["algorithm"].tolist() == ["b", "a"] and table["mean_f1_seizure_subjects"].tolist() == [0.5, 0.6]
    assert ranking.concordance(f1, aggregate)["kendall_tau"] == pytest.approx(-1.0)


def test_bootstrap_skips_undefined_f1_and_places_an_all_undefined_algorithm_last():
    f1 = pd.DataFrame({"never": [np.nan, np.nan, np.nan], "some": [0.2, 0.0, 0.4]})
    table = ranking.bootstrap(f1, 50, seed=0).set_index("algorithm")
    assert table.loc["never", "position_low"] == 2 and table.loc["some", "p_first"] == 1.0


def test_bootstrap_probabilities_of_first_place_sum_to_one_and_are_reproducible():
    rng = np.random.default_rng(0)
    f1 = pd.DataFrame(rng.random((10, 4)), columns=list("wxyz"))
    one, two = ranking.bootstrap(f1, 200, seed=3), ranking.bootstrap(f1, 200, seed=3)
    pd.testing.assert_frame_equal(one, two)
    assert one["p_first"].sum() == pytest.approx(1.0)
    assert (one["position_low"] <= one["position_median"]).all() and (
        one["position_median"] <= one["position_high"]
    ).all()
