"""Toy manifolds with closed-form geometry, embedded in ``R^D`` by a random isometry.

A :class:`ToyManifold` is a parametrisation (``points(params)``), its exact
scalar curvature, total volume, total curvature and reach, and its parameter
box (cyclic or not per axis). :meth:`ToyManifold.on_grid` samples it on a
grid for the finite-difference estimators, :meth:`ToyManifold.at_random`
at uniformly random parameters for the general-purpose baselines.
Spheres and spheroids use polar coordinates on a band ``theta in [margin, pi - margin]`` of every polar
angle; ``margin = 0`` includes the coordinate poles, where the map loses rank (the estimators exclude
those points, :func:`~icml26.manifold_microscope.geometry.regular`). Band volumes and total curvatures
are one-dimensional quadratures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.integrate import quad

from .grid import Grid


def isometry(m: int, D: int, seed: int) -> np.ndarray:
    """A random ``m x D`` matrix with orthonormal rows (``D >= m``)."""
    if D < m:
        raise ValueError(f"ambient dimension {D} is smaller than the embedding dimension {m}")
    Q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((D, m)))
    return Q.T


@dataclass(frozen=True)
class ToyManifold:
    name: str
    points: Callable[[np.ndarray], np.ndarray]  # (M, n) parameters -> (M, m) points in R^m
    curvature: Callable[[np.ndarray], np.ndarray]  # (M, n) -> (M,) scalar curvature
    low: tuple[float, ...]
    high: tuple[float, ...]  # a cyclic axis covers [low, high) = one period
    cyclic: tuple[bool, ...]
    volume: float
    total_curvature: float
    reach: float
    D: int = 3
    seed: int = 0

    @property
    def dim(self) -> int:
        return len(self.low)

    def _embed(self, pts: np.ndarray) -> np.ndarray:
        return pts @ isometry(pts.shape[-1], self.D, self.seed)

    def axes(self, n: int) -> list[np.ndarray]:
        """``n`` samples per axis (twice as many on an azimuth twice as long as the others)."""
        out = []
        for lo, hi, c in zip(self.low, self.high, self.cyclic):
            m = n * max(1, int(round((hi - lo) / np.pi))) if c else n
            out.append(lo + np.arange(m) * (hi - lo) / m if c else np.linspace(lo, hi, m))
        return out

    def on_grid(self, n: int) -> tuple[np.ndarray, Grid, np.ndarray]:
        """``(F, grid, exact scalar curvature on the grid)``."""
        axes = self.axes(n)
        mesh = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
        params = mesh.reshape(-1, self.dim)
        shape = mesh.shape[:-1]
        F = self._embed(self.points(params)).reshape(*shape, self.D)
        grid = Grid(tuple(float(a[1] - a[0]) for a in axes), self.cyclic)
        return F, grid, self.curvature(params).reshape(shape)

    def at_random(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``count`` points at uniform random parameters, with their exact scalar curvature."""
        params = np.asarray(self.low) + (np.asarray(self.high) - np.asarray(self.low)) * rng.random((count, self.dim))
        return self._embed(self.points(params)), self.curvature(params)


def circle(radius: float = 1.0, **kw) -> ToyManifold:
    """Length ``L = 2 pi radius``, reach ``L / (2 pi)``."""
    return ToyManifold(
        "circle",
        lambda p: radius * np.column_stack([np.cos(p[:, 0]), np.sin(p[:, 0])]),
        lambda p: np.zeros(len(p)),
        (0.0,),
        (2 * np.pi,),
        (True,),
        2 * np.pi * radius,
        0.0,
        radius,
        **{"D": 2, **kw},
    )


def sphere(dim: int = 2, radius: float = 1.0, margin: float = 0.3, **kw) -> ToyManifold:
    """Scalar curvature ``n (n - 1) / R^2``, reach ``R``."""

    def points(p):
        coords, carry = [], radius * np.ones(len(p))
        for k in range(dim - 1):
            coords.append(carry * np.cos(p[:, k]))
            carry = carry * np.sin(p[:, k])
        return np.column_stack(coords + [carry * np.cos(p[:, -1]), carry * np.sin(p[:, -1])])

    band = np.prod([quad(lambda a, q=dim - 1 - k: np.sin(a) ** q, margin, np.pi - margin)[0] for k in range(dim - 1)])
    volume = radius**dim * 2 * np.pi * band
    S = dim * (dim - 1) / radius**2
    return ToyManifold(
        f"sphere{dim}",
        points,
        lambda p: np.full(len(p), S),
        (margin,) * (dim - 1) + (0.0,),
        (np.pi - margin,) * (dim - 1) + (2 * np.pi,),
        (False,) * (dim - 1) + (True,),
        volume,
        S * volume,
        radius,
        **{"D": dim + 1, **kw},
    )


