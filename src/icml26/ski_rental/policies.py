"""Every method of the comparison, as buy-day distributions on one instance.

A policy is a row ``(method, param, kind)`` with a distribution ``q`` over buy
days ``1..N+1``; deterministic thresholds are point masses. Keeping one shape
for all methods makes evaluation one dot product per policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import baselines, deterministic, randomized
from .model import SkiRental

# method name -> (uses the distribution?, randomized?)
METHODS = {
    "optimal_threshold": ("distributional", "deterministic"),
    "clamp": ("distributional", "deterministic"),
    "robust_randomized": ("distributional", "randomized"),
    "purohit_det_mean": ("point", "deterministic"),
    "purohit_det_median": ("point", "deterministic"),
    "purohit_det_mode": ("point", "deterministic"),
    "purohit_rand_mean": ("point", "randomized"),
    "purohit_rand_median": ("point", "randomized"),
    "purohit_rand_mode": ("point", "randomized"),
    "buy_at_B": ("none", "deterministic"),
    "karlin": ("none", "randomized"),
}


@dataclass(frozen=True)
class Policy:
    method: str
    param: float  # lambda for clamp/purohit, R for robust_randomized, NaN otherwise
    q: np.ndarray


def all_policies(problem: SkiRental, p_hat: np.ndarray, lambdas: list[float], R_grid: list[float]) -> list[Policy]:
    """Every compared method on one predicted distribution."""
    nan = float("nan")
    out = [
        Policy("optimal_threshold", nan, problem.point_mass(deterministic.optimal_threshold(problem, p_hat))),
        Policy("buy_at_B", nan, problem.point_mass(baselines.buy_at_B(problem))),
        Policy("karlin", nan, randomized.karlin(problem)),
    ]
    for lam in lambdas:
        out.append(Policy("clamp", lam, problem.point_mass(deterministic.clamp_threshold(problem, p_hat, lam))))
        for stat in baselines.POINT_STATISTICS:
            y = baselines.point_prediction(problem, p_hat, stat)
            x = baselines.purohit_deterministic(problem, y, lam)
            out.append(Policy(f"purohit_det_{stat}", lam, problem.point_mass(x)))
            out.append(Policy(f"purohit_rand_{stat}", lam, baselines.purohit_randomized(problem, y, lam)))
    # The robust LP on the grid, and at the exact robustness of each randomized
    # point baseline so that it can be compared under the same constraint.
    matched = {problem.randomized_worst_ratio(p.q) for p in out if p.method.startswith("purohit_rand")}
    for R in sorted({round(R, 12) for R in [*R_grid, *matched]}):
        out.append(Policy("robust_randomized", R, randomized.robust_stopping_distribution(problem, p_hat, R)))
    return out
