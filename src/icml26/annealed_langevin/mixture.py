"""Gaussian mixtures with covariances diagonal in the shared basis.

``mu = sum_k pi_k N(m_k, diag(v_k))``. The annealing path of the paper removes
Gaussian smoothing: ``mu_t = sum_k pi_k N(m_k, diag(v_k + t c))``, so every
``mu_t`` is again such a mixture (:meth:`GaussianMixture.smoothed`) and its
score is exact:
``grad log mu_t(x) = sum_k w_k(x) (-(x - m_k) / (v_k + t c))`` with
responsibilities ``w_k ∝ pi_k N(x; m_k, v_k + t c)``.

For a fixed particle the score is affine in ``x`` once the responsibilities are
frozen, ``score = b - H x`` with ``H = sum_k w_k / A_k`` and
``b = sum_k w_k m_k / A_k`` (:meth:`GaussianMixture.linearised_score`); the
exponential integrator integrates exactly that affine drift.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp, softmax

LOG_2PI = float(np.log(2 * np.pi))


@dataclass(frozen=True)
class GaussianMixture:
    weights: np.ndarray  # (K,), sums to one
    means: np.ndarray  # (K, d)
    variances: np.ndarray  # (K, d), positive

    def __post_init__(self) -> None:
        w, m, v = (np.asarray(a, dtype=float) for a in (self.weights, self.means, self.variances))
        if w.ndim != 1 or m.ndim != 2 or v.shape != m.shape or m.shape[0] != w.size:
            raise ValueError(f"shapes must be (K,), (K, d), (K, d); got {w.shape}, {m.shape}, {v.shape}")
        if np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
            raise ValueError(f"weights must be positive and sum to one, got {w}")
        if np.any(v <= 0):
            raise ValueError("variances must be positive")
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "means", m)
        object.__setattr__(self, "variances", v)

    @property
    def dim(self) -> int:
        return self.means.shape[1]

    @property
    def n_components(self) -> int:
        return self.weights.size

    def smoothed(self, t: float, c: np.ndarray) -> GaussianMixture:
        """``mu_t``: every component covariance plus ``t C``."""
        return GaussianMixture(self.weights, self.means, self.variances + t * np.asarray(c))

    def component_log_densities(self, x: np.ndarray) -> np.ndarray:
        """``log pi_k + log N(x; m_k, A_k)`` for every particle and component, shape (N, K)."""
        x = np.atleast_2d(x)
        out = np.empty((x.shape[0], self.n_components))
        for k in range(self.n_components):
            z = (x - self.means[k]) ** 2 / self.variances[k]
            out[:, k] = -0.5 * (z.sum(axis=1) + np.log(self.variances[k]).sum() + self.dim * LOG_2PI)
        return out + np.log(self.weights)

    def log_density(self, x: np.ndarray) -> np.ndarray:
        return logsumexp(self.component_log_densities(x), axis=1)

    def responsibilities(self, x: np.ndarray) -> np.ndarray:
        """Posterior component probabilities ``w_k(x)``, shape (N, K)."""
        return softmax(self.component_log_densities(x), axis=1)

    def linearised_score(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(H, b)`` with ``score(x) = b - H * x`` at frozen responsibilities (both (N, d))."""
        w = self.responsibilities(x)
        precision = 1.0 / self.variances
        return w @ precision, w @ (self.means * precision)

    def score(self, x: np.ndarray) -> np.ndarray:
        h, b = self.linearised_score(x)
        return b - h * np.atleast_2d(x)

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` exact samples (components drawn by inverse CDF, so reruns are byte-identical)."""
        labels = np.searchsorted(np.cumsum(self.weights), rng.random(n), side="right").clip(max=self.n_components - 1)
        return self.means[labels] + np.sqrt(self.variances[labels]) * rng.standard_normal((n, self.dim))

    def moment_matched(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean and per-coordinate variance of the mixture (the diagonal of its covariance)."""
        mean = self.weights @ self.means
        second = self.weights @ (self.variances + self.means**2)
        return mean, second - mean**2
