"""Predicted distributions over ski days and the perturbations that make them wrong.

Families (spec): Gaussian ``N(mu, sigma^2)`` with ``mu in {0.5B, B, 2B}``,
``sigma = 0.2B``; geometric with ``theta in {1/(2B), 1/B, 2/B}``; bimodal
``0.5 N(0.25B) + 0.5 N(2B)`` (same ``sigma``). Continuous laws are
discretised on ``1..N`` by the mass of ``[T - 1/2, T + 1/2)`` and renormalised.

Prediction error: the truth is ``p_hat`` shifted by ``s`` days (mass pushed
past the ends is kept at ``1`` or ``N``), or the mixture
``(1 - eps) p_hat + eps * wrong`` with ``wrong`` the Gaussian at
``mu = 3B`` (a long season). Error is measured by the earth mover's distance
in days.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm, wasserstein_distance

from .model import SkiRental

PERTURBATIONS = ("shift", "mixture")


def gaussian(problem: SkiRental, mu: float, sigma: float) -> np.ndarray:
    T = problem.days
    mass = norm.cdf(T + 0.5, mu, sigma) - norm.cdf(T - 0.5, mu, sigma)
    return _normalise(mass, f"Gaussian(mu={mu}, sigma={sigma})")


def geometric(problem: SkiRental, theta: float) -> np.ndarray:
    T = problem.days
    return _normalise(theta * (1.0 - theta) ** (T - 1), f"geometric(theta={theta})")


def family(problem: SkiRental, name: str) -> np.ndarray:
    """Predicted distribution by its family name, e.g. ``gauss_1.0B`` or ``geom_2/B``."""
    B = problem.B
    sigma = 0.2 * B
    builders = {
        "gauss_0.5B": lambda: gaussian(problem, 0.5 * B, sigma),
        "gauss_1B": lambda: gaussian(problem, 1.0 * B, sigma),
        "gauss_2B": lambda: gaussian(problem, 2.0 * B, sigma),
        "geom_0.5/B": lambda: geometric(problem, 0.5 / B),
        "geom_1/B": lambda: geometric(problem, 1.0 / B),
        "geom_2/B": lambda: geometric(problem, 2.0 / B),
        "bimodal": lambda: _normalise(
            0.5 * gaussian(problem, 0.25 * B, sigma) + 0.5 * gaussian(problem, 2.0 * B, sigma), "bimodal"
        ),
    }
    if name not in builders:
        raise ValueError(f"unknown distribution family {name!r}; expected one of {sorted(builders)}")
    return builders[name]()


FAMILIES = ("gauss_0.5B", "gauss_1B", "gauss_2B", "geom_0.5/B", "geom_1/B", "geom_2/B", "bimodal")


def shift(p: np.ndarray, days: int) -> np.ndarray:
    """Move every mass ``days`` to the right (left if negative), piling up at the ends."""
    n = len(p)
    idx = np.clip(np.arange(n) + int(days), 0, n - 1)
    out = np.zeros(n)
    np.add.at(out, idx, p)
    return out


def mixture(problem: SkiRental, p: np.ndarray, eps: float) -> np.ndarray:
    """``(1 - eps) p + eps * N(3B, (0.2B)^2)``: a share ``eps`` of seasons runs long."""
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"mixture weight must lie in [0, 1], got {eps}")
    wrong = gaussian(problem, 3.0 * problem.B, 0.2 * problem.B)
    return (1.0 - eps) * p + eps * wrong


def perturb(problem: SkiRental, p_hat: np.ndarray, kind: str, magnitude: float) -> np.ndarray:
    """The true distribution for a perturbation ``kind`` of size ``magnitude``.

    ``shift`` magnitudes are in units of ``B`` (rounded to whole days);
    ``mixture`` magnitudes are the weight ``eps``.
    """
    if kind == "shift":
        return shift(p_hat, round(magnitude * problem.B))
    if kind == "mixture":
        return mixture(problem, p_hat, magnitude)
    raise ValueError(f"unknown perturbation {kind!r}; expected one of {PERTURBATIONS}")


def emd(problem: SkiRental, p: np.ndarray, q: np.ndarray) -> float:
    """Earth mover's distance between two distributions on ``1..N``, in days."""
    return float(wasserstein_distance(problem.days, problem.days, p, q))


def _normalise(mass: np.ndarray, what: str) -> np.ndarray:
    total = mass.sum()
    if not total > 0:
        raise ValueError(f"{what} puts no mass on 1..N")
    return mass / total
