"""The paper's image data sets read from their files (paper scale): DeepMind's dSprites and Columbia's COIL-20.

- **dSprites** (``dsprites_ndarray_co1sh3sc6or40x32y32_64x64.npz``): ``imgs`` (N, 64, 64) binary images and
  ``latents_classes`` (N, 6): colour (1), shape (3: square, ellipse, heart), scale (6), orientation (40 over a full
  turn), x (32), y (32). A slice is one shape at dSprites' largest scale (class 5) and the central y (class 16):
  its orientations over the shape's rotation period (10 for the square, 20 for the ellipse, 40 for the heart) by
  its x positions in ``x_range``, found by their latent classes (so a file holding part of the grid reads the
  same way). The binary images are mapped to [-1, 1] and blurred as the rendered slices are (``blur``), so finite
  differences along the latents are smooth.
- **COIL-20** (``coil-20-proc``: ``obj<i>__<j>.png``, 20 objects x 72 turntable poses, 128 x 128 grey): one
  object's 72 poses resized to ``resolution``; the in-plane roll axis is ours, as for the stand-in (each pose
  rotated by ``n_roll`` angles over a full turn with scipy), giving the same pose x roll grid.

Each file is checked for what the study reads (shapes, latent sizes, missing poses) with one line naming it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from scipy.ndimage import gaussian_filter, rotate

from .dsprites import ROTATION_PERIOD, SHAPES

LATENT_SIZES = (1, 3, 6, 40, 32, 32)  # colour, shape, scale, orientation, x, y
COIL_POSES = 72


def read_dsprites(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray]:
    """``(imgs [N, 64, 64], latents_classes [N, 6])`` of a dSprites file, checked."""
    import zipfile

    from ..common.sources import fail

    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in ("imgs", "latents_classes") if k in data.files}
            found = sorted(data.files)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        fail(path, f"not a readable .npz file ({type(error).__name__})")
    if len(arrays) != 2:
        fail(path, f"needs arrays imgs and latents_classes (the dSprites file), found {found}")
    imgs, classes = arrays["imgs"], arrays["latents_classes"]
    if imgs.ndim != 3 or imgs.shape[1:] != (64, 64) or classes.shape != (len(imgs), 6):
        fail(path, f"expected imgs N x 64 x 64 and latents_classes N x 6, got {imgs.shape} and {classes.shape}")
    if (classes.min(axis=0) < 0).any() or (classes.max(axis=0) >= LATENT_SIZES).any():
        fail(path, f"latent classes outside dSprites' sizes {LATENT_SIZES} (colour, shape, scale, orientation, x, y)")
    for start in range(0, len(imgs), 65536):  # dSprites is binary: 0..255 or NaN would pass through unnoticed
        chunk = imgs[start : start + 65536]
        if not ((chunk == 0) | (chunk == 1)).all():
            odd = chunk[(chunk != 0) & (chunk != 1)]
            fail(
                path,
                f"imgs must be binary (0 or 1, as dSprites stores them), found {odd.flat[0]:g} in image "
                f"{start + int(np.argwhere((chunk != 0) & (chunk != 1))[0][0])}",
            )
    return imgs, classes


SCALE_CLASS, Y_CLASS = 5, 16  # a slice's fixed latents: the largest sprites, at the centre row


def dsprites_slice(
    path: str | os.PathLike, shape: str, x_range: tuple[float, float], blur: float
) -> tuple[np.ndarray, dict]:
    """``(F [n_rotation, n_x, 64 * 64], axes)``: one shape's orientation x position slice of the file at
    :data:`SCALE_CLASS` and :data:`Y_CLASS` (the procedural slice's ``scale`` and ``y`` are in other units)."""
    from ..common.sources import fail

    imgs, classes = read_dsprites(path)
    turns = round(2 * np.pi / ROTATION_PERIOD[shape])
    n_rotation = LATENT_SIZES[3] // turns
    positions = np.linspace(0, 1, LATENT_SIZES[4])
    xs = np.flatnonzero((positions >= x_range[0]) & (positions <= x_range[1]))
    where = {tuple(row): i for i, row in enumerate(classes[:, 1:].tolist())}
    F = np.empty((n_rotation, len(xs), 64 * 64))
    for r in range(n_rotation):
        for j, x in enumerate(xs):
            key = (SHAPES.index(shape), SCALE_CLASS, r, int(x), Y_CLASS)
            if key not in where:
                fail(path, f"lacks the {shape} at scale {SCALE_CLASS}, orientation {r}, x {x}, y {Y_CLASS}")
            image = imgs[where[key]].astype(float)
            if blur > 0:
                image = gaussian_filter(image, blur, mode="constant")
            F[r, j] = 2 * image.ravel() - 1
    axes = {"rotation": np.arange(n_rotation) * ROTATION_PERIOD[shape] / n_rotation, "x": positions[xs]}
    return F, axes


def coil_object(folder: str | os.PathLike, index: int, n_roll: int, resolution: int) -> np.ndarray:
    """``[72, n_roll, resolution ** 2]`` in [-1, 1]: COIL-20 object ``index`` (1-based) over its 72 poses and
    ``n_roll`` in-plane rotations; a missing pose or an image of another size is one line naming it."""
    from PIL import Image, UnidentifiedImageError

    from ..common.sources import fail

    folder = Path(folder)
    if not folder.is_dir():
        fail(folder, "no such COIL-20 folder (coil-20-proc: obj<i>__<j>.png)")
    rolls = np.arange(n_roll) * 360.0 / n_roll
    out = np.empty((COIL_POSES, n_roll, resolution * resolution))
    for pose in range(COIL_POSES):
        path = folder / f"obj{index}__{pose}.png"
        if not path.is_file():
            fail(folder, f"lacks {path.name} (COIL-20's processed images: obj<1..20>__<0..71>.png)")
        try:
            with Image.open(path) as opened:
                if opened.size != (128, 128):
                    fail(path, f"is {opened.size[0]} x {opened.size[1]}, COIL-20's processed images are 128 x 128")
                image = opened.convert("L").resize((resolution, resolution), Image.Resampling.BILINEAR)
        except (OSError, UnidentifiedImageError) as error:
            fail(path, f"not a readable image ({type(error).__name__})")
        base = np.asarray(image, dtype=float) / 255.0
        for k, angle in enumerate(rolls):
            turned = rotate(base, angle, reshape=False, order=1, mode="constant", cval=0.0)
            out[pose, k] = 2 * turned.ravel() - 1
    return out


def write_dsprites_replica(path: str | os.PathLike, blur: float = 0.0) -> Path:
    """A dSprites file in the real format holding part of the grid: every shape at the slices' scale and y classes,
    all 40 orientations and 32 x positions (3,840 images rendered here, binary as dSprites' are), for tests and
    ``make gpu-check``. Not DeepMind's images: their format."""
    from .dsprites import render

    rows, imgs = [], []
    positions = np.linspace(0, 1, 32)
    for s, shape in enumerate(SHAPES):
        for r in range(40):
            for x in range(32):
                image = render(shape, 0.2, r * 2 * np.pi / 40, 0.25 + 0.5 * positions[x], 0.5, resolution=64,
                               supersample=1)  # fmt: skip
                imgs.append((image > 0).astype(np.uint8))
                rows.append([0, s, SCALE_CLASS, r, x, Y_CLASS])
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, imgs=np.array(imgs), latents_classes=np.array(rows, dtype=np.int64))
    return path


def write_coil_replica(folder: str | os.PathLike, objects: int = 20) -> Path:
    """A ``coil-20-proc`` folder of ``objects`` objects x 72 poses, 128 x 128 grey PNGs (an ellipse turning with
    the pose), for tests and ``make gpu-check``."""
    from PIL import Image, ImageDraw

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(1, objects + 1):
        for pose in range(COIL_POSES):
            image = Image.new("L", (128, 128), 0)
            width = 20 + 20 * abs(np.cos(pose * np.pi / 36)) + 6 * index
            ImageDraw.Draw(image).ellipse((64 - width, 34, 64 + width, 94), fill=200)
            image.save(folder / f"obj{index}__{pose}.png")
    return folder
