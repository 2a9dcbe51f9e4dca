"""Dense labels of a real data set brought to the student's square grid: the centre square of every map (the
largest that fits), resized to ``size`` pixels per side.

The student is a ViT on square images (``student.patch`` divides the side), where the paper trains at 512 x 512
(PASCAL-Context) and 448 x 576 (NYUD-v2): the crop is ours and is named in the substitution. Each kind of map keeps
its meaning: images are resampled bilinearly, classes, depth and normals take the nearest pixel (a missing label
stays missing, a class stays a class), and a binary boundary map marks a pixel when any pixel of its footprint is
a boundary (thin edges survive the reduction; a pixel whose footprint holds no label at all is missing).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .tasks import IGNORE


def centre(array: np.ndarray) -> np.ndarray:
    """The centre square of an ``[H, W, ...]`` array."""
    h, w = array.shape[:2]
    side = min(h, w)
    top, left = (h - side) // 2, (w - side) // 2
    return array[top : top + side, left : left + side]


def image(rgb: np.ndarray, size: int) -> np.ndarray:
    """``[H, W, 3]`` uint8 -> ``[3, size, size]`` uint8."""
    resized = Image.fromarray(centre(rgb)).resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(resized).transpose(2, 0, 1).copy()


def nearest(values: np.ndarray, size: int) -> np.ndarray:
    """``[H, W]`` or ``[H, W, C]`` -> the nearest source pixel of each of ``size x size`` (dtype kept)."""
    square = centre(values)
    side = square.shape[0]
    index = ((np.arange(size) + 0.5) * side / size).astype(int)
    return square[index][:, index]


def boundary(binary: np.ndarray, size: int) -> np.ndarray:
    """``[H, W]`` of 0 / 1 / ``IGNORE`` -> ``[size, size]``: 1 where any labelled pixel of the footprint is 1, 0 where
    the footprint holds only 0s (and missing labels), ``IGNORE`` where it holds only missing labels."""
    square = centre(binary)
    edges = np.asarray(Image.fromarray((square == 1).astype(np.float32)).resize((size, size), Image.Resampling.BOX))
    labelled = np.asarray(
        Image.fromarray((square != IGNORE).astype(np.float32)).resize((size, size), Image.Resampling.BOX)
    )
    return np.where(edges > 0, 1, np.where(labelled > 0, 0, IGNORE)).astype(np.uint8)


def normals(vectors: np.ndarray, size: int) -> np.ndarray:
    """``[H, W, 3]`` float (zero: missing) -> ``[3, size, size]`` float32 unit vectors, zero where missing."""
    picked = nearest(vectors, size).astype(np.float64)
    length = np.linalg.norm(picked, axis=-1, keepdims=True)
    unit = np.where(length > 0, picked / np.maximum(length, 1e-12), 0.0)
    return unit.transpose(2, 0, 1).astype(np.float32)
