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


# ADBench's 10 CV / NLP embedding benchmarks (``isin_NLPCV`` in its run.py), each one file (``amazon.npz``) or several
# versions (``CIFAR10_0.npz`` ... one normal class each); which folder holds them: its CV_by_ResNet18 / NLP_by_BERT
EMBEDDING_BENCHMARKS = {
    "CIFAR10": "CV_by_ResNet18", "FashionMNIST": "CV_by_ResNet18", "MNIST-C": "CV_by_ResNet18",
    "MVTec-AD": "CV_by_ResNet18", "SVHN": "CV_by_ResNet18",
    "20news": "NLP_by_BERT", "agnews": "NLP_by_BERT", "amazon": "NLP_by_BERT", "imdb": "NLP_by_BERT",
    "yelp": "NLP_by_BERT",
}  # fmt: skip


def embedding_files(folders: list[str], benchmark: str) -> list[str]:
    """Every version of an embedding benchmark in ``folders``: ``<benchmark>.npz`` and ``<benchmark>_*.npz``, sorted
    by name (an empty list when none holds it: the caller names what is missing)."""
    from pathlib import Path

    found = set()
    for folder in folders:
        found |= {
            p
            for p in Path(folder).glob(f"{benchmark}*.npz")
            if p.stem == benchmark or p.stem.startswith(f"{benchmark}_")
        }
    return sorted(map(str, found))


def benchmark_of(name: str) -> str:
    """The embedding benchmark a file stem belongs to (``MNIST-C_brightness`` -> ``MNIST-C``)."""
    for benchmark in EMBEDDING_BENCHMARKS:
        if name == benchmark or name.startswith(f"{benchmark}_"):
            return benchmark
    raise ValueError(f"{name}: not a version of ADBench's embedding benchmarks ({', '.join(EMBEDDING_BENCHMARKS)})")


def write_embedding_replica(folder, rows: int = 80, features: int = 8, seed: int = 0):
    """The embedding benchmarks one folder of ADBench's holds (``CV_by_ResNet18`` or ``NLP_by_BERT``, by the folder's
    name), as tiny ``.npz`` files in ADBench's format: two versions of each multi-version benchmark, one file of the
    others. For tests and ``make gpu-check``: the real files, sizes aside."""
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    single = ("amazon", "imdb", "yelp")
    for benchmark in (b for b, holder in EMBEDDING_BENCHMARKS.items() if holder == folder.name):
        for stem in [benchmark] if benchmark in single else [f"{benchmark}_0", f"{benchmark}_1"]:
            y = (np.arange(rows) % 10 == 0).astype(int)
            X = rng.normal(size=(rows, features)) + 2.0 * y[:, None]
            np.savez(folder / f"{stem}.npz", X=X, y=y)
    return folder


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
