"""Benchmark of manifold_microscope's scalar curvature: the Ricci contractions as ``geometry.ricci`` does them
(pairwise, numpy's ``optimize``, and a matmul for the raised symbols) against the same formula contracted in one
naive ``einsum`` per term (how ``geometry.py`` did it until 2026-12-05), on toy grids of 2 and 3 dimensions with
known curvature: seconds (best of ``--repeats``), the largest difference between the two, and each one's error
against the exact curvature.

Writes benchmarks/MANIFOLD_CURVATURE.md (seconds on the machine named there).

    python benchmarks/manifold_curvature.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from icml26.common.timing import describe, machine
from icml26.manifold_microscope import geometry, toys

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "MANIFOLD_CURVATURE.md"
CASES = (("torus", {}, 128), ("sphere2", {}, 128), ("sphere3", {}, 32), ("sphere3", {}, 48))


def naive_scalar_curvature(g: np.ndarray, grid, order: int = 4) -> np.ndarray:
    """The reference: the same Ricci formula, every term one einsum without a contraction order."""
    inverse = geometry.inverse_metric(g)
    L = geometry.christoffel_first_kind(g, grid, order)
    dL = geometry._partials(L, grid, order)
    U = np.einsum("...ef,...fxy->...exy", inverse, L)
    ricci = (
        np.einsum("...ac,...cadb->...bd", inverse, dL)
        - np.einsum("...ac,...dacb->...bd", inverse, dL)
        + np.einsum("...ac,...eda,...ecb->...bd", inverse, L, U)
        - np.einsum("...ac,...eca,...edb->...bd", inverse, L, U)
    )
    return np.einsum("...sn,...sn->...", inverse, ricci)


def best(function, repeats: int) -> tuple[float, np.ndarray]:
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for name, options, n in CASES:
        toy = toys.make(name, **options)
        F, grid, exact = toy.on_grid(n)
        g = geometry.metric(F, grid)
        fast_s, fast = best(lambda: geometry.scalar_curvature(g, grid), args.repeats)
        naive_s, naive = best(lambda: naive_scalar_curvature(g, grid), args.repeats)
        interior = tuple(slice(None if c else 2, None if c else -2) for c in grid.cyclic)  # order-4 ends aside
        rows.append(
            f"| {toy.name} | {'x'.join(map(str, g.shape[:-2]))} | {naive_s:.3f} | {fast_s:.3f} | "
            f"{fast_s / naive_s:.2f} | {np.nanmax(np.abs(fast - naive)):.1e} | "
            f"{np.nanmax(np.abs(naive - exact)[interior]):.1e} | {np.nanmax(np.abs(fast - exact)[interior]):.1e} |"
        )
        print(rows[-1], flush=True)
    OUT.write_text(
        "\n".join(
            [
                "# Scalar curvature: pairwise contractions (manifold_microscope)",
                "",
                f"Written by `python benchmarks/manifold_curvature.py` on {describe(machine())}; seconds are the best",
                f"of {args.repeats} runs of `geometry.scalar_curvature` on the whole grid (4th-order differences), the",
                "naive column the same formula with each Ricci term one `einsum` without a contraction order (the",
                "code before 2026-12-05: O(n^5) per point for the three-operand terms, O(n^4) pairwise). Errors",
                "against the exact curvature leave out the two rows at each end of a non-cyclic axis.",
                "",
                "| manifold | grid | naive s | pairwise s | ratio | max difference | naive error | pairwise error |",
                "|---|---|---|---|---|---|---|---|",
                *rows,
                "",
            ]
        )
    )


if __name__ == "__main__":
    main()
