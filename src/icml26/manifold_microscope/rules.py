"""The functions the Snakemake rules of ``workflow/rules/manifold_microscope.smk`` call."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_npz, write_csv, write_json, write_npz

if TYPE_CHECKING:  # annotations only; each rule function imports what it runs
    from .grid import Grid


def estimator_accuracy(
    table: str,
    timing: str,
    *,
    toy: str,
    grid_sizes: list[int],
    D: int,
    order: int,
    reach_samples: int,
    k: int,
    max_baseline_points: int,
    seed: int,
) -> None:
    """Errors of the grid estimators and the baselines against the closed forms, per grid size."""
    from . import accuracy, toys

    manifold = toys.make(toy, D=D, seed=seed)
    rows, seconds = [], []
    for n in grid_sizes:
        points = int(np.prod([len(a) for a in manifold.axes(n)]))
        rng = np.random.default_rng([seed, n])
        fd, t_fd = accuracy.timed(accuracy.grid_errors, manifold, n, reach_samples=reach_samples, rng=rng, order=order)
        base, t_base = accuracy.timed(
            accuracy.baseline_errors,
            manifold,
            min(points, max_baseline_points),
            k=k,
            reach_samples=reach_samples,
            rng=rng,
        )
        excluded = {"finite_difference": fd.pop("excluded_points"), "local_pca": 0}
        for estimator, errors in (("finite_difference", fd), ("local_pca", base)):
            rows += [
                {
                    "toy": toy,
                    "n": n,
                    "points": points,
                    "estimator": estimator,
                    "quantity": q,
                    "relative_error": v,
                    "excluded_points": excluded[estimator],
                }
                for q, v in errors.items()
            ]
        seconds += [
            {"toy": toy, "n": n, "points": points, "estimator": "finite_difference", "seconds": t_fd},
            {"toy": toy, "n": n, "points": points, "estimator": "local_pca", "seconds": t_base},
        ]
        print(f"{toy} n={n} ({points} points): FD {fd} | baseline {base}", flush=True)
    write_csv(table, pd.DataFrame(rows))
    write_csv(timing, pd.DataFrame(seconds))


def dsprites_slice(
    images: str,
    *,
    shape: str,
    n_rotation: int,
    n_x: int,
    x_range: list[float],
    scale: float,
    y: float,
    resolution: int,
    supersample: int,
    blur: float,
    source: list[str] = (),
) -> None:
    """One shape's rotation x position slice: rendered (dSprites-style, the substitution below paper scale), or
    read from DeepMind's dSprites file (``source``, paper scale; :func:`.real.dsprites_slice`). DVC-tracked."""
    from . import classes, dsprites, real

    if source:
        F, axes = real.dsprites_slice(source[0], shape, tuple(x_range), blur)
        print(f"{shape}: {F.shape[0]} x {F.shape[1]} dSprites images from {source[0]}", flush=True)
        spacing = (axes["rotation"][1] - axes["rotation"][0], axes["x"][1] - axes["x"][0])
        write_npz(images, F=F, rotation=axes["rotation"], x=axes["x"], spacing=np.array(spacing))
        return
    axes, grid = classes.slice_axes(shape, n_rotation, n_x, tuple(x_range))
    print(f"{shape}: rendering {n_rotation} x {n_x} images at {resolution}x{resolution}", flush=True)
    F = dsprites.grid_dataset(
        shape, axes, {"scale": scale, "y": y}, resolution=resolution, supersample=supersample, blur=blur
    )
    write_npz(images, F=F, rotation=axes["rotation"], x=axes["x"], spacing=np.array(grid.spacing))


def _write_class_measures(items, key: str, table: str, curvature: str, *, reach_samples: int, order: int) -> None:
    """Measure each ``(name, F, grid, rng)`` at unit total volume: one table row and one curvature field each."""
    from . import classes

    rows, fields = [], []
    for name, F, grid, rng in items:
        values, S = classes.measures(F, grid, reach_samples=reach_samples, rng=rng, order=order)
        rows.append({key: name, **values})
        index = {f"i{axis}": i.ravel() for axis, i in enumerate(np.indices(S.shape))}  # where a NaN (excluded) is
        fields.append(pd.DataFrame({key: name, **index, "scalar_curvature": S.ravel()}))
        print(f"{name}: {values}", flush=True)
    write_csv(table, pd.DataFrame(rows))
    write_csv(curvature, pd.concat(fields, ignore_index=True))


