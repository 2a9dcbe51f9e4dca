"""dSprites-style images, procedurally rendered (a substitution: DeepMind's dSprites cannot be downloaded
here and its exact outlines were never published).

Three shapes — a square (polygon), an ellipse and a heart (``x = 16 sin^3 t``,
``y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t``), each normalised to unit size —
are scaled, rotated and translated in the unit square, rasterised by
supersampling (each pixel is the covered fraction of ``supersample^2`` sub-pixels),
optionally blurred with a light Gaussian so that finite differences along the
latent axes are smooth, and mapped to ``[-1, 1]``. Labelled "dSprites-style,
procedurally rendered" in the config, the outputs and the README.
"""

from __future__ import annotations

import numpy as np
from matplotlib.path import Path
from scipy.ndimage import gaussian_filter

SHAPES = ("square", "ellipse", "heart")
# Rotation period of each shape: a cyclic rotation axis covers one period so the image map is injective.
ROTATION_PERIOD = {"square": np.pi / 2, "ellipse": np.pi, "heart": 2 * np.pi}
OUTLINE_POINTS = 400


def outline(shape: str) -> np.ndarray:
    """Closed outline (M, 2) centred at the origin, largest extent 1."""
    t = np.linspace(0, 2 * np.pi, OUTLINE_POINTS, endpoint=False)
    if shape == "square":
        pts = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    elif shape == "ellipse":
        pts = np.column_stack([0.5 * np.cos(t), 0.3 * np.sin(t)])
    elif shape == "heart":
        pts = np.column_stack(
            [16 * np.sin(t) ** 3, 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)]
        )
        pts = pts - (pts.max(axis=0) + pts.min(axis=0)) / 2
        pts = pts / (pts.max(axis=0) - pts.min(axis=0)).max()
    else:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    return pts


def coverage(
    shape: str, scale: float, rotation: float, x: float, y: float, resolution: int = 64, supersample: int = 4
) -> np.ndarray:
    """Covered fraction of every pixel (resolution x resolution, rows = y), in [0, 1]."""
    c, s = np.cos(rotation), np.sin(rotation)
    pts = scale * outline(shape) @ np.array([[c, s], [-s, c]]) + np.array([x, y])
    fine = resolution * supersample
    centres = (np.arange(fine) + 0.5) / fine
    X, Y = np.meshgrid(centres, centres)
    inside = Path(pts).contains_points(np.column_stack([X.ravel(), Y.ravel()])).reshape(fine, fine)
    return inside.reshape(resolution, supersample, resolution, supersample).mean(axis=(1, 3))


def render(
    shape: str,
    scale: float,
    rotation: float,
    x: float,
    y: float,
    *,
    resolution: int = 64,
    supersample: int = 4,
    blur: float = 0.0,
) -> np.ndarray:
    """The image in [-1, 1] (background -1)."""
    image = coverage(shape, scale, rotation, x, y, resolution, supersample)
    if blur > 0:
        image = gaussian_filter(image, blur, mode="constant")
    return 2 * image - 1


def grid_dataset(shape: str, axes: dict[str, np.ndarray], fixed: dict[str, float], **render_kw) -> np.ndarray:
    """Images on the product grid of ``axes`` (an ordered subset of scale/rotation/x/y), others ``fixed``:
    shape ``(len(a_1), ..., len(a_k), resolution**2)``."""
    names = list(axes)
    mesh = np.meshgrid(*axes.values(), indexing="ij")
    out = []
    for values in zip(*(m.ravel() for m in mesh)):
        latent = {**fixed, **dict(zip(names, values))}
        out.append(render(shape, latent["scale"], latent["rotation"], latent["x"], latent["y"], **render_kw).ravel())
    return np.array(out).reshape(*mesh[0].shape, -1)


LATENT_ORDER = ("rotation", "x", "y")


class RandomSlice:
    """Uniformly random latents of a d-dimensional slice (rotation, then x, then y), rendered.

    The sampler the bound-scaling study needs (``dim`` and ``at_random`` like a toy manifold); the
    other latents stay at ``fixed``. Positions range over ``position_range`` in unit image coordinates.
    """

    def __init__(self, shape: str, dim: int, position_range: tuple[float, float], fixed: dict[str, float], **render_kw):
        if not 1 <= dim <= len(LATENT_ORDER):
            raise ValueError(f"a dSprites slice has 1 to {len(LATENT_ORDER)} latent dimensions, got {dim}")
        self.shape, self.dim, self.fixed, self.render_kw = shape, dim, fixed, render_kw
        self.ranges = {"rotation": (0.0, ROTATION_PERIOD[shape]), "x": position_range, "y": position_range}

    def at_random(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, None]:
        names = LATENT_ORDER[: self.dim]
        draws = {n: rng.uniform(*self.ranges[n], size=count) for n in names}
        images = []
        for i in range(count):
            latent = {**self.fixed, **{n: draws[n][i] for n in names}}
            images.append(
                render(
                    self.shape, latent["scale"], latent["rotation"], latent["x"], latent["y"], **self.render_kw
                ).ravel()
            )
        return np.array(images), None
