"""The functions the Snakemake rules of ``workflow/rules/completep_rl.smk`` call."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, require, write_csv, write_json, write_npz


def coordinate_check(
    table: str,
    slopes: str,
    *,
    parameterisations: list[str],
    widths: list[int],
    seeds: list[int],
    depth: int,
    steps: int,
    lr: float,
    base_width: int,
) -> None:
    """Feature-update sizes of every layer against width (synthetic regression), and their slopes."""
    from ..common.determinism import seed_everything
    from . import coordinate

    seed_everything(0)
    frame = coordinate.run(
        parameterisations, widths, seeds, depth=depth, steps=steps, lr=lr, base_width=base_width, base_depth=depth
    )
    write_csv(table, frame)
    fitted = coordinate.slopes(frame)
    print(fitted.to_string(index=False), flush=True)
    write_csv(slopes, fitted)


def train_runs(
    runs: list[str],
    timing: str,
    *,
    task: str,
    parameterisation: str,
    width: int,
    lrs: list[float],
    seeds: list[int],
    ppo_settings: dict,
    device: str,
) -> None:
    """PPO runs of one (task, parameterisation, width): one file per learning rate (``runs[i]`` for ``lrs[i]``),
    one run per seed in each. Every run seeds itself, so grouping the learning rates changes no number."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import ppo, sweeps

    if len(runs) != len(lrs):
        raise ValueError(f"train_runs: {len(runs)} output files for {len(lrs)} learning rates")
    seed_everything(seeds[0])
    where = resolve_device(device)
    cfg = ppo.PPOConfig(**ppo_settings)
    probes = ppo.probe_observations(task, cfg.probes)
    rows = []
    for path, lr in zip(runs, lrs):
        arrays = {}
        for seed in seeds:
            out = ppo.train(task, parameterisation, width, lr, seed, cfg, probes, device=where)
            arrays.update(
                {
                    f"{seed}/curve": out["curve"],
                    f"{seed}/episodes": out["episodes"],
                    f"{seed}/probe_probs": out["probe_probs"],
                    f"{seed}/gram": out["gram"],
                }
            )
            arrays["steps"] = out["steps"]
            rows.append(
                {
                    "task": task,
                    "parameterisation": parameterisation,
                    "width": width,
                    "lr": lr,
                    "seed": seed,
                    "seconds": out["seconds"],
                    "seconds_per_step": out["seconds"] / out["steps"][-1],
                }
            )
            final = sweeps.run_row(out["curve"], out["episodes"])["final_return"]
            print(
                f"{task} {parameterisation} width {width} lr {lr:g} seed {seed}: final return {final:.1f} "
                f"({out['seconds']:.1f} s)",
                flush=True,
            )
            arrays[f"{seed}/flops"] = np.array(out["flops"])
        write_npz(path, **arrays)
    write_csv(timing, pd.DataFrame(rows))


def _key(path: str) -> tuple[str, str, int, float]:
    """``.../runs/<task>/<param>/w<width>_lr<lr>.npz`` -> (task, param, width, lr)."""
    parts = path.replace("\\", "/").split("/")
    width, lr = parts[-1].removesuffix(".npz").split("_lr")
    return parts[-3], parts[-2], int(width.removeprefix("w")), float(lr)


def summarise(
    runs: list[str],
    table: str,
    optimum: str,
    transfer: str,
    efficiency: str,
    consistency: str,
    curves: str,
    *,
    lrs: list[float],
    base_width: int,
) -> None:
    from . import sweeps

    rows, probes, curve_rows = [], {}, []
    for path in runs:
        require(path)
        task, param, width, lr = _key(path)
        with np.load(path) as data:
            seeds = sorted({int(k.split("/")[0]) for k in data.files if "/" in k})
            steps = data["steps"]
            for seed in seeds:
                curve = data[f"{seed}/curve"]
                rows.append(
                    {
                        "task": task,
                        "parameterisation": param,
                        "width": width,
                        "lr": lr,
                        "seed": seed,
                        "flops": float(np.ravel(data[f"{seed}/flops"])[0]),
                        **sweeps.run_row(curve, data[f"{seed}/episodes"]),
                    }
                )
                probes[(task, param, width, lr, seed)] = (data[f"{seed}/probe_probs"], data[f"{seed}/gram"])
                curve_rows += [
                    {
                        "task": task,
                        "parameterisation": param,
                        "width": width,
                        "lr": lr,
                        "seed": seed,
                        "steps": int(s),
                        "return": float(r),
                    }
                    for s, r in zip(steps, curve)
                ]
    frame = pd.DataFrame(rows).sort_values(["task", "parameterisation", "width", "lr", "seed"]).reset_index(drop=True)
    unfinished = frame[frame["final_return"].isna()]
    if len(unfinished):  # averaging over the other seeds would silently favour this learning rate
        first = unfinished.iloc[0]
        raise ValueError(
            f"{len(unfinished)} run(s) finished no episode, e.g. {first.task} {first.parameterisation} "
            f"width {first.width} lr {first.lr:g} seed {first.seed}: raise completep_rl.ppo.total_steps"
        )
    write_csv(table, frame)
    best = sweeps.optimal_lr(frame, lrs)
    write_csv(optimum, best)
    write_csv(transfer, sweeps.transfer(best))
    write_csv(efficiency, sweeps.efficiency(frame))
    write_csv(consistency, sweeps.consistency(best, probes, base_width))
    write_csv(curves, pd.DataFrame(curve_rows))


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Seconds per environment step per (task, parameterisation, width) (varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    frame = read_csvs(timings)
    write_csv(
        summary,
        frame.groupby(["task", "parameterisation", "width"], sort=True)[["seconds", "seconds_per_step"]]
        .mean()
        .reset_index(),
    )


def figures(coordinate: str, runs_table: str, curves: str, efficiency: str, consistency: str, **outputs: str) -> None:
    """Feature-update sizes against width (coordinate_check), final return against learning rate per width
    (lr_transfer), return against training FLOPs (efficiency) and agreement with the base width
    (consistency)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.coordinate_check(read_csv(coordinate)), *paths("coordinate_check"))
        save_figure(plots.lr_transfer(read_csv(runs_table)), *paths("lr_transfer"))
        save_figure(plots.efficiency(read_csv(curves), read_csv(efficiency)), *paths("efficiency"))
        save_figure(plots.consistency(read_csv(consistency)), *paths("consistency"))


def verdict(
    slopes: str,
    transfer: str,
    optimum: str,
    efficiency: str,
    consistency: str,
    runs_table: str,
    claims: str,
    metrics: str,
    *,
    lrs: list[float],
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import sweeps
    from . import verdict as verdicts

    sl, tr, opt, eff, con, runs = (
        read_csv(p) for p in (slopes, transfer, optimum, efficiency, consistency, runs_table)
    )
    write_claims(
        claims,
        [
            verdicts.lr_transfers(tr, opt, sweeps.shift_without_each_seed(runs, lrs)),
            verdicts.completep_more_efficient(eff, sweeps.efficiency_per_seed(runs)),
            verdicts.coordinate_check_flat(sl),
        ],
        substitution=substitution,
    )
    write_json(metrics, verdicts.metrics(sl, tr, opt, eff, con))
