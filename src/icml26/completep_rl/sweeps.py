"""Summaries of the width x learning-rate x seed sweep: transfer, efficiency, consistency.

Definitions (ours; the spec names the measurements, not the formulas):

- a run's *final return* is the mean return of its last ``FINAL_EPISODES`` finished episodes (all of
  them if fewer finished); its *AUC* the mean of the learning curve over all rollouts (reward
  efficiency: area under the return-vs-steps curve). Counting episodes rather than rollouts matters:
  a rollout window can end no episode at all, both for a failing Acrobot agent (500-step episodes) and
  for a CartPole agent that balances to the time limit, and dropping such runs would bias the mean;
- the *optimal learning rate* of (task, parameterisation, width) maximises the mean final return over
  seeds; its *shift* across widths is (largest - smallest grid index of the optimum), in grid steps;
- *efficiency* at one width is the best AUC over the learning rates (mean over seeds); compute is
  the analytic FLOP count, identical across parameterisations at equal width and steps;
- *consistency* at each width, against the base width, both at their own optimal learning rate and
  the same seed: linear CKA of the actor's last hidden features on fixed probe states, and the
  agreement of the greedy actions (continuous tasks: the share of probe states where every mean action,
  in [-1, 1] units, is within ``CONTINUOUS_AGREEMENT`` of the base width's).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .ppo import is_continuous

CONTINUOUS_AGREEMENT = 0.1
FINAL_EPISODES = 16  # a fixed window (at quick and paper scale one episode per parallel environment)


def run_row(curve: np.ndarray, episodes: np.ndarray) -> dict:
    """Final return and AUC of one run; NaN only if it finished no episode (see ``summarise``)."""
    return {
        "final_return": float(np.mean(episodes[-FINAL_EPISODES:])) if len(episodes) else np.nan,
        "auc": float(np.nanmean(curve)) if np.isfinite(curve).any() else np.nan,
    }


def optimal_lr(runs: pd.DataFrame, lrs: list[float]) -> pd.DataFrame:
    mean = runs.groupby(["task", "parameterisation", "width", "lr"], sort=True)["final_return"].mean().reset_index()
    best = mean.loc[mean.groupby(["task", "parameterisation", "width"], sort=True)["final_return"].idxmax()]
    best = best.rename(columns={"lr": "optimal_lr", "final_return": "best_final_return"})
    best["grid_index"] = [int(np.argmin(np.abs(np.log(lrs) - np.log(v)))) for v in best["optimal_lr"]]
    # an optimum on the grid's edge is censored: the true optimum may lie beyond it, hiding a shift
    best["at_grid_edge"] = best["grid_index"].isin([0, len(lrs) - 1])
    return best.reset_index(drop=True)


def transfer(optimum: pd.DataFrame) -> pd.DataFrame:
    g = optimum.groupby(["task", "parameterisation"], sort=True)["grid_index"]
    return pd.DataFrame({"shift": g.max() - g.min(), "widths": g.size()}).reset_index()


def efficiency(runs: pd.DataFrame) -> pd.DataFrame:
    mean = runs.groupby(["task", "parameterisation", "width", "lr"], sort=True)[["auc", "flops"]].mean().reset_index()
    best = mean.loc[mean.groupby(["task", "parameterisation", "width"], sort=True)["auc"].idxmax()]
    return best.rename(columns={"lr": "best_lr_by_auc", "auc": "best_auc"}).reset_index(drop=True)


def shift_without_each_seed(runs: pd.DataFrame, lrs: list[float]) -> pd.DataFrame:
    """The optimum's shift across widths recomputed with each seed left out in turn, one row per (task,
    parameterisation, left-out seed): how far the argmax over a few seeds' mean moves with one seed."""
    seeds = sorted(runs["seed"].unique())
    if len(seeds) < 2:
        return pd.DataFrame(columns=["task", "parameterisation", "shift", "widths", "left_out"])
    frames = [transfer(optimal_lr(runs[runs["seed"] != s], lrs)).assign(left_out=s) for s in seeds]
    return pd.concat(frames, ignore_index=True)


def efficiency_per_seed(runs: pd.DataFrame) -> pd.DataFrame:
    """Each seed's AUC at every width's best learning rate by AUC (chosen on the seed mean, as in
    :func:`efficiency`), averaged over the widths: one row per (task, parameterisation, seed), the
    replicates an interval on the efficiency claim is formed from."""
    best = efficiency(runs)[["task", "parameterisation", "width", "best_lr_by_auc"]]
    at_best = runs.merge(best, on=["task", "parameterisation", "width"])
    at_best = at_best[np.isclose(at_best["lr"], at_best["best_lr_by_auc"])]
    return at_best.groupby(["task", "parameterisation", "seed"], sort=True)["auc"].mean().reset_index()


def linear_cka(gram_a: np.ndarray, gram_b: np.ndarray) -> float:
    """Linear CKA from centred Gram matrices: <Ka, Kb>_F / (||Ka||_F ||Kb||_F)."""
    return float((gram_a * gram_b).sum() / (np.linalg.norm(gram_a) * np.linalg.norm(gram_b)))


def action_agreement(a: np.ndarray, b: np.ndarray, continuous: bool) -> float:
    """Share of probe states where two policies act alike (same greedy action / mean actions close)."""
    if continuous:
        return float((np.abs(a - b).max(axis=1) <= CONTINUOUS_AGREEMENT).mean())
    return float((a.argmax(1) == b.argmax(1)).mean())


def consistency(optimum: pd.DataFrame, probes: dict, base_width: int) -> pd.DataFrame:
    """``probes[(task, param, width, lr, seed)] = (probs, gram)``; rows per (task, param, width, seed)."""
    rows = []
    for (task, param), g in optimum.groupby(["task", "parameterisation"], sort=True):
        lr_at = dict(zip(g["width"], g["optimal_lr"]))
        if base_width not in lr_at:
            continue
        seeds = sorted({k[4] for k in probes if k[:2] == (task, param)})
        for width, lr in lr_at.items():
            for seed in seeds:
                base = probes.get((task, param, base_width, lr_at[base_width], seed))
                other = probes.get((task, param, width, lr, seed))
                if base is None or other is None:
                    continue
                rows.append(
                    {
                        "task": task,
                        "parameterisation": param,
                        "width": width,
                        "seed": seed,
                        "cka_to_base": linear_cka(base[1], other[1]),
                        "action_agreement": action_agreement(base[0], other[0], is_continuous(task)),
                    }
                )
    return pd.DataFrame(rows)
