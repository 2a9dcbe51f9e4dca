"""Procedural dense-prediction scenes: the stand-in for PASCAL-Context and NYUD-v2 (substitution).

Each scene is a tilted, textured background plane with 1-4 occluding shapes (disc, square, triangle, ring:
the segmentation classes 1-4, background 0). Every shape is a textured plane ``z = z0 + a (x - cx) + b (y - cy)``
at its own depth and tilt; a per-pixel z-buffer decides who is in front, and Lambertian shading by the plane's
normal puts the geometry into the pixels. The dense targets follow from the same planes, so they are exact:

- ``seg``: the class of the visible surface; ``depth``: its z; ``normals``: ``(-a, -b, 1) / norm`` of its plane;
- ``edges``: occlusion boundaries, a pixel whose 4-neighbourhood holds another visible surface (both sides are
  marked, so the map is two pixels thick) -- ours; on scenes whose shapes have distinct classes it equals the
  segmentation boundary (a test checks it);
- ``saliency``: the visible pixels of the frontmost shape (smallest ``z0``) -- ours;
- ``present``: which classes are visible (the multi-label target of the semantic teacher).

Coordinates are in [0, 1] across the image; depths in (0, 1.5). ``generate(n, seed, size)`` is deterministic by
seed (one numpy Generator, scenes drawn in order). A user's own dataset (paper scale) is an ``.npz`` with the
same arrays, checked by :func:`validate`.
"""

from __future__ import annotations

import numpy as np

CLASSES = ("background", "disc", "square", "triangle", "ring")
TEXTURES = ("plain", "stripes", "checker")
LIGHT = np.array([-0.4, -0.5, 0.77]) / np.linalg.norm([-0.4, -0.5, 0.77])
ARRAYS = ("images", "seg", "depth", "edges", "normals", "saliency", "present")


def shape_mask(kind: int, x: np.ndarray, y: np.ndarray, cx: float, cy: float, r: float, angle: float) -> np.ndarray:
    """Pixels inside a shape of class ``kind`` (1-4) centred at (cx, cy) with radius ``r``, rotated by ``angle``."""
    dx, dy = x - cx, y - cy
    u = np.cos(angle) * dx + np.sin(angle) * dy
    v = -np.sin(angle) * dx + np.cos(angle) * dy
    if kind == 1:
        return u**2 + v**2 <= r**2
    if kind == 2:
        return (np.abs(u) <= r * 0.8) & (np.abs(v) <= r * 0.8)
    if kind == 3:  # equilateral triangle pointing up in its own frame
        return (v >= -0.5 * r) & (v <= r - np.sqrt(3) * np.abs(u))
    if kind == 4:  # an annulus: what lies behind shows through its hole
        return (u**2 + v**2 <= r**2) & (u**2 + v**2 >= (0.5 * r) ** 2)
    raise ValueError(f"shape class must be 1-4, got {kind}")


def _texture(kind: str, x, y, frequency: float, angle: float) -> np.ndarray:
    if kind == "plain":
        return np.zeros_like(x)
    t = np.cos(angle) * x + np.sin(angle) * y
    if kind == "stripes":
        return np.sign(np.sin(2 * np.pi * frequency * t))
    s = np.cos(angle) * y - np.sin(angle) * x
    return np.sign(np.sin(2 * np.pi * frequency * t) * np.sin(2 * np.pi * frequency * s))


def boundary(labels: np.ndarray) -> np.ndarray:
    """Pixels (of an ``[H, W]`` label map) with a 4-neighbour of another label; both sides are marked."""
    out = np.zeros(labels.shape, bool)
    vertical = labels[1:, :] != labels[:-1, :]
    horizontal = labels[:, 1:] != labels[:, :-1]
    out[1:, :] |= vertical
    out[:-1, :] |= vertical
    out[:, 1:] |= horizontal
    out[:, :-1] |= horizontal
    return out


def render(shapes: list[dict], background: dict, size: int, noise: float, rng: np.random.Generator) -> dict:
    """One scene from explicit shape parameters (the generator draws them; tests place them by hand).

    A shape: ``kind`` (1-4), ``cx``, ``cy``, ``r``, ``angle``, ``z0``, ``a``, ``b``, ``colour`` (RGB in [0, 1]),
    ``texture``, ``frequency``, ``texture_angle``. The background: ``z0``, ``a``, ``b``, ``colour``, ``texture``,
    ``frequency``, ``texture_angle``.
    """
    y, x = (np.mgrid[0:size, 0:size] + 0.5) / size
    depth = background["z0"] + background["a"] * (x - 0.5) + background["b"] * (y - 0.5)
    owner = np.zeros((size, size), int)  # 0 background, i + 1 shape i
    for i, s in enumerate(shapes):
        z = s["z0"] + s["a"] * (x - s["cx"]) + s["b"] * (y - s["cy"])
        front = shape_mask(s["kind"], x, y, s["cx"], s["cy"], s["r"], s["angle"]) & (z < depth)
        depth = np.where(front, z, depth)
        owner = np.where(front, i + 1, owner)
    surfaces = [background, *shapes]
    kinds = np.array([0] + [s["kind"] for s in shapes])
    slopes = np.array([[s["a"], s["b"]] for s in surfaces])
    normals = np.stack([-slopes[owner, 0], -slopes[owner, 1], np.ones((size, size))])
    normals /= np.linalg.norm(normals, axis=0, keepdims=True)
    shading = 0.35 + 0.65 * np.clip(np.tensordot(LIGHT, normals, axes=1), 0, 1)
    image = np.zeros((3, size, size))
    for i, s in enumerate(surfaces):
        mask = owner == i
        if not mask.any():
            continue
        pattern = 1 + 0.25 * _texture(s["texture"], x, y, s["frequency"], s["texture_angle"])
        image[:, mask] = np.asarray(s["colour"])[:, None] * (pattern * shading)[mask][None, :]
    image = np.clip(image + noise * rng.standard_normal(image.shape), 0, 1)
    visible = np.unique(owner)
    front = min((i for i in visible if i > 0), key=lambda i: shapes[i - 1]["z0"], default=None)
    present = np.zeros(len(CLASSES) - 1, np.uint8)
    present[[kinds[i] - 1 for i in visible if i > 0]] = 1
    return {
        "images": np.round(image * 255).astype(np.uint8),
        "seg": kinds[owner].astype(np.uint8),
        "depth": depth.astype(np.float32),
        "edges": boundary(owner).astype(np.uint8),
        "normals": normals.astype(np.float32),
        "saliency": (owner == front).astype(np.uint8) if front is not None else np.zeros((size, size), np.uint8),
        "present": present,
    }


