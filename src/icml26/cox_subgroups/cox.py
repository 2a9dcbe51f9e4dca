"""Cox proportional hazards: Breslow partial likelihood and a Newton fit.

DDGroup fits a Cox model in every candidate neighbourhood (thousands of fits
per run), where scikit-survival's ``CoxPHSurvivalAnalysis`` (tens of ms per
fit) is too slow; this vectorised Newton solver computes the same estimator
(Breslow ties, ridge ``alpha/2 ||beta||^2`` as in scikit-survival) in well
under a millisecond and the tests check it against scikit-survival to 1e-6.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Survival:
    """Rows sorted by time (ascending), so risk sets are suffixes."""

    X: np.ndarray  # (n, p)
    time: np.ndarray  # (n,)
    event: np.ndarray  # (n,) bool

    @classmethod
    def sorted(cls, X, time, event) -> Survival:
        X = np.asarray(X, dtype=float)
        X = X[:, None] if X.ndim == 1 else X
        order = np.argsort(np.asarray(time, dtype=float), kind="stable")
        return cls(X[order], np.asarray(time, dtype=float)[order], np.asarray(event, dtype=bool)[order])

    def subset(self, mask: np.ndarray) -> Survival:
        return Survival(self.X[mask], self.time[mask], self.event[mask])

    def __len__(self) -> int:
        return self.time.size


def _risk_start(time: np.ndarray) -> np.ndarray:
    """Index of the first row whose time equals each row's time (ties share one risk set)."""
    return np.searchsorted(time, time, side="left")


def partial_log_likelihood(data: Survival, beta: np.ndarray) -> float:
    """Breslow log partial likelihood ``sum_{events} eta_i - log sum_{t_j >= t_i} exp(eta_j)``."""
    eta = data.X @ beta
    shift = eta.max() if eta.size else 0.0
    w = np.exp(eta - shift)
    suffix = np.cumsum(w[::-1])[::-1]
    denom = suffix[_risk_start(data.time)]
    ev = data.event
    return float(np.sum(eta[ev] - shift - np.log(denom[ev])))


def fit(data: Survival, alpha: float = 1e-3, max_iter: int = 50, tol: float = 1e-10) -> np.ndarray:
    """Maximise the ridge-penalised partial likelihood by Newton's method with step halving.

    With ``alpha = 0`` (the paper's unpenalised fit) separable data have no finite maximiser; the fit stops
    where the Newton system becomes singular, as scikit-survival stops at its iteration limit.
    """
    n, p = data.X.shape
    if not data.event.any():
        raise ValueError("Cox fit needs at least one event")
    beta = np.zeros(p)
    start, ev = _risk_start(data.time), data.event
    X = data.X

    def objective(b):
        return partial_log_likelihood(data, b) - 0.5 * alpha * b @ b

    current = objective(beta)
    for _ in range(max_iter):
        eta = X @ beta
        w = np.exp(eta - eta.max())
        s0 = np.cumsum(w[::-1])[::-1][start][ev]
        s1 = np.cumsum((w[:, None] * X)[::-1], axis=0)[::-1][start][ev]
        s2 = np.cumsum((w[:, None, None] * X[:, :, None] * X[:, None, :])[::-1], axis=0)[::-1][start][ev]
        mean = s1 / s0[:, None]
        grad = (X[ev] - mean).sum(axis=0) - alpha * beta
        hess = -(s2 / s0[:, None, None] - mean[:, :, None] * mean[:, None, :]).sum(axis=0) - alpha * np.eye(p)
        try:
            step = np.linalg.solve(hess, -grad)
        except np.linalg.LinAlgError:  # alpha = 0 and no information left (separable data, constant column)
            break
        if not np.all(np.isfinite(step)):
            break
        scale = 1.0
        while True:
            candidate = beta + scale * step
            value = objective(candidate)
            if value >= current - 1e-12 or scale < 1e-8:
                break
            scale /= 2
        beta, improvement, current = candidate, value - current, value
        if abs(improvement) < tol * (abs(current) + 1) and np.max(np.abs(scale * step)) < 1e-8:
            break
    return beta
