"""ADBench ``.npz`` datasets: validation, stratified subsampling and the 70/30 protocol split.

Source: the ADBench "Classical" tabular datasets (Han et al., NeurIPS 2022,
``datasets/Classical/``), provided offline in ``shared/data/adbench_classical/``
(ADBench code BSD-2; each dataset keeps its original source's terms, mostly
UCI / ODDS). Each file holds ``X`` (float features) and ``y`` (1 = anomaly).
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split

from ..common.io import read_npz


def load(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Read ``X`` and ``y`` and check they form an anomaly-detection dataset."""
    arrays = read_npz(path, "X", "y")
    X, y = np.asarray(arrays["X"], dtype=float), np.asarray(arrays["y"]).astype(int).ravel()
    if X.ndim != 2 or len(X) != len(y):
        raise ValueError(f"{path}: X must be 2-D with one label per row, got X {X.shape} and y {y.shape}")
    if not set(np.unique(y)) <= {0, 1} or y.sum() == 0 or y.sum() == len(y):
        raise ValueError(f"{path}: y must be 0 (normal) / 1 (anomaly) with both classes present")
    if not np.isfinite(X).all():
        raise ValueError(f"{path}: X has non-finite values")
    return X, y


def subsample(X: np.ndarray, y: np.ndarray, max_rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``max_rows`` rows, stratified by label (all rows if the dataset is smaller)."""
    if len(y) <= max_rows:
        return X, y
    keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, stratify=y, random_state=seed)
    keep = np.sort(keep)
    return X[keep], y[keep]


def split(X: np.ndarray, y: np.ndarray, seed: int, test_size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stratified split; returns the *normal* training rows, the test rows and the test labels."""
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, stratify=y, random_state=seed)
    return X_train[y_train == 0], X_test, y_test
