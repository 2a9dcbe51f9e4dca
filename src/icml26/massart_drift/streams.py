"""Error-versus-time traces of windowed learners on a drifting d-dimensional stream.

Learners (all see the same stream):

* ``averaging`` -- ``w = sum y_i x_i`` over the last ``W`` samples (running sums, O(d) a round);
* ``perspectron`` -- a Perspectron/LeakyReLU-style cutting-plane learner on the
  last ``W`` samples: start from the averaging direction, then ``iterations`` steps
  ``w <- normalize(w + s g)`` with
  ``g = mean[y x ((1-lam) 1{mistake} + lam 1{correct}) / max(|w.x|, clip)]``;
* ``no_forgetting`` -- averaging over the whole history;
* ``small_window`` -- averaging over a fixed small window.

The window of the efficient learners is ``W = ceil(window_scale * Delta^(-2/3))``.
"""

from __future__ import annotations

import math

import numpy as np

from . import sphere


def perspectron(
    x: np.ndarray, y: np.ndarray, w0: np.ndarray, *, lam: float, step: float, iterations: int, clip: float
) -> np.ndarray:
    w = w0 / np.linalg.norm(w0)
    for _ in range(iterations):
        margin = x @ w
        mistake = y * margin <= 0
        weight = np.where(mistake, 1 - lam, lam) / np.maximum(np.abs(margin), clip)
        g = (y * weight) @ x / len(y)
        w = w + step * g
        w = w / np.linalg.norm(w)
    return w


def trace(
    *,
    seed: int,
    d: int,
    eta: float,
    gamma: float,
    Delta: float,
    rounds: int,
    eval_every: int,
    window_scale: float,
    small_window: int,
    n_test: int,
    perspectron_params: dict,
) -> list[dict]:
    """Run one stream and return one row per (evaluated round, learner)."""
    rng = np.random.default_rng(seed)
    delta = Delta * math.pi
    W = math.ceil(window_scale * Delta ** (-2 / 3))
    x_test = sphere.uniform_sphere(rng, n_test, d)
    xs = np.zeros((rounds, d))
    ys = np.zeros(rounds)
    total = np.zeros(d)
    rows = []
    for t in range(rounds):
        w_star = sphere.target(t, delta, d)
        xs[t], ys[t] = sphere.draw(rng, w_star, gamma, eta)
        total += ys[t] * xs[t]
        if (t + 1) % eval_every:
            continue
        window = slice(max(0, t + 1 - W), t + 1)
        small = slice(max(0, t + 1 - small_window), t + 1)
        averaging = ys[window] @ xs[window]
        hypotheses = {
            "averaging": averaging,
            "perspectron": perspectron(xs[window], ys[window], averaging, **perspectron_params),
            "no_forgetting": total.copy(),
            "small_window": ys[small] @ xs[small],
        }
        windows = {"averaging": W, "perspectron": W, "no_forgetting": t + 1, "small_window": small_window}
        floor = sphere.bayes_error(w_star, x_test, gamma, eta)
        for name, w in hypotheses.items():
            rows.append(
                {
                    "seed": seed,
                    "round": t + 1,
                    "learner": name,
                    "window": windows[name],
                    "error": sphere.test_error(w, w_star, x_test, gamma, eta),
                    "bayes_error": floor,
                }
            )
    return rows
