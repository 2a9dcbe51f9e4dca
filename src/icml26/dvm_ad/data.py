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


def subsample(X: np.ndarray, y: np.ndarray, max_rows: int | None, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``max_rows`` rows, stratified by label (all rows if the dataset is smaller, or ``max_rows`` is None:
    the paper scale's every row)."""
    if max_rows is None or len(y) <= max_rows:
        return X, y
    keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, stratify=y, random_state=seed)
    keep = np.sort(keep)
    return X[keep], y[keep]


def adbench_rows(
    X: np.ndarray, y: np.ndarray, seed: int, low: int, high: int
) -> tuple[np.ndarray, np.ndarray, np.random.RandomState]:
    """ADBench's rows for one seed (``DataGenerator.generator`` in Minqi824/ADBench, ``datasets/data_generator.py``):
    a set under ``low`` rows is drawn ``low`` times with replacement, one over ``high`` rows subsampled to ``high``
    without, each from numpy's legacy generator seeded with the seed. Returns the rows and that generator in the
    state ADBench's train/test split then draws from (it splits with numpy's global state), so the split is
    ADBench's too. Duplicated rows can land on both sides of the split: that is ADBench's protocol."""
    state = np.random.RandomState(seed)
    if len(y) < low:
        keep = state.choice(np.arange(len(y)), low, replace=True)
    elif len(y) > high:
        keep = state.choice(np.arange(len(y)), high, replace=False)
    else:
        return X, y, state
    return X[keep], y[keep], state


def split(
    X: np.ndarray, y: np.ndarray, seed: int | np.random.RandomState, test_size: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stratified split; returns the *normal* training rows, the test rows and the test labels. ``seed`` may be a
    generator in a given state (ADBench's protocol, :func:`adbench_rows`)."""
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, stratify=y, random_state=seed)
    return X_train[y_train == 0], X_test, y_test


CLASSICAL = (  # ADBench's 47 "Classical" tabular sets (datasets/Classical/<name>.npz), the paper's benchmark
    "1_ALOI", "2_annthyroid", "3_backdoor", "4_breastw", "5_campaign", "6_cardio", "7_Cardiotocography", "8_celeba",
    "9_census", "10_cover", "11_donors", "12_fault", "13_fraud", "14_glass", "15_Hepatitis", "16_http",
    "17_InternetAds", "18_Ionosphere", "19_landsat", "20_letter", "21_Lymphography", "22_magic.gamma",
    "23_mammography", "24_mnist", "25_musk", "26_optdigits", "27_PageBlocks", "28_pendigits", "29_Pima",
    "30_satellite", "31_satimage-2", "32_shuttle", "33_skin", "34_smtp", "35_SpamBase", "36_speech", "37_Stamps",
    "38_thyroid", "39_vertebral", "40_vowels", "41_Waveform", "42_WBC", "43_WDBC", "44_Wilt", "45_wine",
    "46_WPBC", "47_yeast",
)  # fmt: skip


def write_replica(folder, rows: int = 80, features: int = 4, seed: int = 0):
    """All 47 sets as tiny ``.npz`` files in ADBench's format (``X`` float, ``y`` 1 = anomaly; a tenth of the
    rows shifted anomalies), for tests and ``make gpu-check``: the real files, sizes aside."""
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name in CLASSICAL:
        y = (np.arange(rows) % 10 == 0).astype(int)
        X = rng.normal(size=(rows, features)) + 3.0 * y[:, None]
        np.savez(folder / f"{name}.npz", X=X, y=y)
    return folder
