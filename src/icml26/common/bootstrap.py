"""Differences between two methods with an interval over both seeds and test items, and the two resampling
schemes scipy's ``bootstrap`` does not offer (:func:`resample_weights`, :func:`crossed`).

Shared by the papers that score every method on the same test items once per seed (text_feedback_rl's test
problems, crl_bpt's test images, netdiff's instances). The interval accounts for both sources of variation:
each method's seeds independently (runs of different methods share nothing but the seed number) and the
test items jointly (the same items for both, so the comparison is paired over items).

It is Student's t, its variance the sum of each method's seed variance of the mean (per-seed mean scores) and
the items' paired variance of the mean difference, its degrees of freedom Welch-Satterthwaite's. A method with
one seed contributes no seed variance (none can be estimated): ``method`` says so. Until 2026-12-05 five or more
seeds were resampled by a two-level percentile bootstrap instead; with few seeds that interval is too narrow (in
``tests/common/test_interval_coverage.py``'s simulation a 95 % interval covered 86 % of the time at 5 seeds,
94 % at 10), where t's covers within a point and a half of 95 % at 3, 5 and 10 (issue 66).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Difference:
    mean: float  # mean accuracy of a minus that of b
    low: float
    high: float
    method: str

    @property
    def significant(self) -> bool:
        """The interval lies above zero: a beats b at the interval's confidence."""
        return self.low > 0


def difference(a: np.ndarray, b: np.ndarray, *, confidence: float = 0.95) -> Difference:
    """``a``, ``b``: scores ``[seeds, problems]`` of two methods on the same problems."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"scores must be [seeds, problems] on the same problems, got {a.shape} and {b.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return _t_difference(a, b, confidence)


def student_t(mean: float, parts: list[tuple[float, float]], confidence: float) -> tuple[float, float]:
    """Student's t interval around ``mean`` whose variance is the sum of independent ``parts`` (variance of the
    mean, degrees of freedom), with Welch-Satterthwaite's degrees of freedom."""
    from scipy import stats

    variance = sum(v for v, _ in parts)
    if variance == 0:
        return mean, mean
    df = variance**2 / sum(v**2 / d for v, d in parts if v > 0)
    half = float(stats.t.ppf((1 + confidence) / 2, df) * np.sqrt(variance))
    return mean - half, mean + half


def _t_difference(a: np.ndarray, b: np.ndarray, confidence: float) -> Difference:
    """Student's t with the seeds' and the items' variance of the mean difference (few seeds)."""
    parts = []  # (variance of the mean, degrees of freedom)
    for scores in (a, b):
        if scores.shape[0] >= 2:
            parts.append((scores.mean(axis=1).var(ddof=1) / scores.shape[0], scores.shape[0] - 1))
    paired = a.mean(axis=0) - b.mean(axis=0)
    if paired.size >= 2:
        parts.append((paired.var(ddof=1) / paired.size, paired.size - 1))
    mean = float(a.mean() - b.mean())
    seeds = f"{a.shape[0]} and {b.shape[0]} seeds"
    single = " (a single seed: its seed variance unknown, not included)" if min(a.shape[0], b.shape[0]) < 2 else ""
    return Difference(mean, *student_t(mean, parts, confidence), f"t over {seeds} and {a.shape[1]} items{single}")


def resample_weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """``[resamples, n]`` counts of each item in a resample with replacement: for a statistic computed from
    per-item sums (a confusion matrix, squared errors), a resample is a weighted sum, not a re-evaluation, which
    ``scipy.stats.bootstrap`` cannot exploit (prism_moe's test images)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(n, size=(resamples, n))
    return np.stack([np.bincount(row, minlength=n) for row in draws]).astype(np.float64)


def crossed(
    statistic: Callable[[np.ndarray, np.ndarray], float],
    shape: tuple[int, int],
    *,
    resamples: int,
    seed: int,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile interval of ``statistic(rows, cols)`` when the rows and the columns of a table are both samples
    (optifluence's audited models and canaries): each resample draws rows and columns with replacement together,
    which ``scipy.stats.bootstrap`` (one index per sample) does not do. A resample the statistic cannot score
    returns NaN and is left out."""
    rng = np.random.default_rng(seed)
    n_rows, n_cols = shape
    values = np.empty(resamples)
    for r in range(resamples):
        rows, cols = rng.integers(n_rows, size=n_rows), rng.integers(n_cols, size=n_cols)
        values[r] = statistic(rows, cols)
    tail = round((1 - confidence) / 2, 12)  # 0.025 exactly at 95 %, not 0.025000000000000022
    low, high = np.nanquantile(values, [tail, 1 - tail])
    return float(low), float(high)
