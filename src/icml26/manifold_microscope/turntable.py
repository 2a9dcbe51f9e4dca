"""A COIL-20 stand-in: procedurally rendered turntable images of synthetic 3-D objects.

SUBSTITUTION: COIL-20 (20 objects x 72 turntable poses, Columbia) cannot be obtained offline. Each of
our 20 objects is a union of 2-4 ellipsoids drawn from a seeded generator (the spec also allows boxes
and tori; we use ellipsoids only, whose ray intersections are closed-form). An image is an
orthographic view along ``z`` of the object turned by ``pose`` about the vertical axis (the turntable,
out-of-plane) and by ``roll`` about the viewing axis (in-plane, our extra axis), scaled by ``size``;
Lambertian shading from a fixed light, 2x2 supersampling, optional Gaussian blur, values in [-1, 1]
(background -1). Both angles are cyclic over 2 pi, so a (pose x roll) slice is a torus-like grid
that :mod:`.geometry` measures like the dSprites slices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.ndimage import gaussian_filter

LIGHT = np.array([0.4, 0.5, 0.77]) / np.linalg.norm([0.4, 0.5, 0.77])


@dataclass(frozen=True)
class Ellipsoid:
    centre: np.ndarray  # (3,)
    axes: np.ndarray  # (3,) semi-axes
    rotation: np.ndarray  # (3, 3) orientation


def _rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.diag(r))


def make_object(index: int, seed: int = 0) -> list[Ellipsoid]:
    """Object ``index`` (0-19): 2-4 ellipsoids around the turntable axis, fitting in the unit ball."""
    rng = np.random.default_rng([seed, index])
    parts = []
    for _ in range(int(rng.integers(2, 5))):
        axes = rng.uniform(0.15, 0.45, size=3)
        centre = rng.uniform(-0.3, 0.3, size=3)
        parts.append(Ellipsoid(centre, axes, _rotation(rng)))
    return parts


def _turn(pose: float, roll: float) -> np.ndarray:
    """World-from-view rotation: turntable angle about y, then in-plane roll about z."""
    cp, sp, cr, sr = np.cos(pose), np.sin(pose), np.cos(roll), np.sin(roll)
    about_y = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    about_z = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]])
    return about_y.T @ about_z


def render(
    parts: list[Ellipsoid],
    pose: float,
    roll: float = 0.0,
    size: float = 1.0,
    *,
    resolution: int = 32,
    supersample: int = 2,
    blur: float = 0.8,
) -> np.ndarray:
    """One (resolution, resolution) image in [-1, 1]."""
    n = resolution * supersample
    u = (np.arange(n) + 0.5) / n * 2.0 - 1.0  # field of view [-1, 1]^2; objects fit in the unit ball
    U, V = np.meshgrid(u, -u)
    R = _turn(pose, roll)
    origin = (np.stack([U, V, np.full_like(U, 3.0)], axis=-1) / size) @ R.T  # rays in object coordinates
    direction = np.array([0.0, 0.0, -1.0]) @ R.T
    depth = np.full(U.shape, np.inf)
    shade = np.zeros(U.shape)
    for e in parts:
        # ray-ellipsoid: |A (o + t d - c)|^2 = 1 with A = diag(1/axes) rotation^T
        A = e.rotation.T / e.axes[:, None]
        o = (origin - e.centre) @ A.T
        d = A @ direction
        a, b, c = d @ d, 2 * (o @ d), (o * o).sum(-1) - 1
        disc = b * b - 4 * a * c
        t = np.where(disc >= 0, (-b - np.sqrt(np.clip(disc, 0, None))) / (2 * a), np.inf)
        hit = t < depth
        point = o + np.where(np.isfinite(t), t, 0.0)[..., None] * d  # on the unit sphere where hit
        normal = point @ A  # the gradient of |A (x - c)|^2, up to a factor, in object coordinates
        normal = normal / np.linalg.norm(normal, axis=-1, keepdims=True).clip(1e-12)
        lambert = np.clip((normal @ R) @ LIGHT, 0, None)  # normal turned back to view coordinates
        depth = np.where(hit, t, depth)
        shade = np.where(hit, 0.2 + 0.8 * lambert, shade)
    image = np.where(np.isfinite(depth), shade, 0.0)
    image = image.reshape(resolution, supersample, resolution, supersample).mean(axis=(1, 3))
    if blur > 0:
        image = gaussian_filter(image, blur, mode="constant")
    return 2 * image - 1


def grid_dataset(parts: list[Ellipsoid], n_pose: int, n_roll: int, size: float, **render_kw) -> np.ndarray:
    """(n_pose, n_roll, pixels) images over the full turns of both angles."""
    poses = np.arange(n_pose) * 2 * np.pi / n_pose
    rolls = np.arange(n_roll) * 2 * np.pi / n_roll
    return np.stack([np.stack([render(parts, p, r, size, **render_kw).ravel() for r in rolls]) for p in poses])
