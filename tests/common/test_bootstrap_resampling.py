"""The two resampling schemes scipy's bootstrap does not offer: weighted sums over items, rows and columns
drawn together."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.common.bootstrap import crossed, resample_weights


def test_resample_weights_are_counts_of_a_draw_with_replacement():
    weights = resample_weights(7, 200, seed=1)
    assert weights.shape == (200, 7) and (weights.sum(1) == 7).all()
    assert np.array_equal(weights, resample_weights(7, 200, seed=1))  # seeded
    values = np.arange(7.0)
    means = weights @ values / 7
    assert means.mean() == pytest.approx(values.mean(), abs=0.15)  # unbiased for a mean
    assert means.std() == pytest.approx(values.std() / np.sqrt(7), rel=0.2)  # the mean's standard error


def test_crossed_resamples_rows_and_columns_and_skips_what_cannot_be_scored():
    table = np.add.outer(np.arange(10.0), 100 * np.arange(6.0))  # row i, column j: i + 100 j

    def mean(rows, cols):
        return float(table[np.ix_(rows, cols)].mean())

    low, high = crossed(mean, table.shape, resamples=400, seed=0)
    assert low < table.mean() < high
    only_rows = crossed(lambda rows, cols: float(table[rows, 0].mean()), table.shape, resamples=400, seed=0)
    assert high - low > 10 * (only_rows[1] - only_rows[0])  # the columns' spread (100 per step) dominates
    skipped = crossed(lambda rows, cols: np.nan if rows[0] == 0 else 1.0, table.shape, resamples=100, seed=0)
    assert skipped == (1.0, 1.0)
