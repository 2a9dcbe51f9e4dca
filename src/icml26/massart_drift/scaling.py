"""Window sweeps in the exact 2-D setting and log-log scaling fits.

For every drift rate ``Delta`` and window ``W`` the steady-state excess error is
averaged over ``reps`` independent windows (``circle.windows``); the best window
``W*`` and its excess are read off per seed, and slopes of ``log min-excess``
and ``log W*`` against ``log Delta`` are fitted per seed. The reported slope is
the mean over seeds with a 95 % Student-t interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from . import circle, geometry

# learner name -> (hypothesis function, noise rate used in the 2-D setting)
SETTINGS = {
    "averaging": ("averaging", "eta"),  # efficient learner under RCN
    "erm": ("erm", "eta"),  # inefficient reference: exact ERM under RCN
    "realizable": ("erm", 0.0),  # realizable adaptation: consistent halfspace, no noise
}


def noise_of(learner: str, eta: float) -> float:
    rate = SETTINGS[learner][1]
    return eta if rate == "eta" else float(rate)


def sweep(
    learner: str, *, Deltas: list[float], windows: list[int], eta: float, reps: int, seeds: list[int]
) -> pd.DataFrame:
    """Mean excess error of ``learner`` for every (seed, Delta, W)."""
    if learner not in SETTINGS:
        raise ValueError(f"unknown learner {learner!r}; expected one of {sorted(SETTINGS)}")
    hypothesis = circle.LEARNERS[SETTINGS[learner][0]]
    noise = noise_of(learner, eta)
    rows = []
    for seed in seeds:
        for i, Delta in enumerate(Deltas):
            delta = geometry.rotation_for_drift(Delta, noise)
            for j, W in enumerate(windows):
                rng = np.random.default_rng([seed, i, j])
                phi, y = circle.windows(rng, reps, int(W), delta, noise)
                excess = geometry.excess_error(hypothesis(phi, y), noise)
                rows.append(
                    {
                        "learner": learner,
                        "seed": seed,
                        "Delta": Delta,
                        "W": int(W),
                        "eta": noise,
                        "excess": excess.mean(),
                        "excess_se": excess.std(ddof=1) / np.sqrt(reps),
                    }
                )
            print(f"{learner}: seed {seed} Delta {Delta:.2e} done", flush=True)
    return pd.DataFrame(rows)


def best_windows(sweeps: pd.DataFrame) -> pd.DataFrame:
    """Per (learner, seed, Delta): the least mean excess over the window grid and its window ``W*``."""
    sweeps = sweeps.reset_index(drop=True)
    idx = sweeps.groupby(["learner", "seed", "Delta"])["excess"].idxmin()
    best = sweeps.loc[idx, ["learner", "seed", "Delta", "W", "excess"]]
    return best.rename(columns={"W": "W_star", "excess": "min_excess"}).reset_index(drop=True)


def loglog_slope(x, y) -> float:
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def slopes(best: pd.DataFrame) -> pd.DataFrame:
    """Fitted log-log slopes per learner: mean over seeds, 95 % t-interval, per-seed values."""
    rows = []
    for learner, group in best.groupby("learner", sort=True):
        for quantity in ("min_excess", "W_star"):
            per_seed = np.array([loglog_slope(g["Delta"], g[quantity]) for _, g in group.groupby("seed")])
            n = len(per_seed)
            half = stats.t.ppf(0.975, n - 1) * per_seed.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            rows.append(
                {
                    "learner": learner,
                    "quantity": quantity,
                    "slope": per_seed.mean(),
                    "ci_low": per_seed.mean() - half,
                    "ci_high": per_seed.mean() + half,
                    "seeds": n,
                    "per_seed": " ".join(f"{s:.4f}" for s in per_seed),
                }
            )
    return pd.DataFrame(rows)
