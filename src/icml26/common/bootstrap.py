"""Differences between two methods with a two-level bootstrap interval, over seeds and test items.

Shared by the papers that score every method on the same test items once per seed (text_feedback_rl's test
problems, crl_bpt's test images). The difference of two methods' mean accuracy gets a percentile bootstrap
interval that resamples both sources of variation: each method's seeds independently (runs of different
methods share nothing but the seed number) and the test items jointly (the same items for both, so the
comparison is paired over items). Ours: scipy's
``bootstrap`` resamples one level; this two-level scheme is a few lines of numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Difference:
    mean: float  # mean accuracy of a minus that of b
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The interval lies above zero: a beats b at the interval's confidence."""
        return self.low > 0


def difference(
    a: np.ndarray, b: np.ndarray, *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> Difference:
    """``a``, ``b``: scores ``[seeds, problems]`` of two methods on the same problems."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"scores must be [seeds, problems] on the same problems, got {a.shape} and {b.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    rng = np.random.default_rng(seed)
    problems = rng.integers(a.shape[1], size=(resamples, a.shape[1]))
    seeds_a = rng.integers(a.shape[0], size=(resamples, a.shape[0]))
    seeds_b = rng.integers(b.shape[0], size=(resamples, b.shape[0]))
    per_problem_a = a[seeds_a].mean(axis=1)  # [resamples, problems]
    per_problem_b = b[seeds_b].mean(axis=1)
    diffs = np.take_along_axis(per_problem_a - per_problem_b, problems, axis=1).mean(axis=1)
    tail = (1 - confidence) / 2
    low, high = np.quantile(diffs, [tail, 1 - tail])
    return Difference(float(a.mean() - b.mean()), float(low), float(high))
