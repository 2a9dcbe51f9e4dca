"""Derivatives of maps sampled on dense axis-aligned grids.

A grid map is an array of shape ``(N_1, ..., N_n, D)``: the point of the
manifold at grid index ``(i_1, ..., i_n)``, with spacing ``h_k`` along axis
``k``; a *cyclic* axis wraps around (its samples cover one period, the last
neighbour of the last sample is the first). Derivatives are central
differences of order 2 or 4; on non-cyclic axes the ends use one-sided
stencils of the same order, so accuracy is uniform over the grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Central first-derivative stencils: offsets -> weights (divide by h).
CENTRAL = {2: {-1: -0.5, 1: 0.5}, 4: {-2: 1 / 12, -1: -8 / 12, 1: 8 / 12, 2: -1 / 12}}
# One-sided stencils for the first rows of a non-cyclic axis: row r uses samples 0..order.
EDGE = {
    2: [np.array([-3.0, 4.0, -1.0]) / 2],
    4: [np.array([-25.0, 48.0, -36.0, 16.0, -3.0]) / 12, np.array([-3.0, -10.0, 18.0, -6.0, 1.0]) / 12],
}


@dataclass(frozen=True)
class Grid:
    """Spacing and topology of a grid's parameter axes."""

    spacing: tuple[float, ...]
    cyclic: tuple[bool, ...]

    def __post_init__(self) -> None:
        if len(self.spacing) != len(self.cyclic):
            raise ValueError("spacing and cyclic need one entry per axis")
        if any(h <= 0 for h in self.spacing):
            raise ValueError(f"spacing must be positive, got {self.spacing}")

    @property
    def dim(self) -> int:
        return len(self.spacing)

    def parameter_volume(self, shape: tuple[int, ...]) -> float:
        """Measure of the parameter box: ``N h`` on a cyclic axis (one period), ``(N - 1) h`` otherwise."""
        return float(np.prod([(n if c else n - 1) * h for n, h, c in zip(shape, self.spacing, self.cyclic)]))


def derivative(values: np.ndarray, axis: int, h: float, cyclic: bool, order: int = 4) -> np.ndarray:
    """First derivative of ``values`` along ``axis`` (any trailing axes are carried along)."""
    if order not in CENTRAL:
        raise ValueError(f"order must be 2 or 4, got {order}")
    n = values.shape[axis]
    half = order // 2
    if n < order + 1:
        raise ValueError(f"axis {axis} has {n} samples; order {order} needs at least {order + 1}")
    v = np.moveaxis(values, axis, 0)
    if cyclic:
        out = sum(w * np.roll(v, -k, axis=0) for k, w in CENTRAL[order].items())
    else:
        out = np.empty_like(v, dtype=float)
        inner = slice(half, n - half)
        out[inner] = sum(w * v[half + k: n - half + k] for k, w in CENTRAL[order].items())
        for r, stencil in enumerate(EDGE[order]):
            out[r] = np.tensordot(stencil, v[: stencil.size], axes=1)
            out[n - 1 - r] = -np.tensordot(stencil, v[::-1][: stencil.size], axes=1)
    return np.moveaxis(out / h, 0, axis)


def integrate(density: np.ndarray, grid: Grid) -> float:
    """Integral over the parameter box: periodic mean on cyclic axes, trapezoid rule otherwise."""
    out = np.asarray(density, dtype=float)
    for axis in reversed(range(grid.dim)):
        h = grid.spacing[axis]
        if grid.cyclic[axis]:
            out = out.sum(axis=axis) * h
        else:
            out = np.trapezoid(out, dx=h, axis=axis)
    return float(out)
