"""The images the audit trains on (N x C x H x W, float32 in [0, 1]), split into a base pool, a canary-candidate
pool and a test set.

- ``cifar10``: the paper's data, CIFAR-10 as its authors distribute it (``cifar-10-python.tar.gz`` unpacked: the
  five ``data_batch_<i>`` pickles of 10,000 RGB 32x32 images; the folder itself or torchvision's root holding
  ``cifar-10-batches-py``). The pickles are read by an unpickler that builds numpy arrays, lists and strings only,
  so a file posing as a batch cannot run code (the reason torchvision's plain ``pickle.load`` is not used; torchvision
  itself cannot be installed beside this project's CPU torch wheel either).
- ``mnist``: the paper's other data set, the four IDX files as LeCun's site ships them (gzipped); the training pair
  is read.
- ``fashion_mnist``: Zalando's Fashion-MNIST in the same format, as Debian's ``dataset-fashion-mnist`` installs it
  under ``/usr/share/datasets/fashion-mnist`` (``make setup``): a substitution for CIFAR-10 at quick scale.
- ``digits``: scikit-learn's 8x8 handwritten digits (1,797 images, inside the scikit-learn wheel): smoke scale.
- ``npz``: the user's own data, one ``.npz`` with ``images`` (N x H x W, or N x C x H x W with any channel count;
  uint8 0..255 or floats in [0, 1], never rescaled by guess) and ``labels`` (N integers 0..K-1, every class present).
"""

from __future__ import annotations

import gzip
import io
import pickle
from pathlib import Path

import numpy as np

from ..common.sources import checked, fail

FASHION_MNIST = Path("/usr/share/datasets/fashion-mnist")
FASHION_FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz")
CIFAR_BATCHES = tuple(f"data_batch_{i}" for i in range(1, 6))
CIFAR_FOLDER = "cifar-10-batches-py"  # what the tarball unpacks to, and where torchvision looks under its root
DATASETS = ("digits", "fashion_mnist", "mnist", "cifar10", "npz")


def source_files(name: str, path: str | None) -> list[str]:
    """The external files a dataset reads (none for the scikit-learn digits)."""
    if name in ("fashion_mnist", "mnist"):
        folder = Path(path) if path else FASHION_MNIST
        return [str(folder / f) for f in FASHION_FILES]
    if name == "cifar10":
        folder = Path(path)
        if not (folder / CIFAR_BATCHES[0]).exists() and (folder / CIFAR_FOLDER).is_dir():
            folder = folder / CIFAR_FOLDER
        return [str(folder / f) for f in CIFAR_BATCHES]
    if name == "npz":
        return [str(path)]
    return []


