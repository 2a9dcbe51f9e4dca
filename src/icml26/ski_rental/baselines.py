"""Baselines that ignore the distribution or reduce it to one number.

* buy-at-B: the classic deterministic ``2 - 1/B``-competitive policy.
* Karlin: see :func:`icml26.ski_rental.randomized.karlin`.
* Purohit, Svitkina & Kumar (NeurIPS 2018), learning-augmented ski rental with
  a point prediction ``y`` and trust parameter ``lam in (0, 1]``:
  deterministic -- buy on day ``ceil(lam B)`` if ``y >= B``, else on day
  ``ceil(B/lam)``; randomized -- the truncated exponential on ``1..k`` with
  ``k = floor(lam B)`` if ``y >= B``, else ``k = ceil(B/lam)`` (days beyond
  ``N+1`` are cut at ``N+1``).

The point prediction is the mean, median or mode of ``p_hat``.
"""

from __future__ import annotations

import math

import numpy as np

from .model import SkiRental
from .randomized import truncated_exponential

POINT_STATISTICS = ("mean", "median", "mode")


def point_prediction(problem: SkiRental, p_hat: np.ndarray, statistic: str) -> float:
    """Reduce a predicted distribution to a point prediction of the number of ski days."""
    p_hat = problem.check_distribution(p_hat)
    days = problem.days
    if statistic == "mean":
        return float(p_hat @ days)
    if statistic == "median":
        return float(days[np.searchsorted(np.cumsum(p_hat), 0.5 - 1e-12)])
    if statistic == "mode":
        return float(days[np.argmax(p_hat)])
    raise ValueError(f"unknown point statistic {statistic!r}; expected one of {POINT_STATISTICS}")


def buy_at_B(problem: SkiRental) -> int:
    """The break-even threshold ``x = B``."""
    return problem.B


def purohit_deterministic(problem: SkiRental, y: float, lam: float) -> int:
    """Purohit et al.'s deterministic threshold for point prediction ``y``."""
    _check_lam(lam)
    B = problem.B
    x = math.ceil(round(lam * B, 9)) if y >= B else math.ceil(round(B / lam, 9))
    return int(min(max(x, 1), problem.N + 1))


def purohit_randomized(problem: SkiRental, y: float, lam: float) -> np.ndarray:
    """Purohit et al.'s randomized buy-day distribution for point prediction ``y``."""
    _check_lam(lam)
    B = problem.B
    k = math.floor(round(lam * B, 9)) if y >= B else math.ceil(round(B / lam, 9))
    return truncated_exponential(problem, int(min(max(k, 1), problem.N + 1)))


def _check_lam(lam: float) -> None:
    if not 0.0 < lam <= 1.0:
        raise ValueError(f"trust parameter lambda must lie in (0, 1], got {lam}")
