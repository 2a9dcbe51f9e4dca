"""The exact 2-D setting: x uniform on the circle, a target rotating by ``delta`` per round.

At the round where the learner is evaluated the target points at angle 0; the
sample of age ``k`` (``k = 0`` newest, ``W - 1`` oldest in a window of ``W``)
was labelled by the target of ``k`` rounds earlier, at angle ``-k delta``, and
its label flipped with probability ``eta`` (random classification noise).
Because the drift is a rotation, every round's window has this same law, so
independent windows give exact steady-state errors without simulating a stream.

Learners return the angle of their hypothesis; its excess error is
``geometry.excess_error(angle, eta)``.
"""

from __future__ import annotations

import numpy as np

TWO_PI = 2 * np.pi


def windows(rng: np.random.Generator, reps: int, W: int, delta: float, eta: float) -> tuple[np.ndarray, np.ndarray]:
    """``reps`` independent windows: point angles ``phi`` and noisy labels ``y``, each ``(reps, W)``."""
    phi = rng.uniform(0.0, TWO_PI, size=(reps, W))
    target = -delta * np.arange(W)  # the target each sample was labelled by
    clean = np.where(np.cos(phi - target) >= 0, 1.0, -1.0)
    flip = rng.random((reps, W)) < eta
    return phi, np.where(flip, -clean, clean)


def averaging_angle(phi: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Angle of ``sum_i y_i x_i``: the efficient averaging learner."""
    return np.arctan2((y * np.sin(phi)).sum(axis=1), (y * np.cos(phi)).sum(axis=1))


def erm_angle(phi: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Angle of an exact empirical-risk minimiser over the window (angular sweep).

    Point ``i`` is classified correctly by ``theta`` iff ``theta`` lies in an arc
    of length ``pi`` starting at ``a_i = phi_i - pi/2`` (``y = +1``) or
    ``phi_i + pi/2`` (``y = -1``). Sweeping the ``2W`` arc ends in order and
    counting covering arcs finds the maximal-agreement interval in
    ``O(W log W)``; we return its midpoint (our tie-break).
    """
    reps, W = phi.shape
    start = np.mod(phi - np.where(y > 0, np.pi / 2, -np.pi / 2), TWO_PI)
    end = np.mod(start + np.pi, TWO_PI)
    events = np.concatenate([start, end], axis=1)
    step = np.concatenate([np.ones((reps, W)), -np.ones((reps, W))], axis=1)
    order = np.argsort(events, axis=1, kind="stable")
    events = np.take_along_axis(events, order, axis=1)
    step = np.take_along_axis(step, order, axis=1)
    covering_at_zero = (start > np.pi).sum(axis=1, keepdims=True)  # arcs that wrap past 2*pi
    count = covering_at_zero + np.cumsum(step, axis=1)  # agreement just after each event
    best = np.argmax(count, axis=1)
    rows = np.arange(reps)
    left = events[rows, best]
    right = np.where(best + 1 < 2 * W, events[rows, np.minimum(best + 1, 2 * W - 1)], events[rows, 0] + TWO_PI)
    return (left + right) / 2


LEARNERS = {"averaging": averaging_angle, "erm": erm_angle}
