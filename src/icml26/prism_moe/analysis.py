"""From the students' outputs to the tables: routing specialisation, teacher conflict, Delta_m comparisons.

Specialisation is the mutual information between a token's condition (teacher in stage 1, task in stage 2) and
its top-1 expert, from the routing counts (scikit-learn's ``mutual_info_score`` on the contingency table, in
bits). Chance is measured, not assumed: the same tokens with the condition labels permuted (``permutations``
draws) give the null distribution, whose maximum a specialised router must exceed; ``nmi`` divides by the
condition entropy (1 = the expert determines the condition).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def mutual_information(counts: np.ndarray) -> float:
    """MI in bits between the rows (conditions) and columns (experts) of a contingency table."""
    from sklearn.metrics import mutual_info_score

    counts = np.asarray(counts, np.int64)
    if counts.sum() == 0:
        return 0.0
    return float(mutual_info_score(None, None, contingency=counts)) / np.log(2)


def entropy_bits(counts: np.ndarray) -> float:
    p = np.asarray(counts, float).sum(axis=1)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log2(p)).sum())


def permutation_null(counts: np.ndarray, permutations: int, rng: np.random.Generator) -> np.ndarray:
    """MI of ``permutations`` tables with the same tokens and the condition labels shuffled."""
    counts = np.asarray(counts, np.int64)
    rows, cols = counts.shape
    condition = np.repeat(np.arange(rows), counts.sum(axis=1))
    expert = np.concatenate([np.repeat(np.arange(cols), row) for row in counts])
    out = np.empty(permutations)
    for i in range(permutations):
        table = np.bincount(rng.permutation(condition) * cols + expert, minlength=rows * cols).reshape(rows, cols)
        out[i] = mutual_information(table)
    return out


def specialisation(routing: dict[tuple[str, int], dict[str, np.ndarray]], permutations: int, seed: int):
    """One row per (method, seed, stage, block): MI, NMI and the permutation null's 95th percentile and max.
    ``routing``: (method, seed) -> {"stage1": [blocks, teachers, experts], "stage2": [blocks, tasks, experts]}."""
    rng = np.random.default_rng(seed)
    rows = []
    for (method, run_seed), stages in sorted(routing.items()):
        for stage, counts in sorted(stages.items()):
            for block, table in enumerate(counts):
                null = permutation_null(table, permutations, rng)
                mi = mutual_information(table)
                rows.append(
                    {
                        "method": method,
                        "seed": run_seed,
                        "stage": stage,
                        "block": block,
                        "mi_bits": mi,
                        "nmi": mi / entropy_bits(table),
                        "null_p95": float(np.quantile(null, 0.95)),
                        "null_max": float(null.max()),
                        "experts_used": int((table.sum(axis=0) > 0).sum()),
                    }
                )
    return pd.DataFrame(rows)


def routing_shares(routing: dict, names: dict[str, list[str]]) -> pd.DataFrame:
    """Long table: share of each condition's tokens sent to each expert (per method, seed, stage, block)."""
    rows = []
    for (method, seed), stages in sorted(routing.items()):
        for stage, counts in sorted(stages.items()):
            for block, table in enumerate(counts):
                for c, row in enumerate(table):
                    for e, n in enumerate(row):
                        rows.append(
                            {
                                "method": method,
                                "seed": seed,
                                "stage": stage,
                                "block": block,
                                "condition": names[stage][c],
                                "expert": e,
                                "tokens": int(n),
                                "share": n / max(1, row.sum()),
                            }
                        )
    return pd.DataFrame(rows)


def conflict(cosines: pd.DataFrame) -> pd.DataFrame:
    """Mean gradient cosine per (method, seed, pair) over the first and second half of stage 1, and overall."""
    half = cosines.groupby(["method", "seed"])["step"].transform("max") / 2
    frame = cosines.assign(phase=np.where(cosines["step"] > half, "second half", "first half"))
    both = pd.concat([frame, frame.assign(phase="all")])
    table = both.groupby(["method", "seed", "pair", "phase"], sort=True)["cosine"].agg(["mean", "std", "count"])
    return table.reset_index()


def interval(draws: np.ndarray, confidence: float) -> tuple[float, float]:
    tail = (1 - confidence) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return float(low), float(high)
