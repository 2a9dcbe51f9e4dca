"""Intrinsic dimension: the grid's exact answer against scikit-dimension's estimators on random samples.

On a grid the dimension is the rank of the metric ``g = J^T J`` (eigenvalues above ``RANK_TOL`` times
the largest), which is exact for a regular parametrisation. The general-purpose estimators see
random points of the same manifold: TwoNN (Facco et al. 2017), MLE (Levina-Bickel) and global PCA
(``lPCA`` fitted on all points, so it reports the dimension of the affine hull), all from
``scikit-dimension`` with their default settings.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import geometry, toys

RANK_TOL = 1e-8


def grid_dimension(toy: toys.ToyManifold, n: int, order: int = 4) -> int:
    """Median over the grid of the numerical rank of the metric."""
    F, grid, _ = toy.on_grid(n)
    eig = np.linalg.eigvalsh(geometry.metric(F, grid, order))
    return int(np.median((eig > RANK_TOL * eig.max(axis=-1, keepdims=True)).sum(axis=-1)))


def sample_estimates(toy: toys.ToyManifold, points: int, rng: np.random.Generator) -> dict[str, float]:
    import skdim

    X, _ = toy.at_random(points, rng)
    estimators = {"twonn": skdim.id.TwoNN(), "mle": skdim.id.MLE(), "lpca": skdim.id.lPCA()}
    return {name: float(est.fit(X).dimension_) for name, est in estimators.items()}


def table(toy: toys.ToyManifold, name: str, grid_n: int, points: list[int], seed: int, order: int = 4) -> pd.DataFrame:
    rows = [
        {
            "toy": name,
            "d": toy.dim,
            "estimator": "finite_difference_rank",
            "points": int(np.prod([len(a) for a in toy.axes(grid_n)])),
            "estimate": float(grid_dimension(toy, grid_n, order)),
        }
    ]
    for n in points:
        for est, value in sample_estimates(toy, n, np.random.default_rng([seed, n])).items():
            rows.append({"toy": name, "d": toy.dim, "estimator": est, "points": n, "estimate": value})
    frame = pd.DataFrame(rows)
    frame["abs_error"] = (frame["estimate"] - frame["d"]).abs()
    return frame
