"""Per-class geometry of dSprites-style slices: the finite-difference measures of each shape's image manifold.

A slice varies rotation (cyclic, over the shape's rotation period) and horizontal position
(non-cyclic) at fixed scale and vertical position. Classes are compared after normalising each
slice to unit total volume (``F / vol^(1/n)``): scalar curvature then scales by ``vol^(2/n)`` and
reach by ``vol^(-1/n)``.
"""

from __future__ import annotations

import numpy as np

from . import dsprites, geometry
from .grid import Grid


def slice_axes(shape: str, n_rotation: int, n_x: int, x_range: tuple[float, float]) -> tuple[dict, Grid]:
    period = dsprites.ROTATION_PERIOD[shape]
    rotation = np.arange(n_rotation) * period / n_rotation
    x = np.linspace(*x_range, n_x)
    return {"rotation": rotation, "x": x}, Grid((period / n_rotation, x[1] - x[0]), (True, False))


def measures(F: np.ndarray, grid: Grid, *, reach_samples: int, rng: np.random.Generator, order: int = 4) -> dict:
    """Volume, normalised total curvature, scalar-curvature quantiles and min reach of one slice, over its
    regular points; ``excluded_points`` counts the degenerate ones (NaN in the returned curvature field)."""
    g = geometry.metric(F, grid, order)
    volume = geometry.total_volume(g, grid, order)
    unit = volume ** (1 / grid.dim)
    S = geometry.scalar_curvature(g, grid, order) * unit**2
    shape = F.shape[:-1]
    flat = rng.choice(int(np.prod(shape)), size=min(reach_samples, int(np.prod(shape))), replace=False)
    sample = [tuple(int(i) for i in np.unravel_index(f, shape)) for f in flat]
    tau = geometry.reach(F, grid, sample, order) / unit
    return {
        "volume": volume,
        "total_curvature_unit_volume": geometry.total_curvature(g, grid, order),
        "scalar_curvature_median": float(np.nanmedian(S)),
        "scalar_curvature_q10": float(np.nanquantile(S, 0.1)),
        "scalar_curvature_q90": float(np.nanquantile(S, 0.9)),
        "min_reach_unit_volume": float(np.nanmin(tau)),
        "median_reach_unit_volume": float(np.nanmedian(tau)),
        "excluded_points": int(np.isnan(S).sum()),
    }, S