def load(name: str, files: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(images N x C x H x W float32 in [0, 1], labels N int64)``; a bad file fails naming it."""
    if name == "digits":
        from sklearn.datasets import load_digits

        digits = load_digits()
        return (digits.images[:, None] / 16.0).astype(np.float32), digits.target.astype(np.int64)
    if name in ("fashion_mnist", "mnist"):
        images, labels = (checked(f) for f in files)
        pixels, classes = _idx(images, 3), _idx(labels, 1)
        if len(classes) != len(pixels):
            fail(labels, f"holds {len(classes)} labels for the {len(pixels)} images of {images.name}")
        return pixels[:, None].astype(np.float32) / 255.0, _labels(classes, labels, 10)
    if name == "cifar10":
        batches = [_cifar_batch(checked(f)) for f in files]
        _distinct_batches([Path(f) for f in files], [b[0] for b in batches])
        return (
            np.concatenate([b[0] for b in batches]).astype(np.float32) / 255.0,
            np.concatenate([b[1] for b in batches]),
        )
    if name == "npz":
        return _user_npz(checked(files[0]))
    raise ValueError(f"dataset.name: {name!r} is not one of {', '.join(DATASETS)}")


def _distinct_batches(paths: list[Path], pixels: list[np.ndarray]) -> None:
    """Fail on a batch that holds the same images as an earlier one (a batch copied in twice would train, and be
    scored, twice)."""
    import hashlib

    seen = {}
    for path, images in zip(paths, pixels, strict=True):
        digest = hashlib.sha256(np.ascontiguousarray(images).tobytes()).hexdigest()
        if digest in seen:
            fail(path, f"holds the same images as {seen[digest].name} (a batch copied twice?)")
        seen[digest] = path


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


def _labels(labels: np.ndarray, path: Path, classes: int) -> np.ndarray:
    if labels.max(initial=0) >= classes:
        fail(path, f"labels must be 0..{classes - 1}, found {int(labels.max())}")
    return labels.astype(np.int64)


class _ArraysOnly(pickle.Unpickler):
    """Builds numpy arrays and Python containers, nothing else (a CIFAR batch needs no more)."""

    ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("_codecs", "encode"),  # how Python 3 writes bytes at the batches' protocol 2
    }

    def find_class(self, module: str, name: str):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"it asks for {module}.{name}, which a CIFAR batch never holds")
        return super().find_class(module, name)


def _cifar_batch(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """One CIFAR-10 python batch: ``data`` (N x 3072 uint8, the red, green and blue planes of 32x32 in turn) and
    ``labels`` (N of 0..9) -> ``(N x 3 x 32 x 32 uint8, N int64)``."""
    try:
        batch = _ArraysOnly(io.BytesIO(path.read_bytes()), encoding="bytes").load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError) as error:
        fail(path, f"not a CIFAR-10 python batch ({error})")
    if not isinstance(batch, dict) or not {b"data", b"labels"} <= set(batch):
        fail(path, "not a CIFAR-10 python batch (needs the keys data and labels)")
    pixels, labels = batch[b"data"], np.asarray(batch[b"labels"])
    if not isinstance(pixels, np.ndarray) or pixels.dtype != np.uint8 or pixels.ndim != 2 or pixels.shape[1] != 3072:
        shape = getattr(pixels, "shape", type(pixels).__name__)
        fail(path, f"data must be N x 3072 unsigned bytes (32x32 RGB), got {shape} (a grayscale or resized set?)")
    if labels.shape != (len(pixels),) or not np.issubdtype(labels.dtype, np.integer):
        fail(path, f"labels must be {len(pixels)} integers, got {labels.dtype} {labels.shape}")
    if labels.min(initial=0) < 0:
        fail(path, f"labels must be 0..9, found {int(labels.min())}")
    return pixels.reshape(-1, 3, 32, 32), _labels(labels, path, 10)


def _user_npz(path: Path) -> tuple[np.ndarray, np.ndarray]:
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            if not {"images", "labels"} <= set(data.files):
                fail(path, f"needs arrays 'images' and 'labels', found {sorted(data.files)}")
            images, labels = data["images"], data["labels"]
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        fail(path, f"not a readable .npz file ({error})")
    if images.ndim == 3:
        images = images[:, None]
    if images.ndim != 4 or images.shape[2] != images.shape[3]:
        fail(path, f"'images' must be N x H x H or N x C x H x H (channels first), got shape {images.shape}")
    if labels.shape != (len(images),) or not np.issubdtype(labels.dtype, np.integer) or labels.min(initial=0) < 0:
        fail(path, f"'labels' must be {len(images)} non-negative integers, got {labels.dtype} {labels.shape}")
    present = np.unique(labels)
    if len(present) < 2 or present[-1] != len(present) - 1:
        fail(path, f"'labels' must be the classes 0..K-1 with every class present, found {_some(present)}")
    if images.dtype == np.uint8:
        return images.astype(np.float32) / 255.0, labels.astype(np.int64)
    if not np.issubdtype(images.dtype, np.floating):
        fail(path, f"'images' must be uint8 (0..255) or floats in [0, 1], got {images.dtype}")
    images = images.astype(np.float32)
    if not np.isfinite(images).all() or images.min() < 0 or images.max() > 1:
        low, high = np.nanmin(images), np.nanmax(images)
        fail(
            path,
            f"float 'images' must be finite and in [0, 1], found {low:g}..{high:g} (0..255 pixels: store as uint8)",
        )
    return images, labels.astype(np.int64)


def _some(values: np.ndarray) -> str:
    shown = ", ".join(str(int(v)) for v in values[:5])
    return f"{len(values)} distinct labels ({shown}{', ...' if len(values) > 5 else ''})"


def pool(images: np.ndarray, factor: int) -> np.ndarray:
    """Each ``factor`` x ``factor`` block of pixels averaged into one (28x28 Fashion-MNIST at 2 -> 14x14): the
    quick scale trains hundreds of models per architecture on 2 cores, and a convolution's cost grows with the
    pixels it slides over. 1 leaves the images as they are."""
    if factor == 1:
        return images
    n, channels, side = images.shape[0], images.shape[1], images.shape[-1]
    if side % factor:
        raise ValueError(f"dataset.pool: {factor} does not divide the images' side ({side})")
    small = side // factor
    return images.reshape(n, channels, small, factor, small, factor).mean(axis=(3, 5)).astype(images.dtype)


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


def write_cifar_replica(folder, per_batch: int = 200, seed: int = 0) -> None:
    """A CIFAR-10 folder in miniature, exactly in the distributed format (five ``data_batch_<i>`` pickles and a
    ``test_batch`` of ``per_batch`` images each, ``batches.meta``), for the paper-scale tests: each class is a
    colour and a stripe orientation under noise, so models learn it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = [b"airplane", b"automobile", b"bird", b"cat", b"deer", b"dog", b"frog", b"horse", b"ship", b"truck"]
    rows, cols = np.mgrid[0:32, 0:32]
    for i, name in enumerate([*CIFAR_BATCHES, "test_batch"]):
        labels = rng.integers(0, 10, per_batch)
        colour = np.stack([(labels * 37) % 256, (labels * 91) % 256, (labels * 53) % 256], axis=1)[:, :, None, None]
        stripes = (((rows if i % 2 else cols)[None] + labels[:, None, None] * 3) // 4) % 2
        images = 0.6 * colour + 80 * stripes[:, None] + rng.normal(0, 25, (per_batch, 3, 32, 32))
        batch = {
            b"batch_label": f"{name} of the replica".encode(),
            b"labels": labels.tolist(),
            b"data": np.clip(images, 0, 255).astype(np.uint8).reshape(per_batch, 3072),
            b"filenames": [f"replica_{i}_{j}.png".encode() for j in range(per_batch)],
        }
        (folder / name).write_bytes(pickle.dumps(batch, protocol=2))
    meta = {b"label_names": names, b"num_cases_per_batch": per_batch, b"num_vis": 3072}
    (folder / "batches.meta").write_bytes(pickle.dumps(meta, protocol=2))
