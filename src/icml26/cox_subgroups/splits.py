"""The train/test splits of the real-data and case-study runs, in one place so that every view of a run
(its scores, its Kaplan-Meier curves, its Cox summary) sees the same rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

CASE_STUDY_STREAM = 11  # the case study's seed stream (the real datasets use their index in realdata.DATASETS)


def real_test_rows(n_rows: int, dataset_index: int, seed: int, test_size: float) -> np.ndarray:
    """Held-out rows of a real dataset: a seeded permutation's first ``round(test_size n)`` rows."""
    rng = np.random.default_rng([seed, dataset_index])
    is_test = np.zeros(n_rows, dtype=bool)
    is_test[rng.permutation(n_rows)[: int(round(test_size * n_rows))]] = True
    return is_test


def case_test_rows(engine: pd.Series, seed: int, test_size: float) -> np.ndarray:
    """Held-out rows of the case study: every snapshot of a seeded ``test_size`` fraction of the engines."""
    engines = np.sort(engine.unique())
    rng = np.random.default_rng([seed, CASE_STUDY_STREAM])
    held_out = set(rng.permutation(engines)[: int(round(test_size * len(engines)))])
    return engine.isin(held_out).to_numpy()


def standardiser(frame: pd.DataFrame, columns: list[str], is_train: np.ndarray) -> dict[str, tuple[float, float]]:
    """Each column's training mean and standard deviation (1 where a column is constant on the training rows)."""
    return {c: (frame.loc[is_train, c].mean(), frame.loc[is_train, c].std() or 1.0) for c in columns}