def torus(R: float = 3.0, r: float = 1.0, **kw) -> ToyManifold:
    """Scalar curvature ``2 cos v / (r (R + r cos v))``, area ``4 pi^2 R r``, reach ``min(r, R - r)``,
    total curvature 0 (Gauss-Bonnet)."""

    def points(p):
        u, v = p[:, 0], p[:, 1]
        return np.column_stack([(R + r * np.cos(v)) * np.cos(u), (R + r * np.cos(v)) * np.sin(u), r * np.sin(v)])

    return ToyManifold(
        "torus",
        points,
        lambda p: 2 * np.cos(p[:, 1]) / (r * (R + r * np.cos(p[:, 1]))),
        (0.0, 0.0),
        (2 * np.pi, 2 * np.pi),
        (True, True),
        4 * np.pi**2 * R * r,
        0.0,
        min(r, R - r),
        **{"D": 3, **kw},
    )


def spheroid(a: float = 2.0, b: float = 1.0, margin: float = 0.0, **kw) -> ToyManifold:
    """``(a sin t cos p, a sin t sin p, b cos t)``: oblate for ``a > b``, prolate for ``a < b``. With
    ``c(t) = a^2 cos^2 t + b^2 sin^2 t``: scalar curvature ``2 b^2 / c^2`` (twice the Gaussian curvature),
    area element ``a sin t sqrt(c)``, principal radii ``c^(3/2) / (a b)`` (meridian) and ``a sqrt(c) / b``;
    the reach is the smallest radius on the band (``min(b^2/a, a^2/b)`` on the closed spheroid). Total
    curvature ``8 pi`` on the closed spheroid (Gauss-Bonnet)."""

    def c(t):
        return a**2 * np.cos(t) ** 2 + b**2 * np.sin(t) ** 2

    def points(p):
        t, phi = p[:, 0], p[:, 1]
        return np.column_stack([a * np.sin(t) * np.cos(phi), a * np.sin(t) * np.sin(phi), b * np.cos(t)])

    def area(t):
        return a * np.sin(t) * np.sqrt(c(t))

    volume = 2 * np.pi * quad(area, margin, np.pi - margin)[0]
    total = 2 * np.pi * quad(lambda t: 2 * b**2 / c(t) ** 2 * area(t), margin, np.pi - margin)[0]
    ends = np.array([margin, np.pi / 2])  # c is monotone on [0, pi/2], so are both radii
    reach = float(min((c(ends) ** 1.5 / (a * b)).min(), (a * np.sqrt(c(ends)) / b).min()))
    return ToyManifold(
        "spheroid",
        points,
        lambda p: 2 * b**2 / c(p[:, 0]) ** 2,
        (margin, 0.0),
        (np.pi - margin, 2 * np.pi),
        (False, True),
        volume,
        total,
        reach,
        **{"D": 3, **kw},
    )


def flat_torus(r1: float = 1.0, r2: float = 0.5, **kw) -> ToyManifold:
    """``(r1 cos u, r1 sin u, r2 cos v, r2 sin v)`` in ``R^4``: flat (``S = 0``), volume ``4 pi^2 r1 r2``, reach
    ``min(r1, r2)``."""

    def points(p):
        u, v = p[:, 0], p[:, 1]
        return np.column_stack([r1 * np.cos(u), r1 * np.sin(u), r2 * np.cos(v), r2 * np.sin(v)])

    return ToyManifold(
        "flat_torus",
        points,
        lambda p: np.zeros(len(p)),
        (0.0, 0.0),
        (2 * np.pi, 2 * np.pi),
        (True, True),
        4 * np.pi**2 * r1 * r2,
        0.0,
        min(r1, r2),
        **{"D": 4, **kw},
    )


TOYS = {
    "circle": circle,
    "sphere2": lambda **kw: sphere(2, **kw),
    "sphere3": lambda **kw: sphere(3, **kw),
    "torus": torus,
    "spheroid": spheroid,
    "flat_torus": flat_torus,
}


def make(name: str, **kw) -> ToyManifold:
    if name not in TOYS:
        raise ValueError(f"toy must be one of {sorted(TOYS)}, got {name!r}")
    return TOYS[name](**kw)
