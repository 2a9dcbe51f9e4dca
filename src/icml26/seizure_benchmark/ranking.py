"""How stable is a leaderboard across subjects? (Ours: the paper reports the finding, not a recipe.)

Ranks use a subjects x algorithms matrix of per-subject event F1 (higher is better) restricted to
subjects with at least one reference seizure (F1 is defined for them whatever the algorithm does).
The aggregate F1 is the leaderboard's: the mean over every subject whose F1 is defined (a seizure-free
subject counts, with F1 = 0, once an algorithm raises a false alarm on it).

- per-subject ranks: 1 = best, ties share their average rank;
- per algorithm: mean and median rank, inter-quartile range of ranks, fraction of subjects where it is
  in the top 3;
- Kendall's W (coefficient of concordance, with the tie correction) over subjects;
- Kendall's tau between the aggregate order and the mean-rank order;
- a bootstrap over all subjects: the leaderboard position (by aggregate F1) of each algorithm in each
  resample, its 95 % interval and P(position = 1) (ties for first split the probability).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def subject_ranks(f1: pd.DataFrame) -> pd.DataFrame:
    """Per-subject ranks (rows = subjects, columns = algorithms), 1 = highest F1."""
    return f1.rank(axis=1, ascending=False, method="average")


def kendall_w(ranks: np.ndarray) -> float:
    """Kendall's W for ``ranks`` (m raters x n items), corrected for ties."""
    m, n = ranks.shape
    if n < 2 or m < 1:
        return float("nan")
    totals = ranks.sum(axis=0)
    s = float(((totals - totals.mean()) ** 2).sum())
    ties = 0.0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        ties += float((counts**3 - counts).sum())
    denominator = m**2 * (n**3 - n) - m * ties
    return 12.0 * s / denominator if denominator > 0 else float("nan")


def stability(f1: pd.DataFrame, aggregate: pd.Series) -> pd.DataFrame:
    """One row per algorithm: aggregate F1 and the rank statistics, sorted by aggregate F1."""
    ranks = subject_ranks(f1)
    q1, q3 = ranks.quantile(0.25), ranks.quantile(0.75)
    table = pd.DataFrame(
        {
            "algorithm": f1.columns,
            "aggregate_f1": aggregate.reindex(f1.columns).to_numpy(),
            "mean_f1_seizure_subjects": f1.mean().to_numpy(),
            "mean_rank": ranks.mean().to_numpy(),
            "median_rank": ranks.median().to_numpy(),
            "rank_iqr": (q3 - q1).to_numpy(),
            "top3_fraction": (ranks <= 3).mean().to_numpy(),
        }
    )
    return table.sort_values(["aggregate_f1", "algorithm"], ascending=[False, True]).reset_index(drop=True)


def concordance(f1: pd.DataFrame, aggregate: pd.Series) -> dict[str, float]:
    """Kendall's W over subjects and Kendall's tau between the aggregate and mean-rank orders."""
    ranks = subject_ranks(f1)
    tau = stats.kendalltau(aggregate.reindex(f1.columns).to_numpy(), -ranks.mean().to_numpy()).statistic
    return {
        "kendall_w": kendall_w(ranks.to_numpy()),
        "kendall_tau": float(tau),
        "subjects": int(len(f1)),
        "algorithms": int(f1.shape[1]),
    }


def bootstrap(f1: pd.DataFrame, n_boot: int, seed: int) -> pd.DataFrame:
    """Leaderboard positions over ``n_boot`` resamples of the subjects (with replacement).

    ``f1`` may hold NaN (undefined F1); a resample's aggregate skips them, and an algorithm with no
    defined F1 in a resample is placed last.
    """
    rng = np.random.default_rng(seed)
    values = f1.to_numpy()
    positions = np.empty((n_boot, values.shape[1]))
    first = np.zeros(values.shape[1])
    for b in range(n_boot):
        sample = values[rng.integers(0, len(values), len(values))]
        defined = np.isfinite(sample).any(axis=0)
        means = np.where(defined, np.nansum(sample, axis=0) / np.maximum(np.isfinite(sample).sum(axis=0), 1), -np.inf)
        positions[b] = stats.rankdata(-means, method="average")
        best = means == means.max()
        first[best] += 1.0 / best.sum()
    return pd.DataFrame(
        {
            "algorithm": f1.columns,
            "position_low": np.percentile(positions, 2.5, axis=0),
            "position_median": np.median(positions, axis=0),
            "position_high": np.percentile(positions, 97.5, axis=0),
            "p_first": first / n_boot,
        }
    )
