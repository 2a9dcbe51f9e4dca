"""From a 1 Hz detector score to seizure events: smoothing, threshold, minimum duration.

The post-processing variants are part of an "algorithm" (detector + post-processing), as in the
challenge, where entrants shipped their own. ``smooth_s`` is a centred moving average (1 = none);
events shorter than ``min_duration_s`` are dropped. Event merging and splitting are left to the
scorer (SzCORE merges events < 90 s apart and splits them at 300 s).
"""

from __future__ import annotations

import numpy as np
from scipy.ndimage import uniform_filter1d


def events(
    score: np.ndarray, *, threshold: float, smooth_s: int = 1, min_duration_s: float = 0.0
) -> list[tuple[float, float]]:
    """``(start, end)`` in seconds of the runs where the smoothed score is >= ``threshold``."""
    s = uniform_filter1d(score.astype(float), size=smooth_s, mode="nearest") if smooth_s > 1 else score
    on = np.concatenate([[0], (s >= threshold).astype(np.int8), [0]])
    starts = np.flatnonzero(np.diff(on) == 1)
    ends = np.flatnonzero(np.diff(on) == -1)
    return [(float(a), float(b)) for a, b in zip(starts, ends) if b - a >= min_duration_s]
