"""The functions the Snakemake rules of ``workflow/rules/manifold_microscope.smk`` call."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.claims import write_claims
from ..common.figures import save_figure
from ..common.io import read_csv, read_csvs, read_npz, write_csv, write_json, write_npz
from . import accuracy, bounds, classes, dsprites, plots, toys
from . import verdict as verdicts


def estimator_accuracy(table: str, timing: str, *, toy: str, grid_sizes: list[int], D: int, order: int,
                       reach_samples: int, k: int, max_baseline_points: int, seed: int) -> None:
    """Errors of the grid estimators and the baselines against the closed forms, per grid size."""
    manifold = toys.make(toy, D=D, seed=seed)
    rows, seconds = [], []
    for n in grid_sizes:
        points = int(np.prod([len(a) for a in manifold.axes(n)]))
        rng = np.random.default_rng([seed, n])
        fd, t_fd = accuracy.timed(accuracy.grid_errors, manifold, n, reach_samples=reach_samples, rng=rng,
                                  order=order)
        base, t_base = accuracy.timed(accuracy.baseline_errors, manifold, min(points, max_baseline_points), k=k,
                                      reach_samples=reach_samples, rng=rng)
        for estimator, errors in (("finite_difference", fd), ("local_pca", base)):
            rows += [{"toy": toy, "n": n, "points": points, "estimator": estimator, "quantity": q,
                      "relative_error": v} for q, v in errors.items()]
        seconds += [{"toy": toy, "n": n, "points": points, "estimator": "finite_difference", "seconds": t_fd},
                    {"toy": toy, "n": n, "points": points, "estimator": "local_pca", "seconds": t_base}]
        print(f"{toy} n={n} ({points} points): FD {fd} | baseline {base}", flush=True)
    write_csv(table, pd.DataFrame(rows))
    write_csv(timing, pd.DataFrame(seconds))


def dsprites_slice(images: str, *, shape: str, n_rotation: int, n_x: int, x_range: list[float], scale: float,
                   y: float, resolution: int, supersample: int, blur: float) -> None:
    """Render one shape's rotation x position slice (dSprites-style, procedurally rendered; DVC-tracked)."""
    axes, grid = classes.slice_axes(shape, n_rotation, n_x, tuple(x_range))
    print(f"{shape}: rendering {n_rotation} x {n_x} images at {resolution}x{resolution}", flush=True)
    F = dsprites.grid_dataset(shape, axes, {"scale": scale, "y": y}, resolution=resolution,
                              supersample=supersample, blur=blur)
    write_npz(images, F=F, rotation=axes["rotation"], x=axes["x"], spacing=np.array(grid.spacing))


def class_measures(slices: list[str], table: str, curvature: str, *, shapes: list[str], reach_samples: int,
                   order: int, seed: int) -> None:
    """Per-class volume, total curvature, curvature quantiles and reach, at unit total volume."""
    rows, fields = [], []
    for shape, path in zip(shapes, slices):
        data = read_npz(path, "F", "spacing")
        n_rotation, n_x = data["F"].shape[:2]
        _, grid = classes.slice_axes(shape, n_rotation, n_x, (0.0, 1.0))
        grid = type(grid)(tuple(float(h) for h in data["spacing"]), grid.cyclic)
        values, S = classes.measures(data["F"], grid, reach_samples=reach_samples,
                                     rng=np.random.default_rng([seed, dsprites.SHAPES.index(shape)]), order=order)
        rows.append({"shape": shape, **values})
        fields.append(pd.DataFrame({"shape": shape, "scalar_curvature": S.ravel()}))
        print(f"{shape}: {values}", flush=True)
    write_csv(table, pd.DataFrame(rows))
    write_csv(curvature, pd.concat(fields, ignore_index=True))


def figure_classes(curvature: str, png: str, pdf: str) -> None:
    save_figure(plots.class_curvature(read_csv(curvature)), png, pdf)


def bound_runs(table: str, *, toy: str, n: list[int], seeds: list[int], queries: int, k: int, D: int,
               seed: int) -> None:
    """One-sided Hausdorff error of the MMLS-style fit against the sample size, per seed."""
    manifold = toys.make(toy, D=D, seed=seed)
    rows = []
    for size in n:
        for s in seeds:
            error = bounds.hausdorff_error(manifold, size, queries=queries, k=k, rng=np.random.default_rng([s, size]))
            rows.append({"toy": toy, "d": manifold.dim, "n": size, "seed": s, "error": error})
        print(f"{toy} n={size}: mean error {np.mean([r['error'] for r in rows[-len(seeds):]]):.3g}", flush=True)
    write_csv(table, pd.DataFrame(rows))


def bound_table(runs: list[str], errors: str, table: str) -> None:
    """All runs, and per toy the fitted slope next to the rates' exponents and the envelope fit."""
    frame = read_csvs(runs)
    write_csv(errors, frame)
    write_csv(table, pd.DataFrame([{"toy": toy, "d": int(g["d"].iloc[0]), **bounds.envelopes(g, int(g["d"].iloc[0]))}
                                   for toy, g in frame.groupby("toy", sort=True)]))


def figure_bounds(errors: str, table: str, png: str, pdf: str) -> None:
    save_figure(plots.bound_scaling(read_csv(errors), read_csv(table)), png, pdf)


def accuracy_table(tables: list[str], table: str) -> None:
    write_csv(table, read_csvs(tables))


def timing(timings: list[str], summary: str) -> None:
    """Seconds per estimator run (a benchmark record: it varies run to run)."""
    write_csv(summary, read_csvs(timings))


def figure_accuracy(table: str, png: str, pdf: str) -> None:
    save_figure(plots.estimator_accuracy(read_csv(table), verdicts.TOLERANCE), png, pdf)


def verdict(table: str, classes: str, bound_table: str, claims: str, metrics: str) -> None:
    frame, per_class, scaling = read_csv(table), read_csv(classes), read_csv(bound_table)
    judged = [verdicts.estimators_recover_toy_geometry(frame), verdicts.hausdorff_between_envelopes(scaling),
              *verdicts.PENDING]
    for claim in judged:
        print(f"{claim.id}: {claim.holds} -- {claim.measured}", flush=True)
    write_claims(claims, judged)
    write_json(metrics, {
        "estimator_relative_error": {f"{r.toy}/n={r.n}/{r.estimator}/{r.quantity}": r.relative_error
                                     for r in frame.itertuples()},
        "bound_scaling": {r["toy"]: {k: v for k, v in r.items() if k != "toy"} for r in scaling.to_dict("records")},
        "dsprites_classes": {r["shape"]: {k: v for k, v in r.items() if k != "shape"}
                             for r in per_class.to_dict("records")},
    })