def _surface(rng: np.random.Generator) -> dict:
    return {
        "colour": rng.uniform(0.15, 1.0, 3),
        "texture": TEXTURES[rng.integers(len(TEXTURES))],
        "frequency": rng.uniform(3, 7),
        "texture_angle": rng.uniform(0, np.pi),
    }


def draw(rng: np.random.Generator, max_shapes: int = 4) -> tuple[list[dict], dict]:
    """Random shape and background parameters for one scene."""
    background = {"z0": rng.uniform(1.1, 1.3), "a": rng.uniform(-0.3, 0.3), "b": rng.uniform(-0.3, 0.3)}
    background |= _surface(rng)
    shapes = []
    for _ in range(rng.integers(1, max_shapes + 1)):
        shapes.append(
            {
                "kind": int(rng.integers(1, len(CLASSES))),
                "cx": rng.uniform(0.2, 0.8),
                "cy": rng.uniform(0.2, 0.8),
                "r": rng.uniform(0.12, 0.3),
                "angle": rng.uniform(0, 2 * np.pi),
                "z0": rng.uniform(0.2, 0.9),
                "a": rng.uniform(-0.8, 0.8),
                "b": rng.uniform(-0.8, 0.8),
            }
            | _surface(rng)
        )
    return shapes, background


def generate(n: int, seed: int, size: int = 32, noise: float = 0.02) -> dict[str, np.ndarray]:
    """``n`` scenes as stacked arrays (images ``[n, 3, H, W]`` uint8, seg/edges/saliency ``[n, H, W]`` uint8,
    depth ``[n, H, W]`` float32, normals ``[n, 3, H, W]`` float32, present ``[n, 4]`` uint8)."""
    rng = np.random.default_rng(seed)
    scenes = [render(*draw(rng), size=size, noise=noise, rng=rng) for _ in range(n)]
    return {key: np.stack([s[key] for s in scenes]) for key in ARRAYS}


def validate(arrays: dict[str, np.ndarray]) -> str | None:
    """What is wrong with a dataset's arrays (a user's file, or one read from PASCAL-Context / NYUD-v2), or None.
    A file without a ``tasks`` array must hold every array of the scenes (``ARRAYS``); one with it, the images and
    the declared tasks' labels (``tasks.IGNORE`` marks a missing label)."""
    from .tasks import IGNORE, TASKS, of

    if ("tasks" in arrays) != ("classes" in arrays):
        return "a data set declares its tasks with both a 'tasks' and a 'classes' array"
    unknown = [str(t) for t in arrays.get("tasks", []) if str(t) not in TASKS]
    if unknown:
        return f"unknown task(s) {unknown}; tasks are {list(TASKS)}"
    tasks = of(arrays)
    required = ARRAYS if "tasks" not in arrays else ("images", *tasks)
    missing = [k for k in required if k not in arrays]
    if missing:
        return f"missing array(s) {missing}"
    images = arrays["images"]
    if images.ndim != 4 or images.shape[1] != 3 or images.dtype != np.uint8:
        return f"images must be uint8 [n, 3, H, W], got {images.dtype} {list(images.shape)}"
    n, _, h, w = images.shape
    if h != w:
        return f"images must be square, got {h} x {w}"
    labels = tasks if "tasks" in arrays else ("seg", "depth", "edges", "normals", "saliency")
    shapes = {k: (n, 3, h, w) if k == "normals" else (n, h, w) for k in labels}
    for key, shape in shapes.items():
        if tuple(arrays[key].shape) != shape:
            return f"{key} must have shape {list(shape)}, got {list(arrays[key].shape)}"
    if "present" in arrays and (arrays["present"].ndim != 2 or len(arrays["present"]) != n):
        return f"present must have shape [{n}, classes], got {list(arrays['present'].shape)}"
    for task, channels in tasks.items():
        kind, values = TASKS[task].kind, arrays[task]
        labelled = values[values != IGNORE] if kind == "labels" else None
        if kind == "labels" and labelled.max(initial=0) >= channels:
            return f"{task} holds class {int(labelled.max())}; classes are 0-{channels - 1} ({IGNORE}: none)"
        if kind == "binary" and not np.isin(values, (0, 1, IGNORE)).all():
            return f"{task} must hold 0, 1 or {IGNORE} (none), got {sorted(np.unique(values))[:5]}"
        if kind in ("depth", "normals") and not np.isfinite(values).all():
            return f"{task} holds non-finite values"
    return None