def class_measures(
    slices: list[str], table: str, curvature: str, *, shapes: list[str], reach_samples: int, order: int, seed: int
) -> None:
    """Per-class volume, total curvature, curvature quantiles and reach, at unit total volume."""
    from . import classes, dsprites

    def items():
        for shape, path in zip(shapes, slices):
            data = read_npz(path, "F", "spacing")
            n_rotation, n_x = data["F"].shape[:2]
            _, grid = classes.slice_axes(shape, n_rotation, n_x, (0.0, 1.0))
            grid = type(grid)(tuple(float(h) for h in data["spacing"]), grid.cyclic)
            yield shape, data["F"], grid, np.random.default_rng([seed, dsprites.SHAPES.index(shape)])

    _write_class_measures(items(), "shape", table, curvature, reach_samples=reach_samples, order=order)


def bound_runs(
    table: str, *, toy: str, n: list[int], seeds: list[int], queries: int, k: int, D: int, seed: int
) -> None:
    """One-sided Hausdorff error of the MMLS-style fit against the sample size, per seed."""
    from . import bounds, toys

    manifold = toys.make(toy, D=D, seed=seed)
    rows = []
    for size in n:
        for s in seeds:
            error = bounds.hausdorff_error(manifold, size, queries=queries, k=k, rng=np.random.default_rng([s, size]))
            rows.append({"toy": toy, "d": manifold.dim, "n": size, "seed": s, "error": error})
        print(f"{toy} n={size}: mean error {np.mean([r['error'] for r in rows[-len(seeds) :]]):.3g}", flush=True)
    write_csv(table, pd.DataFrame(rows))


def bound_runs_dsprites(
    table: str,
    *,
    d: int,
    shape: str,
    n: list[int],
    seeds: list[int],
    queries: int,
    k: int,
    position_range: list[float],
    scale: float,
    resolution: int,
    supersample: int,
    blur: float,
) -> None:
    """The same study on a d-dimensional dSprites-style slice (rotation, x, y), rendered at random latents."""
    from . import bounds, dsprites

    sprite = dsprites.RandomSlice(
        shape,
        d,
        tuple(position_range),
        {"scale": scale, "y": 0.5, "x": 0.5},
        resolution=resolution,
        supersample=supersample,
        blur=blur,
    )
    name = f"dsprites_{shape}_d{d}"
    rows = []
    for size in n:
        for s in seeds:
            error = bounds.hausdorff_error(sprite, size, queries=queries, k=k, rng=np.random.default_rng([s, size, d]))
            rows.append({"toy": name, "d": d, "n": size, "seed": s, "error": error})
        print(f"{name} n={size}: mean error {np.mean([r['error'] for r in rows[-len(seeds) :]]):.3g}", flush=True)
    write_csv(table, pd.DataFrame(rows))


def bound_table(runs: list[str], errors: str, table: str) -> None:
    """All runs, and per toy the fitted slope next to the rates' exponents and the envelope fit."""
    from . import bounds

    frame = read_csvs(runs)
    write_csv(errors, frame)
    write_csv(
        table,
        pd.DataFrame(
            [
                {"toy": toy, "d": int(g["d"].iloc[0]), **bounds.envelopes(g, int(g["d"].iloc[0]))}
                for toy, g in frame.groupby("toy", sort=True)
            ]
        ),
    )


