"""Angles and the exact error formulas of the 2-D setting.

For homogeneous halfspaces ``sign(w.x)`` and a rotation-invariant marginal, two
halfspaces at angle ``a`` disagree on a fraction ``a/pi`` of the points. With
random classification noise of rate ``eta``, a hypothesis at angle ``a`` from
the target has error ``eta + (1 - 2 eta) a / pi``, so its excess error is
``(1 - 2 eta) a / pi``. A target rotating by ``delta`` per round therefore
drifts by ``Delta = (1 - 2 eta) delta / pi`` per round (the spec's definition).
"""

from __future__ import annotations

import numpy as np


def wrap(angle):
    """Angle difference folded into ``[-pi, pi)``."""
    return (np.asarray(angle) + np.pi) % (2 * np.pi) - np.pi


def disagreement(angle) -> np.ndarray:
    """Fraction of a rotation-invariant marginal on which two halfspaces at ``angle`` disagree."""
    return np.abs(wrap(angle)) / np.pi


def excess_error(angle, eta: float) -> np.ndarray:
    """Excess error over the target under random classification noise of rate ``eta``."""
    return (1 - 2 * eta) * disagreement(angle)


def drift_rate(delta: float, eta: float) -> float:
    """``Delta`` of a target rotating by ``delta`` radians per round."""
    return float((1 - 2 * eta) * delta / np.pi)


def rotation_for_drift(Delta: float, eta: float) -> float:
    """The per-round rotation ``delta`` that gives drift rate ``Delta``."""
    return float(Delta * np.pi / (1 - 2 * eta))
