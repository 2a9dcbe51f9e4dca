"""Finite-difference Riemannian geometry of grid-sampled maps (the paper's core estimators).

Given a grid map ``F: (s_1..s_n) -> R^D`` (see :mod:`.grid`):

* Jacobian ``J = [d_1 F ... d_n F]``, metric ``g = J^T J``, volume element ``sqrt(det g)``,
  total volume = integral of ``sqrt(det g)`` over the parameter box;
* Christoffel symbols *of the first kind* ``Gamma_{l,ij}`` (derivatives of ``g`` only), their
  derivatives, then the lowered Riemann tensor, Ricci and scalar curvature ``S`` (intrinsic: only ``g``
  is needed), total curvature = integral of ``S sqrt(det g)``;
* reach (Federer; the Aamari et al. formula) ``tau(x) = min_{y != x} |y - x|^2 / (2 dist(y - x, T_x))``
  with the tangent space ``T_x`` spanned by ``J(x)``; the global reach is the minimum over (a subsample of) x.

Why the first kind: near a coordinate singularity (the poles of a (theta, phi) sphere grid) the
second-kind symbols carry ``cot theta``, whose finite differences blow up; ``Gamma_{l,ij}`` is as smooth
as ``g`` itself, and the inverse metric enters once per point, pointwise (as in the paper's reference code).
*Degenerate points*, where ``g`` is singular to working precision (smallest eigenvalue at most
:data:`DEGENERATE` times the largest: the map loses rank there), are detected, not computed: their
curvature and reach are NaN, and totals integrate over the regular points (:func:`regular` says which).

The metric is accumulated in chunks along the first axis so that the full Jacobian of
high-dimensional maps (4-D grids of 64x64 images) never sits in memory at once.
Sign convention: ``R^r_{s m n} = d_m G^r_{n s} - d_n G^r_{m s} + G^r_{m l} G^l_{n s} - G^r_{n l} G^l_{m s}``,
``Ric_{s n} = R^r_{s r n}``, so the unit 2-sphere has ``S = 2``.
"""

from __future__ import annotations

import numpy as np

from .grid import CENTRAL, EDGE, Grid, derivative, integrate, samples_needed

DEGENERATE = 1e-10  # a metric whose eigenvalue ratio is at most this is singular to working precision


def jacobian(F: np.ndarray, grid: Grid, order: int = 4) -> np.ndarray:
    """``J`` of shape ``grid_shape + (D, n)`` (use :func:`metric` for large maps)."""
    return np.stack([derivative(F, k, grid.spacing[k], grid.cyclic[k], order) for k in range(grid.dim)], axis=-1)


