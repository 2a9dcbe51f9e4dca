"""The CoOp data sets (paper scale): few-shot image classification sets as CoOp prepares them, read from a folder.

Layout (CoOp's ``DATASETS.md``): a data set's folder holds its split file ``split_zhou_<Name>.json`` -- ``{"train":
[[image path, label, class name], ...], "val": [...], "test": [...]}`` -- beside its image folder (``images/`` for
Oxford Pets, ``101_ObjectCategories/`` for Caltech101, ``2750/`` for EuroSAT, ...), the paths relative to that
folder. The class names are the split's (CoOp's underscores read as spaces). Following the paper's protocol, the
black box is queried on ``shots`` training images per class (CoOp's 16 shots) and judged on the test split.

Images are read with Pillow, converted to RGB, resized on their short side to the black box's input size and
centre-cropped (CLIP's preprocessing; :func:`.blackbox.pixels` then normalises them), and kept as uint8.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

SPLIT_PREFIX = "split_zhou_"


def _split_file(root: Path) -> Path:
    from ..common.sources import fail

    if not root.is_dir():
        fail(root, "no such CoOp data set folder (split_zhou_<Name>.json beside its image folder)")
    found = sorted(root.glob(f"{SPLIT_PREFIX}*.json"))
    if len(found) != 1:
        fail(root, f"expected one {SPLIT_PREFIX}<Name>.json (CoOp's split file), found {len(found)}")
    return found[0]


def _image_folder(root: Path, first: str, split: Path) -> Path:
    """The folder the split's paths are relative to: the data set folder or one of its subfolders."""
    from ..common.sources import fail

    for folder in (root, *sorted(p for p in root.iterdir() if p.is_dir())):
        if (folder / first).is_file():
            return folder
    fail(split, f"its first image {first} is neither under {root} nor under any of its subfolders")


def read_split(root: str | os.PathLike) -> tuple[list[str], dict[str, list[tuple[Path, int]]]]:
    """``(class names by label, {"train": [(image, label)], "test": [...]})`` of the CoOp data set in ``root``; a
    split file of another shape is one line naming it."""
    from ..common.sources import fail

    root = Path(root)
    split = _split_file(root)
    try:
        parts = json.loads(split.read_text())
        rows = {part: [(str(p), int(label), str(name)) for p, label, name in parts[part]] for part in ("train", "test")}
    except (ValueError, KeyError, TypeError) as error:
        fail(split, f"not a CoOp split file: train and test lists of [image, label, class name] ({error})")
    if not rows["train"] or not rows["test"]:
        fail(split, "its train or test list is empty")
    names: dict[int, str] = {}
    for _, label, name in rows["train"] + rows["test"]:
        if names.setdefault(label, name) != name:
            fail(split, f"label {label} is named both {names[label]!r} and {name!r}")
    if sorted(names) != list(range(len(names))):
        fail(split, f"labels must run 0..{len(names) - 1}, found {sorted(names)[:5]}...")
    folder = _image_folder(root, rows["train"][0][0], split)
    classes = [names[label].replace("_", " ") for label in range(len(names))]
    return classes, {part: [(folder / p, label) for p, label, _ in rows[part]] for part in rows}


def few_shot(items: list[tuple[Path, int]], shots: int, seed: int) -> list[tuple[Path, int]]:
    """``shots`` items per class drawn without replacement (all of a class with fewer), in label order."""
    rng = np.random.default_rng(seed)
    chosen = []
    for label in sorted({label for _, label in items}):
        of_class = [item for item in items if item[1] == label]
        pick = rng.choice(len(of_class), size=min(shots, len(of_class)), replace=False)
        chosen += [of_class[i] for i in sorted(pick)]
    return chosen


def subset(items: list[tuple[Path, int]], count: int, seed: int) -> list[tuple[Path, int]]:
    """``count`` items drawn without replacement (all when there are no more), in file order."""
    if count >= len(items):
        return items
    pick = np.random.default_rng(seed).choice(len(items), size=count, replace=False)
    return [items[i] for i in sorted(pick)]


def load_images(items: list[tuple[Path, int]], size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(images [n, 3, size, size] uint8, labels)``: RGB, short side resized to ``size``, centre-cropped; an
    unreadable image is one line naming it."""
    from PIL import Image, UnidentifiedImageError

    from ..common.sources import fail

    images = np.empty((len(items), 3, size, size), dtype=np.uint8)
    for i, (path, _) in enumerate(items):
        try:
            with Image.open(path) as opened:
                image = opened.convert("RGB")
        except (OSError, UnidentifiedImageError) as error:
            fail(path, f"not a readable image ({type(error).__name__})")
        scale = size / min(image.size)
        image = image.resize((max(size, round(image.width * scale)), max(size, round(image.height * scale))),
                             Image.Resampling.BICUBIC)  # fmt: skip
        left, top = (image.width - size) // 2, (image.height - size) // 2
        images[i] = np.asarray(image.crop((left, top, left + size, top + size))).transpose(2, 0, 1)
    return images, np.array([label for _, label in items], dtype=np.int64)


def write_replica(folder: str | os.PathLike, classes: int = 4, per_class: int = 10, size: int = 40) -> Path:
    """A tiny data set in CoOp's layout (``split_zhou_Replica.json`` beside ``images/``; JPEG files of several sizes
    and modes, one grey), for tests and ``make gpu-check``: class ``k`` a disc of its own colour."""
    from PIL import Image, ImageDraw

    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    names = ["red_disc", "green disc", "blue disc", "yellow disc", "purple disc", "cyan disc"][:classes]
    colours = [(220, 30, 30), (30, 200, 30), (30, 30, 220), (230, 220, 20), (150, 30, 160), (20, 210, 210)]
    rows = []
    for label, name in enumerate(names):
        for k in range(per_class):
            width = size + 8 * (k % 3)
            image = Image.new("RGB", (width, size), (240, 240, 240))
            ImageDraw.Draw(image).ellipse((6 + k, 6, size - 6 + k, size - 6), fill=colours[label])
            if k == per_class - 1:
                image = image.convert("L")  # a grey image: read as RGB
            path = f"{label}_{k}.jpg"  # relative to images/, as CoOp's splits are to their image folder
            image.save(folder / "images" / path, quality=95)
            rows.append([path, label, name])
    split = {"train": rows[0::2], "val": [], "test": rows[1::2]}
    (folder / f"{SPLIT_PREFIX}Replica.json").write_text(json.dumps(split))
    return folder
