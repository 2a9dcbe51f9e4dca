"""Relative errors of the grid estimators and of the random-sample baselines against the closed forms.

Definitions (ours): curvature error is the relative L1 error of the scalar-curvature field
(``mean |S - S*| / mean |S*|``); total curvature is compared after dividing by
``volume * mean |S*|`` (the torus's total curvature is 0); reach is the relative error of the minimum
local reach over ``reach_samples`` points; volume is the relative error of the total volume (grid only).
Degenerate grid points (:func:`~icml26.manifold_microscope.geometry.regular`) are left out and counted.
The baselines see as many random points as the grid has (parameters drawn uniformly, at most
``max_baseline_points``), with ``k``-nearest-neighbour neighbourhoods.
"""

from __future__ import annotations

import time

import numpy as np

from . import baselines, geometry, toys


def _relative(value: float, exact: float) -> float:
    return abs(value - exact) / abs(exact)


def grid_errors(toy: toys.ToyManifold, n: int, *, reach_samples: int, rng: np.random.Generator, order: int = 4) -> dict:
    """Relative errors over the grid's regular points, and ``excluded_points``: how many are degenerate."""
    F, grid, S_true = toy.on_grid(n)
    g = geometry.metric(F, grid, order)
    ok = geometry.regular(g)
    out = {"volume": _relative(geometry.total_volume(g, grid, order), toy.volume)}
    if toy.dim > 1:
        S = geometry.scalar_curvature(g, grid, order)
        scale = np.mean(np.abs(S_true[ok]))
        out["curvature"] = float(np.mean(np.abs(S - S_true)[ok]) / scale)
        out["total_curvature"] = abs(geometry.total_curvature(g, grid, order) - toy.total_curvature) / (
            toy.volume * scale
        )
    shape = F.shape[:-1]
    flat = rng.choice(int(np.prod(shape)), size=min(reach_samples, int(np.prod(shape))), replace=False)
    sample = [tuple(int(i) for i in np.unravel_index(f, shape)) for f in flat]
    out["reach"] = _relative(float(np.nanmin(geometry.reach(F, grid, sample, order))), toy.reach)
    return {**out, "excluded_points": int((~ok).sum())}


def baseline_errors(
    toy: toys.ToyManifold, points: int, *, k: int, reach_samples: int, rng: np.random.Generator
) -> dict:
    X, S_true = toy.at_random(points, rng)
    out = {}
    if toy.dim > 1:
        S = baselines.scalar_curvature(X, toy.dim, k)
        out["curvature"] = float(np.mean(np.abs(S - S_true)) / np.mean(np.abs(S_true)))
    sample = rng.choice(len(X), size=min(reach_samples, len(X)), replace=False)
    out["reach"] = _relative(float(baselines.reach(X, toy.dim, k, sample).min()), toy.reach)
    return out


def timed(fn, *args, **kw):
    """``(fn(*args, **kw), seconds)``."""
    start = time.perf_counter()
    value = fn(*args, **kw)
    return value, time.perf_counter() - start
