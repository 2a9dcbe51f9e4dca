"""NYUD-v2 in the multi-task layout the paper's code reads (``NYUD_MT``): four tasks, 40 classes.

    <root>/gt_sets/train.txt, val.txt     image ids, one per line
    <root>/images/<id>.png (or .jpg)      RGB
    <root>/segmentation/<id>.png          classes 1-40, 0 unlabelled
    <root>/depth/<id>.npy                 metres, 0 missing
    <root>/normals/<id>.png               RGB in [0, 255] for [-1, 1]; (0, 0, 0) missing
    <root>/edge/<id>.png                  0 / 255

Read into a data set file (``scenes.validate``'s arrays with a ``tasks`` header): segmentation shifted to 0-39 with
``tasks.IGNORE`` for unlabelled, depth as is, normals decoded (the black pixels of the file missing, ours: the
reference's loader decodes them to (-1, -1, -1)), edges above half, ``present`` the classes each image shows; every map
brought to ``size`` pixels by ``squares``. Every file is checked as it is read (exists, RGB, shapes agree, classes in
range, depth finite) and a wrong one fails in one line naming it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import squares
from .label_files import find, gray, normal_map, rgb, same_shape, split_ids
from .tasks import IGNORE, header, present

TASKS = {"seg": 40, "depth": 1, "edges": 1, "normals": 3}
SPLITS = {"train": "train.txt", "test": "val.txt"}


def split_files(root: str | Path) -> list[str]:
    """The files naming the two splits (the workflow's declared inputs)."""
    return [str(Path(root) / "gt_sets" / name) for name in SPLITS.values()]


def ids(root: str | Path, split: str) -> list[str]:
    return split_ids(Path(root) / "gt_sets" / SPLITS[split], "NYUD-v2 (NYUD_MT layout)")


def image(root: Path, name: str, size: int) -> dict[str, np.ndarray]:
    from ..common.sources import fail

    picture = rgb(find(root, "images", name, (".png", ".jpg")))
    shape = picture.shape[:2]
    seg_path = find(root, "segmentation", name, (".png",))
    classes = same_shape(seg_path, gray(seg_path), shape).astype(np.int64)
    if classes.max() > TASKS["seg"]:
        fail(seg_path, f"holds class {int(classes.max())}; NYUD-v2 has classes 1-{TASKS['seg']} (0 unlabelled)")
    depth_path = find(root, "depth", name, (".npy",))
    depth = same_shape(depth_path, np.load(depth_path, allow_pickle=False), shape)
    if depth.ndim != 2 or not np.isfinite(depth).all() or (depth < 0).any():
        fail(depth_path, "expected an H x W array of finite depths >= 0 (0: missing)")
    normals_path = find(root, "normals", name, (".png",))
    edge_path = find(root, "edge", name, (".png",))
    edges = same_shape(edge_path, gray(edge_path), shape)
    seg = np.where(classes == 0, IGNORE, classes - 1)
    picked = squares.nearest(seg, size)
    return {
        "images": squares.image(picture, size),
        "seg": picked.astype(np.uint8),
        "depth": squares.nearest(depth, size).astype(np.float32),
        "edges": squares.boundary((edges > 127).astype(np.uint8), size),
        "normals": squares.normals(same_shape(normals_path, normal_map(normals_path), shape), size),
        "present": present(picked, TASKS["seg"]),
    }


def read(root: str | Path, split: str, size: int, log=print) -> dict[str, np.ndarray]:
    """One split (``train`` or ``test``, the reference's ``val``) as a data set file's arrays."""
    root = Path(root)
    names = ids(root, split)
    log(f"NYUD-v2 {split}: {len(names)} images from {root} at {size} x {size}")
    rows = []
    for i, name in enumerate(names, 1):
        rows.append(image(root, name, size))
        if i % 200 == 0:
            log(f"NYUD-v2 {split}: {i}/{len(names)} images")
    arrays = {key: np.stack([row[key] for row in rows]) for key in rows[0]}
    return arrays | header(TASKS)


def write_replica(folder: str | Path, train: int = 8, test: int = 4, seed: int = 0) -> Path:
    """A tiny NYUD-v2 in exactly the layout above, for tests: procedural scenes (``scenes``) at 48 x 60 pixels
    (wider than high, as NYUD's are), classes 1-5 with an unlabelled corner, a missing depth corner, and black
    normals there."""
    from PIL import Image

    from . import scenes

    folder = Path(folder)
    for sub in ("gt_sets", "images", "segmentation", "depth", "normals", "edge"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    data = scenes.generate(train + test, seed, size=48)
    widen = lambda a: np.pad(a, [(0, 0), (6, 6)] + [(0, 0)] * (a.ndim - 2), mode="edge")  # noqa: E731
    names = [f"{i:04d}" for i in range(train + test)]
    for i, name in enumerate(names):
        seg = widen(data["seg"][i].astype(np.uint8) + 1)
        seg[:4, 8:12] = 0  # inside the centre square the student sees
        depth = widen(np.clip(data["depth"][i], 0.05, None))
        depth[-4:, -12:-8] = 0
        normals = np.round((widen(data["normals"][i].transpose(1, 2, 0)) + 1) / 2 * 255).astype(np.uint8)
        normals[-4:, -12:-8] = 0
        Image.fromarray(widen(data["images"][i].transpose(1, 2, 0))).save(folder / "images" / f"{name}.png")
        Image.fromarray(seg).save(folder / "segmentation" / f"{name}.png")
        np.save(folder / "depth" / f"{name}.npy", depth.astype(np.float32))
        Image.fromarray(normals).save(folder / "normals" / f"{name}.png")
        Image.fromarray(widen(data["edges"][i] * 255).astype(np.uint8)).save(folder / "edge" / f"{name}.png")
    (folder / "gt_sets" / "train.txt").write_text("".join(f"{n}\n" for n in names[:train]))
    (folder / "gt_sets" / "val.txt").write_text("".join(f"{n}\n" for n in names[train:]))
    return folder
