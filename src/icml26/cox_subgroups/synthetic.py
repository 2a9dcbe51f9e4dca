"""The spec's two synthetic datasets, with their planted boxes. No censoring (every row is an event).

Synth-Nonlinear: ``x ~ U([-1, 1]^2)``, planted box ``R* = [-sqrt(1/6), sqrt(1/6)]^2``; inside
``T ~ Exp(rate e^(10 (x1 + x2)))``, outside ``rate e^(0.5 (x1~ + x2))`` with ``x1~ = 10 sin(100 x1^2)``
(a Cox model is exact inside, badly misspecified outside).
Synth-Counter: ``x ~ U[0, 1]``, hazard ``e^(10 x)`` below 0.4 and ``e^(10 x - 2)`` above; ``R* = [0.4, 1]``.
Subgroup and adjustment features are both ``x``.
"""

from __future__ import annotations

import numpy as np

DATASETS = ("nonlinear", "counter")


def domain(name: str) -> np.ndarray:
    return {"nonlinear": np.array([[-1.0, -1.0], [1.0, 1.0]]), "counter": np.array([[0.0], [1.0]])}[name]


def planted_box(name: str) -> np.ndarray:
    r = np.sqrt(1 / 6)
    return {"nonlinear": np.array([[-r, -r], [r, r]]), "counter": np.array([[0.4], [1.0]])}[name]


def log_hazard(name: str, x: np.ndarray) -> np.ndarray:
    if name == "nonlinear":
        inside = np.all(np.abs(x) <= np.sqrt(1 / 6), axis=1)
        outside = 0.5 * (10 * np.sin(100 * x[:, 0] ** 2) + x[:, 1])
        return np.where(inside, 10 * (x[:, 0] + x[:, 1]), outside)
    if name == "counter":
        return np.where(x[:, 0] < 0.4, 10 * x[:, 0], 10 * x[:, 0] - 2)
    raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")


def sample(name: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x, time, event)`` with exponential times of rate ``exp(log_hazard)``."""
    lo, hi = domain(name)
    x = lo + (hi - lo) * rng.random((n, lo.size))
    time = rng.exponential(size=n) / np.exp(log_hazard(name, x))
    return x, time, np.ones(n, dtype=bool)
