"""Stability in the perturbative regime (the abstract's second result), in the exactly solvable factorised case.

Two perturbations of relative size ``eta`` on every coordinate ``j >= 2`` (the same relative error everywhere, so
their own size grows with ``d``, the harsh case for a dimension-uniform statement):

- *imperfect initialisation*: the initial variance is ``(lambda_j + tau0 c_j)(1 + eta)`` instead of the path's;
- *approximate score*: the score model's component covariance is ``(1 + eta) lambda_j`` (``kappa`` of
  :mod:`.factorised`).

A perturbation's *own size* is the KL it costs on its own, where it enters: the initial law's KL to the path's
start, and the score model's stationary law's KL to the target (``KL(N(0, kappa lambda) || N(0, lambda))``). Its
*amplification* at ``d`` is the final KL's excess over the unperturbed run, divided by that own size, both summed
over ``j = 2..d``: stability reads as an amplification that does not grow with ``d`` (the dynamics do not turn a
per-coordinate error into more than a dimension-free multiple of itself). Continuous time, closed form.
"""

from __future__ import annotations

import numpy as np

from .factorised import continuous_variance, gaussian_kl, kl_by_dimension

KINDS = ("initialisation", "score")


def own_size(lam: np.ndarray, c: np.ndarray, tau0: float, eta: float, kind: str) -> np.ndarray:
    """Per coordinate, the KL the perturbation costs where it enters (see the module docstring)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    start = lam + tau0 * c if kind == "initialisation" else lam
    return gaussian_kl((1 + eta) * start, start)


def final_kl(
    lam: np.ndarray, c: np.ndarray, p: np.ndarray, tau0: float, horizon: float, eta: float, kind: str
) -> np.ndarray:
    """Per coordinate, the KL to the target at ``s = S`` of the run perturbed by ``eta`` (0: the exact run)."""
    if kind == "initialisation":
        return gaussian_kl(continuous_variance(lam, c, p, tau0, horizon, v0=(lam + tau0 * c) * (1 + eta)), lam)
    if kind == "score":
        return gaussian_kl(continuous_variance(lam, c, p, tau0, horizon, kappa=1 + eta), lam)
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def amplification(
    lam: np.ndarray,
    c: np.ndarray,
    p: np.ndarray,
    tau0: float,
    horizon: float,
    eta: float,
    kind: str,
    dims: list[int],
) -> dict[str, np.ndarray]:
    """For each ``d`` in ``dims``: the perturbed and exact final KL, the perturbation's own size and their ratio
    (excess over own size), each summed over ``j = 2..d``."""
    perturbed = kl_by_dimension(final_kl(lam, c, p, tau0, horizon, eta, kind), dims)
    exact = kl_by_dimension(final_kl(lam, c, p, tau0, horizon, 0.0, kind), dims)
    size = kl_by_dimension(own_size(lam, c, tau0, eta, kind), dims)
    return {"kl": perturbed, "kl_exact": exact, "own_size": size, "amplification": (perturbed - exact) / size}
