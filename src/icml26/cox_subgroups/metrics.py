"""Quality of a Cox model on data: EPE (the paper's), partial likelihood and C-index.

EPE: over comparable pairs (``t_i <= t_j``, ``delta_i = 1``, ``i != j``) the
model's probability that ``i`` fails first is ``sigmoid(z)``,
``z = beta^T (x_i - x_j)``; EPE is the mean cross-entropy
``mean log(1 + e^(-z))`` (``ln 2`` for the null model, lower is better).
"""

from __future__ import annotations

import numpy as np
from sksurv.exceptions import NoComparablePairException
from sksurv.metrics import concordance_index_censored

from .cox import Survival, partial_log_likelihood

LN2 = float(np.log(2))


def comparable_pairs(data: Survival) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs ``(i, j)`` with ``delta_i = 1``, ``t_i <= t_j``, ``i != j``."""
    i, j = np.nonzero(data.event[:, None] & (data.time[:, None] <= data.time[None, :]))
    keep = i != j
    return i[keep], j[keep]


def epe(data: Survival, beta: np.ndarray) -> float:
    """Expected prediction entropy; ``nan`` without comparable pairs."""
    i, j = comparable_pairs(data)
    if i.size == 0:
        return float("nan")
    z = (data.X[i] - data.X[j]) @ beta
    return float(np.mean(np.logaddexp(0.0, -z)))


def c_index(data: Survival, beta: np.ndarray) -> float:
    """Harrell's C-index of the risk ``beta^T x`` (scikit-survival); ``nan`` without comparable pairs."""
    if not data.event.any() or len(data) < 2:
        return float("nan")
    try:
        return float(concordance_index_censored(data.event, data.time, data.X @ beta)[0])
    except (NoComparablePairException, ZeroDivisionError):  # scikit-survival >= 0.22 raises the first
        return float("nan")


def mean_negative_partial_likelihood(data: Survival, beta: np.ndarray) -> float:
    """``-log PL / #events`` (the DG-PL variant's score; lower is better)."""
    events = int(data.event.sum())
    return float("nan") if events == 0 else -partial_log_likelihood(data, beta) / events
