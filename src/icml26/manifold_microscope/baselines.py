"""General-purpose estimators on random (non-grid) samples: the paper's point of comparison.

* tangent space: PCA of the ``k`` nearest neighbours (top ``n`` components);
* curvature: least-squares quadratic fit of each normal coordinate over the tangent coordinates,
  ``z_nu ~ c + b^T u + u^T H_nu u / 2``; the Gauss equation turns the second fundamental form into
  scalar curvature ``S = sum_nu ((tr H_nu)^2 - |H_nu|_F^2)``;
* reach: the same formula as the grid estimator, with PCA tangents, over the other samples.
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors

from .geometry import reach_at


def _frames(X: np.ndarray, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Neighbour indices and, per point, the PCA basis (D x D, tangent directions first)."""
    _, idx = NearestNeighbors(n_neighbors=k).fit(X).kneighbors(X)
    bases = []
    for row in idx:
        local = X[row] - X[row].mean(axis=0)
        _, _, vt = np.linalg.svd(local, full_matrices=True)
        bases.append(vt.T)
    return idx, np.array(bases)


def scalar_curvature(X: np.ndarray, n: int, k: int) -> np.ndarray:
    """Quadratic-fit scalar curvature at every sample (neighbourhoods centred on the point itself)."""
    idx, bases = _frames(X, n, k)
    iu = np.triu_indices(n)
    out = np.empty(len(X))
    for p, (row, basis) in enumerate(zip(idx, bases)):
        local = (X[row] - X[p]) @ basis
        u, z = local[:, :n], local[:, n:]
        quad = np.stack([u[:, i] * u[:, j] * (0.5 if i == j else 1.0) for i, j in zip(*iu)], axis=1)
        design = np.column_stack([np.ones(len(u)), u, quad])
        coef, *_ = np.linalg.lstsq(design, z, rcond=None)
        S = 0.0
        for nu in range(z.shape[1]):
            H = np.zeros((n, n))
            H[iu] = coef[1 + n :, nu]
            H = H + H.T - np.diag(np.diag(H))
            S += np.trace(H) ** 2 - np.sum(H * H)
        out[p] = S
    return out


def reach(X: np.ndarray, n: int, k: int, sample: np.ndarray) -> np.ndarray:
    """Local reach at the sampled rows with PCA tangents, over all other samples."""
    _, bases = _frames(X, n, k)
    return np.array([reach_at(X[i], bases[i][:, :n], X) for i in sample])
