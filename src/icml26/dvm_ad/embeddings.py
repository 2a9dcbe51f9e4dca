"""ADBench's CV / NLP embedding benchmarks (its ``CV_by_ResNet18`` and ``NLP_by_BERT`` folders): which files make up
each benchmark. Light on purpose: the workflow imports it to list a benchmark's inputs when it builds the DAG."""

from __future__ import annotations

from pathlib import Path

import numpy as np

# ADBench's 10 CV / NLP embedding benchmarks (``isin_NLPCV`` in its run.py), each one file (``amazon.npz``) or several
# versions (``CIFAR10_0.npz`` ... one normal class each); which folder holds them: its CV_by_ResNet18 / NLP_by_BERT
BENCHMARKS = {
    "CIFAR10": "CV_by_ResNet18", "FashionMNIST": "CV_by_ResNet18", "MNIST-C": "CV_by_ResNet18",
    "MVTec-AD": "CV_by_ResNet18", "SVHN": "CV_by_ResNet18",
    "20news": "NLP_by_BERT", "agnews": "NLP_by_BERT", "amazon": "NLP_by_BERT", "imdb": "NLP_by_BERT",
    "yelp": "NLP_by_BERT",
}  # fmt: skip


def files(folders: list[str], benchmark: str) -> list[str]:
    """Every version of an embedding benchmark in ``folders``: ``<benchmark>.npz`` and ``<benchmark>_*.npz``, sorted
    by name (an empty list when none holds it)."""
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
    for benchmark in BENCHMARKS:
        if name == benchmark or name.startswith(f"{benchmark}_"):
            return benchmark
    raise ValueError(f"{name}: not a version of ADBench's embedding benchmarks ({', '.join(BENCHMARKS)})")


def write_replica(folder, rows: int = 80, features: int = 8, seed: int = 0):
    """The embedding benchmarks one folder of ADBench's holds (``CV_by_ResNet18`` or ``NLP_by_BERT``, by the folder's
    name), as tiny ``.npz`` files in ADBench's format: two versions of each multi-version benchmark, one file of the
    others. For tests and ``make gpu-check``: the real files, sizes aside."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    single = ("amazon", "imdb", "yelp")
    for benchmark in (b for b, holder in BENCHMARKS.items() if holder == folder.name):
        for stem in [benchmark] if benchmark in single else [f"{benchmark}_0", f"{benchmark}_1"]:
            y = (np.arange(rows) % 10 == 0).astype(int)
            X = rng.normal(size=(rows, features)) + 2.0 * y[:, None]
            np.savez(folder / f"{stem}.npz", X=X, y=y)
    return folder


def inputs(folders: list[str], benchmark: str) -> list[str]:
    """:func:`files`, or the pattern they were looked for under when there are none, so that the workflow names the
    missing input rather than running the benchmark on nothing."""
    return files(folders, benchmark) or [f"{' or '.join(folders) or 'embedding_source_dir'}/{benchmark}_*.npz"]
