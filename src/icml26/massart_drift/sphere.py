"""The d-dimensional Monte-Carlo setting with a margin and a genuine Massart noise function.

Our choices (the spec leaves them open; all are config values):

* marginal -- uniform on the unit sphere in ``R^d`` conditioned on margin
  ``|w*_t . x| >= gamma`` with respect to the current target (rejection sampling);
* target -- ``w*_t = cos(delta t) e_1 + sin(delta t) e_2``, a rotation by
  ``delta`` per round; consecutive targets disagree on about ``Delta = delta/pi``
  of the marginal (exactly so without the margin condition);
* noise -- ``eta(x) = eta (1 + cos(3 pi x_3)) / 2``, which ranges over
  ``[0, eta]`` and depends on ``x`` (Massart, not random classification noise).

Errors are measured against the noisy labels on a fixed test sample: a
hypothesis errs with probability ``eta(x)`` where it agrees with the target and
``1 - eta(x)`` where it does not, averaged over test points inside the margin.
"""

from __future__ import annotations

import numpy as np


def target(t: int | np.ndarray, delta: float, d: int) -> np.ndarray:
    t = np.asarray(t, dtype=float)
    w = np.zeros(t.shape + (d,))
    w[..., 0] = np.cos(delta * t)
    w[..., 1] = np.sin(delta * t)
    return w


def noise_rate(x: np.ndarray, eta: float) -> np.ndarray:
    """Massart noise function ``eta(x) = eta (1 + cos(3 pi x_3)) / 2`` (between 0 and ``eta``)."""
    return eta * (1 + np.cos(3 * np.pi * x[..., 2])) / 2


def uniform_sphere(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    x = rng.standard_normal((n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def draw(rng: np.random.Generator, w_star: np.ndarray, gamma: float, eta: float) -> tuple[np.ndarray, float]:
    """One labelled sample ``(x, y)`` with margin ``gamma`` around ``w_star``."""
    d = w_star.shape[0]
    while True:
        x = uniform_sphere(rng, 8, d)
        ok = np.abs(x @ w_star) >= gamma
        if ok.any():
            x = x[np.argmax(ok)]
            break
    clean = 1.0 if x @ w_star >= 0 else -1.0
    return x, (-clean if rng.random() < noise_rate(x, eta) else clean)


def test_error(w: np.ndarray, w_star: np.ndarray, x_test: np.ndarray, gamma: float, eta: float) -> float:
    """Error of ``sign(w . x)`` against noisy labels, exact given the test sample."""
    margin = x_test @ w_star
    inside = np.abs(margin) >= gamma
    x, m = x_test[inside], margin[inside]
    agree = np.sign(x @ w) == np.sign(m)
    rate = noise_rate(x, eta)
    return float(np.where(agree, rate, 1 - rate).mean())


def bayes_error(w_star: np.ndarray, x_test: np.ndarray, gamma: float, eta: float) -> float:
    """Error of the target itself (the floor every learner is compared with)."""
    return test_error(w_star, w_star, x_test, gamma, eta)