def _pooled_slice(path: str, shape: str, pool: int) -> tuple[np.ndarray, Grid]:
    """A rendered slice's images, average-pooled ``pool x pool``, and its grid."""
    from . import classes

    data = read_npz(path, "F", "spacing")
    F = data["F"]
    side = int(round(np.sqrt(F.shape[-1])))
    if pool > 1:
        if side % pool:
            raise ValueError(f"{path}: {side}x{side} images cannot be pooled by {pool}")
        F = F.reshape(*F.shape[:-1], side // pool, pool, side // pool, pool).mean(axis=(-3, -1))
        F = F.reshape(*F.shape[:-2], -1)
    _, grid = classes.slice_axes(shape, F.shape[0], F.shape[1], (0.0, 1.0))
    return F, type(grid)(tuple(float(h) for h in data["spacing"]), grid.cyclic)


def turntable_object(
    images: str,
    poses: list[str] = (),
    *,
    index: int,
    n_pose: int,
    n_roll: int,
    size: float,
    resolution: int,
    supersample: int,
    blur: float,
    seed: int,
    folder: str | None = None,
) -> None:
    """One object over pose x roll: a COIL-20 stand-in rendered here (the substitution below paper scale), or
    Columbia's COIL-20 object ``index + 1`` from ``folder`` (paper scale; :func:`.real.coil_object`: its 72 poses,
    our in-plane roll). DVC-tracked."""
    from . import real, turntable

    if folder:
        F = real.coil_object(folder, index + 1, n_roll, resolution)
        print(f"COIL-20 object {index + 1}: {F.shape[0]} poses x {n_roll} rolls at {resolution}x{resolution}")
        write_npz(images, F=F, spacing=np.array([2 * np.pi / F.shape[0], 2 * np.pi / n_roll]))
        return
    F = turntable.grid_dataset(
        turntable.make_object(index, seed),
        n_pose,
        n_roll,
        size,
        resolution=resolution,
        supersample=supersample,
        blur=blur,
    )
    print(f"object {index}: {n_pose} x {n_roll} images at {resolution}x{resolution}", flush=True)
    write_npz(images, F=F, spacing=np.array([2 * np.pi / n_pose, 2 * np.pi / n_roll]))


def turntable_measures(
    objects: list[str], table: str, curvature: str, *, reach_samples: int, order: int, seed: int
) -> None:
    """Per-object volume, total curvature, curvature quantiles and reach at unit total volume."""
    from .grid import Grid

    def items():
        for i, path in enumerate(objects):
            data = read_npz(path, "F", "spacing")
            grid = Grid(tuple(float(h) for h in data["spacing"]), (True, True))
            yield f"obj{i + 1:02d}", data["F"], grid, np.random.default_rng([seed, i])

    _write_class_measures(items(), "object", table, curvature, reach_samples=reach_samples, order=order)


def vae_train(
    slices: list[str],
    weights: str,
    losses: str,
    timing: str,
    *,
    shapes: list[str],
    pool: int,
    hidden: list[int],
    latent: int,
    iterations: int,
    checkpoint_iterations: list[int],
    batch: int,
    lr: float,
    gamma: float,
    capacity: float,
    capacity_iterations: int,
    seed: int,
    device: str,
    architecture: str = "mlp",
) -> None:
    """Train the beta-VAE (``architecture``: the MLP, or the reference's convolutional BetaVAE_B) on every shape's
    slice; keep the weights at the checkpoints (DVC-tracked)."""
    import torch  # noqa: F401  (loaded before seeding so that torch is seeded too)

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import vae

    seed_everything(seed)
    where = resolve_device(device)
    pooled = [_pooled_slice(p, s, pool)[0] for s, p in zip(shapes, slices)]
    images = np.concatenate([F.reshape(-1, F.shape[-1]) for F in pooled])
    print(f"beta-VAE on {len(images)} images of {images.shape[1]} pixels, device {where}", flush=True)
    states, log = vae.train(
        images,
        hidden=hidden,
        latent=latent,
        iterations=iterations,
        checkpoints=checkpoint_iterations,
        batch=batch,
        lr=lr,
        gamma=gamma,
        capacity=capacity,
        capacity_iterations=capacity_iterations,
        seed=seed,
        device=where,
        architecture=architecture,
    )
    write_npz(
        weights, **{f"{it}/{name}": value.numpy() for it, state in states.items() for name, value in state.items()}
    )
    frame = pd.DataFrame(log)
    write_csv(losses, frame.drop(columns="seconds"))
    write_csv(
        timing,
        pd.DataFrame(
            [
                {
                    "iterations": iterations,
                    "device": where,
                    "seconds": frame["seconds"].iloc[-1],
                    "seconds_per_iteration": frame["seconds"].iloc[-1] / max(frame["iteration"].iloc[-1], 1),
                }
            ]
        ),
    )


def _states(weights: str) -> dict[int, dict]:
    import torch

    with np.load(weights) as data:
        states: dict[int, dict] = {}
        for key in data.files:
            it, name = key.split("/", 1)
            states.setdefault(int(it), {})[name] = torch.as_tensor(data[key])
    return states


def vae_geometry(
    slices: list[str],
    weights: str,
    table: str,
    *,
    shapes: list[str],
    pool: int,
    hidden: list[int],
    latent: int,
    reach_samples: int,
    order: int,
    seed: int,
    architecture: str = "mlp",
) -> None:
    """Volume, curvature and reach of every layer's map of each shape's grid, at every checkpoint."""
    from . import classes, dsprites, vae

    rows = []
    for it, state in sorted(_states(weights).items()):
        for shape, path in zip(shapes, slices):
            F, grid = _pooled_slice(path, shape, pool)
            maps = vae.layer_maps(state, F, hidden=hidden, latent=latent, architecture=architecture)
            for depth, (layer, values) in enumerate(maps.items()):
                m, S = classes.measures(
                    values,
                    grid,
                    reach_samples=reach_samples,
                    order=order,
                    rng=np.random.default_rng([seed, dsprites.SHAPES.index(shape), depth]),
                )
                rows.append(
                    {
                        "iteration": it,
                        "shape": shape,
                        "layer": layer,
                        "depth": depth,
                        "abs_curvature_median": float(np.nanmedian(np.abs(S))),
                        **m,
                    }
                )
        print(f"checkpoint {it}: measured {len(vae.LAYERS)} layers x {len(shapes)} shapes", flush=True)
    write_csv(table, pd.DataFrame(rows))


def intrinsic_dimension(
    table: str, *, toys_: list[str], grid_sizes: dict, points: list[int], D: int, order: int, seed: int
) -> None:
    """The grid's metric rank against scikit-dimension's estimators on random samples, per toy."""
    from . import dimension, toys

    frames = []
    for name in toys_:
        frame = dimension.table(toys.make(name, D=D, seed=seed), name, min(grid_sizes[name]), points, seed, order)
        print(frame.to_string(index=False), flush=True)
        frames.append(frame)
    write_csv(table, pd.concat(frames, ignore_index=True))


def accuracy_table(tables: list[str], table: str) -> None:
    write_csv(table, read_csvs(tables))


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Seconds per estimator run (a benchmark record: it varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    write_csv(summary, read_csvs(timings))


def figures(
    accuracy_table: str,
    dsprites_curvature: str,
    bound_errors: str,
    bound_table: str,
    vae_table: str,
    turntable_curvature: str,
    **outputs: str,
) -> None:
    """Estimator errors against grid size (estimator_accuracy), curvature per dSprites class
    (dsprites_classes), bound errors against sample size (bound_scaling), geometry per VAE layer
    (vae_layers) and curvature per turntable object (turntable_classes)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.estimator_accuracy(read_csv(accuracy_table)), *paths("estimator_accuracy"))
        save_figure(plots.class_curvature(read_csv(dsprites_curvature)), *paths("dsprites_classes"))
        save_figure(plots.bound_scaling(read_csv(bound_errors), read_csv(bound_table)), *paths("bound_scaling"))
        save_figure(plots.vae_layers(read_csv(vae_table)), *paths("vae_layers"))
        save_figure(
            plots.class_curvature(
                read_csv(turntable_curvature),
                key="object",
                title="COIL-20 stand-in (procedurally rendered): pose x in-plane rotation",
            ),
            *paths("turntable_classes"),
        )


def verdict(
    table: str, classes: str, bound_table: str, vae_table: str, claims: str, metrics: str, *, substitution: str
) -> None:
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    frame, per_class, scaling, layers = read_csv(table), read_csv(classes), read_csv(bound_table), read_csv(vae_table)
    judged = [
        verdicts.estimators_recover_toy_geometry(frame),
        verdicts.hausdorff_between_envelopes(scaling),
        verdicts.vae_layer_geometry(layers),
    ]
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    write_json(
        metrics,
        {
            "estimator_relative_error": {
                f"{r.toy}/n={r.n}/{r.estimator}/{r.quantity}": r.relative_error for r in frame.itertuples()
            },
            "bound_scaling": {r["toy"]: {k: v for k, v in r.items() if k != "toy"} for r in scaling.to_dict("records")},
            "dsprites_classes": {
                r["shape"]: {k: v for k, v in r.items() if k != "shape"} for r in per_class.to_dict("records")
            },
            "vae_layers": verdicts.layer_profile(layers).to_dict(orient="index"),
        },
    )
