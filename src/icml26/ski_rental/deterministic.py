"""Deterministic threshold policies that use a distributional prediction.

Optimal threshold
    ``x*(p) = argmin_x ECR(x; p)`` over ``x in 1..N+1`` (ties: the earliest
    day), computed in O(N) by :meth:`SkiRental.ecr_all`.

Clamp Policy (our reading of the paper's definition)
    ``x_lam = clip(x*(p_hat), ceil(lam*B), floor(B/lam))`` for ``lam in (0, 1]``,
    also clipped to ``N+1``.

Robustness: for every ``T``, ``ALG(T)/OPT(T) < 1 + 1/lam``.
    If ``x <= B`` the worst ratio is ``(x-1+B)/x = 1 + (B-1)/x <= 1 + (B-1)/(lam B)``;
    if ``x > B`` it is ``(x-1+B)/B <= 1 + (B/lam - 1)/B``; both are ``< 1 + 1/lam``.
    ``lam = 1`` buys at ``B`` with worst ratio ``2 - 1/B``.

Consistency: ``ECR(x_lam; p) <= (1+lam) ECR(x*(p_hat); p)`` for every ``p``.
    We show ``ALG_{x_lam}(T) <= (1+lam) ALG_{x*}(T)`` for every ``T`` (then
    take expectations of the ratio). Case ``x* < x_lam = ceil(lam B)``: for
    ``T < x*`` both rent; for ``x* <= T < x_lam`` the clamp rents
    (``T < B <= ALG_{x*}``); for ``T >= x_lam``,
    ``x_lam - 1 + B < (1+lam) B <= (1+lam)(x* - 1 + B)``.
    Case ``x* > x_lam = floor(B/lam)``: for ``T < x_lam`` both rent; for
    ``x_lam <= T < x*`` the ratio is ``(x_lam-1+B)/T <= 1 + (B-1)/x_lam < 1 + lam``
    because ``x_lam > B/lam - 1 >= (B-1)/lam``; for ``T >= x*`` the clamp
    pays less. Otherwise ``x_lam = x*``.
"""

from __future__ import annotations

import math

import numpy as np

from .model import SkiRental


def optimal_threshold(problem: SkiRental, p: np.ndarray) -> int:
    """Threshold minimising the expected competitive ratio under ``p`` (earliest on ties)."""
    return int(np.argmin(problem.ecr_all(p))) + 1


def clamp_range(problem: SkiRental, lam: float) -> tuple[int, int]:
    """The safe thresholds ``[ceil(lam B), min(floor(B/lam), N+1)]`` of the Clamp Policy."""
    if not 0.0 < lam <= 1.0:
        raise ValueError(f"Clamp parameter lambda must lie in (0, 1], got {lam}")
    B = problem.B
    # Round before ceil/floor so that e.g. 0.1*50 = 5.000000000000001 is 5.
    low = max(1, math.ceil(round(lam * B, 9)))
    high = min(math.floor(round(B / lam, 9)), problem.N + 1)
    return low, high


def clamp_threshold(problem: SkiRental, p_hat: np.ndarray, lam: float) -> int:
    """Clamp Policy: the optimal threshold for ``p_hat`` clipped to the safe range."""
    low, high = clamp_range(problem, lam)
    return int(np.clip(optimal_threshold(problem, p_hat), low, high))


def best_worst_case_threshold(problem: SkiRental) -> tuple[int, float]:
    """Threshold with the smallest worst-case ratio and that ratio (``B`` and ``2 - 1/B`` when ``N >= B``)."""
    worst = problem.worst_ratios()
    x = int(np.argmin(worst)) + 1
    return x, float(worst[x - 1])
