"""Closed forms the simulations are checked against.

Averaging learner in 2-D (random classification noise ``eta``): over a window
of ``W`` samples, ``sum_i y_i x_i`` points along the window's mean target,
which lags the current one by ``(W-1) delta / 2``, with an angular jitter of
standard deviation ``sigma_W = sqrt(1/2) / ((1 - 2 eta)(2/pi) sqrt(W))``
(``E[y x] = (1-2eta)(2/pi) w*`` and each perpendicular coordinate has variance
1/2). Hence the semi-analytic excess error

    (1 - 2 eta)/pi * E|(W-1) delta/2 + sigma_W Z|,   Z ~ N(0, 1),

the spec's ``E|W delta/2 + sigma_W Z|`` with the exact lag. Minimising
``W delta/2 + c/sqrt(W)`` over ``W`` gives ``W* ~ delta^(-2/3)`` and excess
``~ delta^(1/3)``: the efficient rate. A consistent (ERM) learner's angular
error shrinks like ``1/W`` instead, so ``W* ~ delta^(-1/2)`` and excess
``~ delta^(1/2)``.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm


def folded_normal_mean(mu, sigma):
    """``E|mu + sigma Z|`` for ``Z ~ N(0, 1)``."""
    mu = np.asarray(mu, float)
    sigma = np.asarray(sigma, float)
    return sigma * np.sqrt(2 / np.pi) * np.exp(-(mu**2) / (2 * sigma**2)) + mu * (1 - 2 * norm.cdf(-mu / sigma))


def averaging_sigma(W, eta: float):
    return np.sqrt(0.5) / ((1 - 2 * eta) * (2 / np.pi) * np.sqrt(np.asarray(W, float)))


def averaging_excess(W, delta: float, eta: float):
    """Semi-analytic steady-state excess error of the 2-D averaging learner."""
    W = np.asarray(W, float)
    return (1 - 2 * eta) / np.pi * folded_normal_mean((W - 1) * delta / 2, averaging_sigma(W, eta))
