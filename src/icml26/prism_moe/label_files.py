"""Reading the files of the real multi-task sets (NYUD-v2, PASCAL-Context), each checked as it is read: a missing,
escaping or wrongly shaped file fails in one line that names it and says what was expected."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def find(root: Path, folder: str, name: str, suffixes: tuple[str, ...]) -> Path:
    """``root/folder/name<suffix>`` for the first suffix that exists (inside ``root``, links followed)."""
    from ..common.sources import fail, within

    for suffix in suffixes:
        path = root / folder / f"{name}{suffix}"
        if path.is_file():
            return within(root, path)
    fail(root / folder / f"{name}{suffixes[0]}", f"missing: the {folder} of image {name}")


def rgb(path: Path) -> np.ndarray:
    """An RGB image as ``[H, W, 3]`` uint8 (a grayscale or RGBA file fails naming it)."""
    from PIL import Image

    from ..common.sources import fail

    with Image.open(path) as picture:
        if picture.mode != "RGB":
            fail(path, f"expected an RGB image, got mode {picture.mode}")
        return np.asarray(picture)


def gray(path: Path) -> np.ndarray:
    """A single-channel label image (8- or 16-bit, or a palette's indices) as ``[H, W]``."""
    from PIL import Image

    from ..common.sources import fail

    with Image.open(path) as picture:
        if picture.mode not in ("L", "P", "I", "I;16"):
            fail(path, f"expected a single-channel label image, got mode {picture.mode}")
        return np.asarray(picture)


def normal_map(path: Path) -> np.ndarray:
    """An RGB normal file -> ``[H, W, 3]`` float vectors in [-1, 1]; black pixels (no normal) are zero."""
    encoded = rgb(path).astype(np.float64)
    vectors = 2 * encoded / 255 - 1
    return np.where((encoded == 0).all(-1, keepdims=True), 0.0, vectors)


def same_shape(path: Path, array: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``array`` read from ``path``, which must cover its image's ``shape``."""
    from ..common.sources import fail

    if array.shape[:2] != shape:
        fail(path, f"is {array.shape[0]} x {array.shape[1]}, its image {shape[0]} x {shape[1]}")
    return array


def split_ids(path: Path, layout: str) -> list[str]:
    """The image ids a split file lists, one per line (``layout`` names the folder it belongs to)."""
    from ..common.sources import fail

    if not path.is_file():
        fail(path, f"missing: a {layout} folder lists the images of this split here")
    found = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if not found:
        fail(path, "lists no images")
    return found