def metric(F: np.ndarray, grid: Grid, order: int = 4, max_bytes: int = 256 * 2**20) -> np.ndarray:
    """``g = J^T J`` of shape ``grid_shape + (n, n)``, built from chunks of the first axis with a halo."""
    shape, D, n = F.shape[:-1], F.shape[-1], grid.dim
    if len(shape) != n:
        raise ValueError(f"map has {len(shape)} grid axes but the grid describes {n}")
    per_row = int(np.prod(shape[1:], dtype=np.int64)) * D * n * 8 * 3
    width = samples_needed(order)
    rows = int(min(shape[0], max(width, max_bytes // max(per_row, 1))))
    halo = order // 2  # a kept row's central stencil; the chunk's own first/last rows are the halo
    g = np.empty((*shape, n, n))
    for start in range(0, shape[0], rows):
        stop = min(shape[0], start + rows)
        if grid.cyclic[0]:  # wrap the halo around, then every kept row sees its true neighbours
            index, first = np.arange(start - halo, stop + halo) % shape[0], halo
        else:  # clip the halo at the ends, where the one-sided stencils are the right ones
            lo, hi = max(0, start - halo), min(shape[0], stop + halo)
            if hi - lo < width:  # a short last chunk: borrow more rows from before it
                lo = max(0, hi - width)
            index = np.arange(lo, hi)
            first = start - lo
        d0 = derivative(F[index], 0, grid.spacing[0], False, order)[first : first + stop - start]
        block = F[start:stop]
        partials = [d0] + [derivative(block, k, grid.spacing[k], grid.cyclic[k], order) for k in range(1, n)]
        J = np.stack(partials, axis=-1)
        g[start:stop] = np.einsum("...di,...dj->...ij", J, J)
    return g


def volume_element(g: np.ndarray) -> np.ndarray:
    return np.sqrt(np.clip(np.linalg.det(g), 0, None))


def total_volume(g: np.ndarray, grid: Grid, order: int = 4) -> float:
    """Integral of the volume element (degenerate points included: it tends to 0 there)."""
    return integrate(volume_element(g), grid, order)


def regular(g: np.ndarray) -> np.ndarray:
    """True where the metric is invertible to working precision (see :data:`DEGENERATE`)."""
    eigenvalues = np.linalg.eigvalsh(g)
    return (eigenvalues[..., -1] > 0) & (eigenvalues[..., 0] > DEGENERATE * eigenvalues[..., -1])


def inverse_metric(g: np.ndarray) -> np.ndarray:
    """``g^{-1}``, NaN at degenerate points."""
    ok = regular(g)
    inverse = np.full_like(g, np.nan)
    inverse[ok] = np.linalg.inv(g[ok])
    return inverse


def _partials(field: np.ndarray, grid: Grid, order: int) -> np.ndarray:
    """``d_k field`` stacked on a new axis right after the grid axes."""
    return np.stack(
        [derivative(field, k, grid.spacing[k], grid.cyclic[k], order) for k in range(grid.dim)], axis=grid.dim
    )


def christoffel_first_kind(g: np.ndarray, grid: Grid, order: int = 4) -> np.ndarray:
    """``L[..., l, i, j] = Gamma_{l,ij} = (d_i g_jl + d_j g_il - d_l g_ij) / 2``."""
    dg = _partials(g, grid, order)  # [..., l, i, j] = d_l g_ij
    return 0.5 * (np.einsum("...ijl->...lij", dg) + np.einsum("...jil->...lij", dg) - dg)


def ricci(g: np.ndarray, grid: Grid, order: int = 4, inverse: np.ndarray | None = None) -> np.ndarray:
    """Ricci tensor ``Ric[..., b, d] = g^{ac} R_{abcd}`` (NaN at degenerate points), from the lowered Riemann
    tensor ``R_{abcd} = d_c L_{a,db} - d_d L_{a,cb} + Gamma^e_{cb} L_{e,da} - Gamma^e_{db} L_{e,ca}`` (the
    convention above with the first index lowered; only first-kind symbols are differentiated). ``inverse``:
    :func:`inverse_metric` of ``g`` when the caller has it already."""
    inverse = inverse_metric(g) if inverse is None else inverse
    L = christoffel_first_kind(g, grid, order)
    dL = _partials(L, grid, order)  # [..., m, l, i, j] = d_m L_{l,ij}
    n = g.shape[-1]
    U = (inverse @ L.reshape(*L.shape[:-2], n * n)).reshape(L.shape)  # Gamma^e_{xy} = g^{ef} L_{f,xy}
    # the three-operand contractions pairwise (numpy's optimize): O(n^4) per point instead of the naive O(n^5)
    return (
        np.einsum("...ac,...cadb->...bd", inverse, dL, optimize=True)
        - np.einsum("...ac,...dacb->...bd", inverse, dL, optimize=True)
        + np.einsum("...ac,...eda,...ecb->...bd", inverse, L, U, optimize=True)
        - np.einsum("...ac,...eca,...edb->...bd", inverse, L, U, optimize=True)
    )


def scalar_curvature(g: np.ndarray, grid: Grid, order: int = 4) -> np.ndarray:
    """``S`` at every grid point, NaN at degenerate points."""
    inverse = inverse_metric(g)
    return np.einsum("...sn,...sn->...", inverse, ricci(g, grid, order, inverse))


def total_curvature(g: np.ndarray, grid: Grid, order: int = 4) -> float:
    """Integral of ``S sqrt(det g)`` over the regular points (the degenerate ones, excluded, add 0)."""
    density = scalar_curvature(g, grid, order) * volume_element(g)  # NaN exactly at the degenerate points
    return integrate(np.where(np.isnan(density), 0.0, density), grid, order)


def jacobian_at(F: np.ndarray, grid: Grid, index: tuple[int, ...], order: int = 4) -> np.ndarray:
    """``J`` (D, n) at one grid index, from the same stencils (cheap for subsampled reach)."""
    shape = F.shape[:-1]
    columns = []
    for k in range(grid.dim):
        i, n = index[k], shape[k]
        half = order // 2
        if grid.cyclic[k] or half <= i < n - half:
            offsets, weights = zip(*CENTRAL[order].items())
            positions = [(i + o) % n for o in offsets]
        elif i < half:
            weights = EDGE[order][i]
            positions = list(range(weights.size))
        else:
            weights = -EDGE[order][n - 1 - i]
            positions = [n - 1 - j for j in range(weights.size)]
        column = 0.0
        for p, w in zip(positions, weights):
            at = list(index)
            at[k] = p
            column = column + w * F[tuple(at)]
        columns.append(column / grid.spacing[k])
    return np.stack(columns, axis=-1)


def reach_at(x: np.ndarray, J: np.ndarray, points: np.ndarray) -> float:
    """``min_y |y - x|^2 / (2 dist(y - x, T_x))`` over ``points`` (rows), excluding ``x`` itself."""
    Q, _ = np.linalg.qr(J)
    diff = points - x
    sq = np.einsum("md,md->m", diff, diff)
    along = diff @ Q
    normal = np.sqrt(np.clip(sq - np.einsum("mn,mn->m", along, along), 0, None))
    valid = (sq > 1e-24) & (normal > 1e-15 * np.sqrt(sq))
    if not valid.any():
        return float("inf")
    return float(np.min(sq[valid] / (2 * normal[valid])))


def reach(F: np.ndarray, grid: Grid, sample: list[tuple[int, ...]] | None = None, order: int = 4) -> np.ndarray:
    """Local reach ``tau(x)`` at the sampled grid indices (all indices if ``sample`` is None); NaN at a
    degenerate point, where ``J`` does not span a tangent space."""
    points = F.reshape(-1, F.shape[-1])
    sample = list(np.ndindex(F.shape[:-1])) if sample is None else sample
    out = []
    for idx in sample:
        J = jacobian_at(F, grid, idx, order)
        out.append(reach_at(F[idx], J, points) if regular(J.T @ J) else np.nan)
    return np.array(out)
