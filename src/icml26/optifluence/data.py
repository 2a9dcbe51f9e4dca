"""The images the audit trains on, split into a base pool, a canary-candidate pool and a test set.

Substitution (CIFAR-10 cannot be downloaded here): ``digits`` is scikit-learn's 8x8 handwritten digits
(1,797 images, shipped inside the scikit-learn wheel; BSD licence, from the UCI ML repository), the
``quick`` scale; ``fashion_mnist`` is Zalando's Fashion-MNIST (28x28, MIT licence) as Debian's
``dataset-fashion-mnist`` installs it under ``/usr/share/datasets/fashion-mnist`` (``make setup``);
``npz`` is the user's own data: one ``.npz`` with ``images`` (N x H x W, values in [0, 1] or 0..255)
and ``labels`` (N integers). Pixels are scaled to [0, 1], the range canaries are clipped to.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

from ..common.sources import checked, fail

FASHION_MNIST = Path("/usr/share/datasets/fashion-mnist")
FASHION_FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz")
DATASETS = ("digits", "fashion_mnist", "npz")


def source_files(name: str, path: str | None) -> list[str]:
    """The external files a dataset reads (none for the scikit-learn digits)."""
    if name == "fashion_mnist":
        folder = Path(path) if path else FASHION_MNIST
        return [str(folder / f) for f in FASHION_FILES]
    if name == "npz":
        return [str(path)]
    return []


def load(name: str, files: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(images N x H x W float32 in [0, 1], labels N int64)``; a bad file fails naming it."""
    if name == "digits":
        from sklearn.datasets import load_digits

        digits = load_digits()
        return (digits.images / 16.0).astype(np.float32), digits.target.astype(np.int64)
    if name == "fashion_mnist":
        images, labels = (checked(f) for f in files)
        return _idx(images, 3).astype(np.float32) / 255.0, _labels(_idx(labels, 1), labels)
    if name == "npz":
        return _user_npz(checked(files[0]))
    raise ValueError(f"dataset.name: {name!r} is not one of {', '.join(DATASETS)}")


def _idx(path: Path, dims: int) -> np.ndarray:
    """An IDX array (the MNIST format: magic 0x0000 0x08 <dims>, big-endian sizes, uint8 data), gzipped."""
    try:
        raw = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        fail(path, f"not a readable gzip file ({error})")
    if len(raw) < 4 + 4 * dims or raw[:3] != b"\x00\x00\x08" or raw[3] != dims:
        fail(path, f"not an IDX file of {dims} dimension(s) of unsigned bytes")
    shape = tuple(int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(dims))
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims)
    if data.size != int(np.prod(shape)):
        fail(path, f"holds {data.size} values, its header says {shape} (truncated?)")
    return data.reshape(shape)


def _labels(labels: np.ndarray, path: Path) -> np.ndarray:
    if labels.max(initial=0) > 9:
        fail(path, f"labels must be 0..9, found {int(labels.max())}")
    return labels.astype(np.int64)


def _user_npz(path: Path) -> tuple[np.ndarray, np.ndarray]:
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            if not {"images", "labels"} <= set(data.files):
                fail(path, f"needs arrays 'images' and 'labels', found {sorted(data.files)}")
            images, labels = data["images"], data["labels"]
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        fail(path, f"not a readable .npz file ({error})")
    if images.ndim != 3 or images.shape[1] != images.shape[2]:
        fail(path, f"'images' must be N x H x H, got shape {images.shape}")
    if labels.shape != (len(images),) or not np.issubdtype(labels.dtype, np.integer) or labels.min(initial=0) < 0:
        fail(path, f"'labels' must be {len(images)} non-negative integers, got {labels.dtype} {labels.shape}")
    images = images.astype(np.float32)
    if not np.isfinite(images).all() or images.min() < 0:
        fail(path, "'images' must be finite and non-negative")
    if images.max() > 1.0:
        images = images / 255.0
    return images, labels.astype(np.int64)


def pool(images: np.ndarray, factor: int) -> np.ndarray:
    """Each ``factor`` x ``factor`` block of pixels averaged into one (28x28 Fashion-MNIST at 2 -> 14x14): the
    quick scale trains hundreds of models per architecture on 2 cores, and a convolution's cost grows with the
    pixels it slides over. 1 leaves the images as they are."""
    if factor == 1:
        return images
    n, side = images.shape[0], images.shape[-1]
    if side % factor:
        raise ValueError(f"dataset.pool: {factor} does not divide the images' side ({side})")
    small = side // factor
    return images.reshape(n, small, factor, small, factor).mean(axis=(2, 4)).astype(images.dtype)


def split(
    images: np.ndarray, labels: np.ndarray, base: int, candidates: int, seed: int, test: int | None = None
) -> dict[str, np.ndarray]:
    """Disjoint base pool (the models' training data), candidate pool (canary seeds) and test set (``test``
    images, or all the rest when ``None``: every audited model is scored on it, so 58,000 Fashion-MNIST test
    images would cost more than they tell)."""
    if base + candidates >= len(images):
        raise ValueError(
            f"split: base ({base}) + candidates ({candidates}) must leave test images out of {len(images)}"
        )
    order = np.random.default_rng(seed).permutation(len(images))
    rest = order[base + candidates :]
    parts = {"base": order[:base], "cand": order[base : base + candidates], "test": rest[:test]}
    out = {}
    for name, index in parts.items():
        out[f"{name}_x"], out[f"{name}_y"] = images[index], labels[index]
    out["classes"] = np.array([int(labels.max()) + 1])  # 1-d: an .npz member is at least one-dimensional
    return out


def classes(parts: dict[str, np.ndarray]) -> int:
    return int(parts["classes"][0])
