"""Benchmark of manifold_microscope's grid estimators where coordinates are singular, beside the local-PCA
baseline on the same points: a 2-sphere (R = 2 in R^50) on a (theta, phi) grid that includes both poles,
and closed oblate and prolate spheroids.

Writes benchmarks/MANIFOLD_SINGULARITIES.md (errors are exact-answer comparisons; seconds are one run on
the machine named there).

    python benchmarks/manifold_singularities.py [--sizes 300 600] [--baseline-points 400]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from icml26.common.timing import describe, machine
from icml26.manifold_microscope import baselines, geometry, toys
from icml26.manifold_microscope.grid import Grid

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "MANIFOLD_SINGULARITIES.md"
RADIUS, D = 2.0, 50
ANGLES = (1.8, 3.6, 6.0, 12.0)  # degrees from the pole at which the errors are reported


def pole_sphere(n: int) -> tuple[np.ndarray, Grid, np.ndarray]:
    """n x n samples: theta in [0, pi] with both poles, phi cyclic; the theta values."""
    theta, phi = np.linspace(0.0, np.pi, n), np.arange(n) * 2 * np.pi / n
    T, P = np.meshgrid(theta, phi, indexing="ij")
    F = RADIUS * np.stack([np.sin(T) * np.cos(P), np.sin(T) * np.sin(P), np.cos(T)], axis=-1) @ toys.isometry(3, D, 0)
    return F, Grid((theta[1] - theta[0], phi[1] - phi[0]), (False, True)), theta


def sphere_rows(sizes: list[int], baseline_points: int, k: int) -> list[str]:
    exact = 2 / RADIUS**2
    lines = [
        "| grid | order | excluded (rows) | max error, non-excluded | "
        + " | ".join(f"error at {a:g} deg" for a in ANGLES)
        + " | total curvature, rel. error | seconds |",
        "|---" * (6 + len(ANGLES)) + "|",
    ]
    for n in sizes:
        F, grid, theta = pole_sphere(n)
        for order in (2, 4):
            start = time.perf_counter()
            g = geometry.metric(F, grid, order)
            S = geometry.scalar_curvature(g, grid, order)
            total = geometry.total_curvature(g, grid, order)
            seconds = time.perf_counter() - start
            ok = geometry.regular(g)
            rows = sorted({int(r) for r in np.argwhere(~ok)[:, 0]})
            error = np.abs(S - exact)
            at = [float(np.nanmax(error[np.argmin(np.abs(np.degrees(theta) - a))])) for a in ANGLES]
            lines.append(
                f"| {n}x{n} | {order} | {int((~ok).sum())} ({', '.join(map(str, rows))}) | "
                f"{np.nanmax(error):.2e} | "
                + " | ".join(f"{e:.2e}" for e in at)
                + f" | {abs(total - 8 * np.pi) / (8 * np.pi):.1e} | {seconds:.1f} |"
            )
            print(lines[-1], flush=True)
    F, _, theta = pole_sphere(sizes[0])
    X = F.reshape(-1, D)
    rng = np.random.default_rng(0)
    chosen = rng.choice(len(X), size=min(baseline_points, len(X)), replace=False)
    near = np.flatnonzero(np.abs(np.degrees(np.repeat(theta, sizes[0]))) < 12.0)  # rows within 12 deg of a pole
    start = time.perf_counter()
    S_pca = baselines.scalar_curvature(X, 2, k)  # every point's neighbourhood among all grid points
    seconds = time.perf_counter() - start
    lines.append(
        f"| {sizes[0]}x{sizes[0]} points, local PCA (k = {k}) | - | 0 | "
        f"{np.max(np.abs(S_pca[chosen] - exact)):.2e} (median {np.median(np.abs(S_pca - exact)):.2e}) | "
        f"within 12 deg of the north pole: max {np.max(np.abs(S_pca[near] - exact)):.2e} | | | | - | "
        f"{seconds:.1f} |"
    )
    print(lines[-1], flush=True)
    return lines


def spheroid_rows(n: int) -> list[str]:
    lines = [
        "| spheroid | grid | excluded | area, rel. error | total curvature (8 pi), rel. error | reach (exact 0.5) |",
        "|---|---|---|---|---|---|",
    ]
    for a, b, name in ((2.0, 1.0, "oblate a = 2, b = 1"), (1.0, 2.0, "prolate a = 1, b = 2")):
        toy = toys.spheroid(a, b, margin=0.0, D=D)
        F, grid, _ = toy.on_grid(n)
        g = geometry.metric(F, grid)
        sample = [(i, j) for i in range(0, n, max(1, n // 40)) for j in (0, n // 3)] + [(1, 0), (n - 2, 0)]
        tau = geometry.reach(F, grid, sample)
        lines.append(
            f"| {name} | {n}x{2 * n} | {int((~geometry.regular(g)).sum())} | "
            f"{abs(geometry.total_volume(g, grid) - toy.volume) / toy.volume:.1e} | "
            f"{abs(geometry.total_curvature(g, grid) - 8 * np.pi) / (8 * np.pi):.1e} | {np.nanmin(tau):.4f} |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 600])
    parser.add_argument("--baseline-points", type=int, default=400)
    parser.add_argument("--k", type=int, default=30)
    args = parser.parse_args()
    text = [
        "# Grid estimators at coordinate singularities (manifold_microscope)",
        "",
        f"Written by `python benchmarks/manifold_singularities.py` on {describe(machine())}. Exact answers: scalar",
        "curvature 2/R^2 = 0.5, total curvature 8 pi (Gauss-Bonnet), spheroid reach min(b^2/a, a^2/b) = 0.5.",
        "Degenerate points (metric eigenvalue ratio <= 1e-10) are excluded: NaN curvature and reach, totals over",
        "the regular points. Before this formulation (second-kind Christoffel symbols differentiated, order-4",
        "ends, trapezoid ends), issue #20 measured on the same sphere at 300x300 an error of 25 at 1.8 deg and a",
        "total curvature of -5e18; at order 2 the code stopped with numpy's 'Singular matrix'; the closed",
        "spheroids' reach halved with refinement.",
        "",
        "## 2-sphere, R = 2 in R^50, grid through both poles",
        "",
        *sphere_rows(args.sizes, args.baseline_points, args.k),
        "",
        "The local-PCA baseline (the package's general-purpose estimator, `baselines.scalar_curvature`) sees the",
        "same grid points as an unordered sample; its max error is over a random subsample of",
        f"{args.baseline_points} points.",
        "",
        "## Closed spheroids in R^50",
        "",
        *spheroid_rows(args.sizes[0] // 2),
        "",
        "## The paper's reference code",
        "",
        "koulakis/manifold-microscope differentiates first-kind Christoffel symbols and applies the inverse",
        "metric once, as we now do. Issue #20 ran it on CPU on this sphere: curvature error 5.5e-5 down to the",
        "third row from a pole (300x300), per-point volume error 9.2e-5 (ours 6.8e-9 then), curvature max 1.4e-5",
        "away from the poles at 600x600 (ours 7.8e-7 then). It is not run here: the comparison is with the",
        "numbers the issue measured.",
        "",
    ]
    OUT.write_text("\n".join(text))
    print(f"wrote {OUT.relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    main()
