"""Discretisations of preconditioned (annealed) Langevin dynamics.

``dX = P grad log mu_{tau(s)}(X) ds + sqrt(2) P^(1/2) dW`` with
``tau(s) = tau0 (1 - s / S)`` on ``s in [0, S]``; ``tau0 = 0`` is plain
(unannealed) Langevin. All operators are diagonal, ``P = diag(p)``.

One step of size ``h`` freezes the responsibilities and the annealing time at
the step's *right* end ``t_{n+1} = tau(s_{n+1})`` (so the last step aims at
the target itself) and then either

* ``exponential``: integrates the frozen affine drift ``p (b - H x)`` exactly
  (an Ornstein-Uhlenbeck step per coordinate, unconditionally stable), or
* ``euler``: takes the Euler-Maruyama step ``x + h p (b - H x) + sqrt(2 p h) xi``.

For a single Gaussian at fixed ``t`` the exponential step is exact in
distribution; the tests check its mean and variance against the OU formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .mixture import GaussianMixture

SCHEMES = ("exponential", "euler")


def exponential_step(
    x: np.ndarray, H: np.ndarray, b: np.ndarray, p: np.ndarray, h: float, noise: np.ndarray
) -> np.ndarray:
    """Exact OU step for ``dX = p (b - H X) ds + sqrt(2 p) dW`` over time ``h``."""
    centre = b / H
    decay = np.exp(-p * H * h)
    std = np.sqrt(-np.expm1(-2 * p * H * h) / H)
    return centre + decay * (x - centre) + std * noise


def euler_step(x: np.ndarray, H: np.ndarray, b: np.ndarray, p: np.ndarray, h: float, noise: np.ndarray) -> np.ndarray:
    """Euler-Maruyama step for the same SDE."""
    return x + h * p * (b - H * x) + np.sqrt(2 * p * h) * noise


STEPS = {"exponential": exponential_step, "euler": euler_step}


@dataclass(frozen=True)
class Schedule:
    """Linear annealing ``tau(s) = tau0 (1 - s / S)`` discretised into ``n_steps`` equal steps."""

    tau0: float
    horizon: float
    n_steps: int

    def __post_init__(self) -> None:
        if self.tau0 < 0 or self.horizon <= 0 or self.n_steps < 1:
            raise ValueError(f"need tau0 >= 0, horizon > 0, n_steps >= 1; got {self}")

    @property
    def step(self) -> float:
        return self.horizon / self.n_steps

    def tau_at_step_ends(self) -> np.ndarray:
        """``t_{n+1}`` for ``n = 0..n_steps-1``: the annealing time each step is frozen at."""
        return self.tau0 * (1.0 - np.arange(1, self.n_steps + 1) / self.n_steps)


Observer = Callable[[int, float, np.ndarray], None]


def run(
    model: GaussianMixture,
    c: np.ndarray,
    p: np.ndarray,
    schedule: Schedule,
    x0: np.ndarray,
    scheme: str,
    rng: np.random.Generator,
    observe: Observer | None = None,
    observe_every: int = 0,
) -> np.ndarray:
    """Run (annealed) Langevin from ``x0`` with the score of ``model`` smoothed by ``t C``.

    ``observe(n, s, x)`` is called at ``n = 0`` and after every ``observe_every``-th step
    (and the last); it sees the particles at time ``s``.
    """
    if scheme not in STEPS:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    step, h = STEPS[scheme], schedule.step
    x = np.array(x0, dtype=float)
    if observe is not None:
        observe(0, 0.0, x)
    for n, t in enumerate(schedule.tau_at_step_ends(), start=1):
        H, b = model.smoothed(t, c).linearised_score(x)
        x = step(x, H, b, p, h, rng.standard_normal(x.shape))
        if observe is not None and observe_every and (n % observe_every == 0 or n == schedule.n_steps):
            observe(n, n * h, x)
    return x
