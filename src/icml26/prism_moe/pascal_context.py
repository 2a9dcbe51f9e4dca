"""PASCAL-Context in the multi-task layout the paper's code reads (``PASCAL_MT``): five tasks, no depth.

    <root>/ImageSets/Context/train.txt, val.txt   image ids, one per line
    <root>/JPEGImages/<id>.jpg                    RGB
    <root>/semseg/pascal-context/<id>.png         21 classes (0 background), 255 unlabelled (or semseg/VOC12/)
    <root>/human_parts/<id>.mat                   PASCAL-Part annotation (``anno.objects``: class_ind, parts)
    <root>/pascal-context/trainval/<id>.mat       ``LabelMap``: the 459 context classes, for edges and normals
    <root>/normals_distill/<id>.png               RGB in [0, 255] for [-1, 1]
    <root>/sal_distill/<id>.png                   saliency, above half salient
    <root>/json/context_classes.json              context class name -> LabelMap id
    <root>/json/nyu_classes.json                  the NYUD class names (where the distilled normals are valid)

Read into a data set file as the reference reads it: human parts are the parts of every person (PASCAL-Part class
15) mapped to 6 parts (``HUMAN_PARTS``; 0 elsewhere, and everywhere on images with no person); edges are the
boundaries of the context label map (both sides marked, ours: the reference thins its Laplacian to one pixel, which
the reduction to the student's grid erases anyway); normals count only on context classes that NYUD-v2 has (plus
the tv monitor, as the reference adds), missing elsewhere; saliency above half. Every map is brought to ``size``
pixels by ``squares`` and every file checked as it is read.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import squares
from .label_files import find, gray, normal_map, rgb, same_shape, split_ids
from .scenes import boundary
from .tasks import IGNORE, header, present

TASKS = {"seg": 21, "parts": 7, "normals": 3, "edges": 1, "saliency": 1}
SPLITS = {"train": "train.txt", "test": "val.txt"}
PERSON = 15  # PASCAL VOC's class index of a person
HUMAN_PARTS = {  # PASCAL-Part's part names of a person -> head, torso, upper arm, lower arm, upper leg, lower leg
    **dict.fromkeys(("hair", "head", "lear", "lebrow", "leye", "mouth", "nose", "rear", "rebrow", "reye"), 1),
    **dict.fromkeys(("neck", "torso"), 2),
    **dict.fromkeys(("luarm", "ruarm"), 3),
    **dict.fromkeys(("lhand", "llarm", "rhand", "rlarm"), 4),
    **dict.fromkeys(("luleg", "ruleg"), 5),
    **dict.fromkeys(("lfoot", "llleg", "rfoot", "rlleg"), 6),
}


def split_files(root: str | Path) -> list[str]:
    """The files naming the two splits (the workflow's declared inputs)."""
    return [str(Path(root) / "ImageSets" / "Context" / name) for name in SPLITS.values()]


def ids(root: Path, split: str) -> list[str]:
    return split_ids(root / "ImageSets" / "Context" / SPLITS[split], "PASCAL-Context (PASCAL_MT layout)")


def _mat(path: Path, key: str):
    from scipy.io import loadmat

    from ..common.sources import fail

    try:
        content = loadmat(path, squeeze_me=True, struct_as_record=False)
    except (ValueError, TypeError, OSError) as error:
        fail(path, f"not a MATLAB file: {error}")
    if key not in content:
        fail(path, f"has no '{key}' (expected a {'PASCAL-Part annotation' if key == 'anno' else 'context label map'})")
    return content[key]


def valid_normal_classes(root: Path) -> np.ndarray:
    """The LabelMap ids of context classes that NYUD-v2 also has (its normals are valid there), and the monitor."""
    from ..common.sources import fail

    names = {}
    for name in ("context_classes.json", "nyu_classes.json"):
        path = find(root, "json", name.removesuffix(".json"), (".json",))
        try:
            names[name] = json.loads(path.read_text())
        except json.JSONDecodeError as error:
            fail(path, f"not JSON: {error}")
    context = names["context_classes.json"]
    if not isinstance(context, dict):
        fail(root / "json" / "context_classes.json", "expected an object of class name -> label id")
    shared = [context[c] for c in names["nyu_classes.json"] if c in context and c != "unknown"]
    return np.array([*shared, *([context["tvmonitor"]] if "tvmonitor" in context else [])], np.int64)


def human_parts(path: Path, shape: tuple[int, int]) -> np.ndarray:
    """The 6-part map of every person in a PASCAL-Part annotation (0 elsewhere); an unknown part fails naming it."""
    from ..common.sources import fail

    target = np.zeros(shape, np.uint8)
    for obj in np.atleast_1d(_mat(path, "anno").objects):
        if int(obj.class_ind) != PERSON:
            continue
        for part in np.atleast_1d(obj.parts):
            if not hasattr(part, "part_name"):
                continue  # a person without parts
            name = str(part.part_name)
            if name not in HUMAN_PARTS:
                fail(path, f"person part '{name}' is none of PASCAL-Part's ({', '.join(sorted(HUMAN_PARTS))})")
            target[same_shape(path, np.asarray(part.mask), shape).astype(bool)] = HUMAN_PARTS[name]
    return target


def image(root: Path, name: str, size: int, normal_classes: np.ndarray) -> dict[str, np.ndarray]:
    from ..common.sources import fail

    picture = rgb(find(root, "JPEGImages", name, (".jpg", ".png")))
    shape = picture.shape[:2]
    voc = (root / "semseg" / "VOC12" / f"{name}.png").is_file()  # the reference prefers VOC's labels where both are
    seg_path = find(root, "semseg/VOC12" if voc else "semseg/pascal-context", name, (".png",))
    seg = same_shape(seg_path, gray(seg_path), shape)
    if seg[seg != IGNORE].max(initial=0) >= TASKS["seg"]:
        fail(seg_path, f"holds class {int(seg[seg != IGNORE].max())}; PASCAL-Context's are 0-20 ({IGNORE}: none)")
    context_path = find(root, "pascal-context/trainval", name, (".mat",))
    context = same_shape(context_path, np.asarray(_mat(context_path, "LabelMap")), shape)
    normals_path = find(root, "normals_distill", name, (".png",))
    vectors = same_shape(normals_path, normal_map(normals_path), shape)
    vectors = np.where(np.isin(context, normal_classes)[..., None], vectors, 0.0)
    saliency_path = find(root, "sal_distill", name, (".png",))
    saliency = same_shape(saliency_path, gray(saliency_path), shape)
    picked = squares.nearest(seg, size).astype(np.uint8)
    return {
        "images": squares.image(picture, size),
        "seg": picked,
        "parts": squares.nearest(human_parts(find(root, "human_parts", name, (".mat",)), shape), size),
        "normals": squares.normals(vectors, size),
        "edges": squares.boundary(boundary(context).astype(np.uint8), size),
        "saliency": squares.nearest((saliency > 127).astype(np.uint8), size),
        "present": present(picked, TASKS["seg"]),
    }


def read(root: str | Path, split: str, size: int, log=print) -> dict[str, np.ndarray]:
    """One split (``train`` or ``test``, the reference's ``val``) as a data set file's arrays."""
    root = Path(root)
    names = ids(root, split)
    normal_classes = valid_normal_classes(root)
    log(f"PASCAL-Context {split}: {len(names)} images from {root} at {size} x {size}")
    rows = []
    for i, name in enumerate(names, 1):
        rows.append(image(root, name, size, normal_classes))
        if i % 500 == 0:
            log(f"PASCAL-Context {split}: {i}/{len(names)} images")
    arrays = {key: np.stack([row[key] for row in rows]) for key in rows[0]}
    return arrays | header(TASKS)


CONTEXT_CLASSES = {"background": 0, "wall": 3, "floor": 5, "bed": 7, "tvmonitor": 9, "sky": 11}  # the replica's


def write_replica(folder: str | Path, train: int = 8, test: int = 4, seed: int = 0) -> Path:
    """A tiny PASCAL-Context in exactly the layout above, for tests: procedural scenes (``scenes``) at 48 x 60 pixels;
    classes 0-4 with an unlabelled corner; a person (PASCAL-Part class 15) whose head is the first shape and torso
    the second, beside a dog without parts; a context label map of a few classes, two of them NYUD's."""
    from PIL import Image
    from scipy.io import savemat

    from . import scenes

    folder = Path(folder)
    subs = ("ImageSets/Context", "JPEGImages", "semseg/pascal-context", "human_parts", "pascal-context/trainval")
    for sub in (*subs, "normals_distill", "sal_distill", "json"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    data = scenes.generate(train + test, seed, size=48)
    widen = lambda a: np.pad(a, [(0, 0), (6, 6)] + [(0, 0)] * (a.ndim - 2), mode="edge")  # noqa: E731
    names = [f"2008_{i:06d}" for i in range(train + test)]
    ids = list(CONTEXT_CLASSES.values())
    for i, name in enumerate(names):
        seg = widen(data["seg"][i].astype(np.uint8))
        seg[:4, 8:12] = IGNORE  # inside the centre square the student sees
        Image.fromarray(widen(data["images"][i].transpose(1, 2, 0))).save(folder / "JPEGImages" / f"{name}.jpg")
        Image.fromarray(seg).save(folder / "semseg" / "pascal-context" / f"{name}.png")
        context = np.array(ids, np.uint16)[widen(data["seg"][i].astype(np.int64)) % len(ids)]
        savemat(folder / "pascal-context" / "trainval" / f"{name}.mat", {"LabelMap": context})
        normals = np.round((widen(data["normals"][i].transpose(1, 2, 0)) + 1) / 2 * 255).astype(np.uint8)
        Image.fromarray(normals).save(folder / "normals_distill" / f"{name}.png")
        Image.fromarray(widen(data["saliency"][i] * 255).astype(np.uint8)).save(folder / "sal_distill" / f"{name}.png")
        fields = [("class", object), ("class_ind", object), ("mask", object), ("parts", object)]
        objects = np.empty((1, 2), dtype=fields)
        parts = np.empty((1, 2), dtype=[("part_name", object), ("mask", object)])
        parts[0, 0] = ("head", (seg == 1).astype(np.uint8))
        parts[0, 1] = ("torso", (seg == 2).astype(np.uint8))
        objects[0, 0] = ("person", PERSON, ((seg == 1) | (seg == 2)).astype(np.uint8), parts)
        objects[0, 1] = ("dog", 12, (seg == 3).astype(np.uint8), np.zeros((0, 0)))
        savemat(folder / "human_parts" / f"{name}.mat", {"anno": {"imname": name, "objects": objects}})
    (folder / "ImageSets" / "Context" / "train.txt").write_text("".join(f"{n}\n" for n in names[:train]))
    (folder / "ImageSets" / "Context" / "val.txt").write_text("".join(f"{n}\n" for n in names[train:]))
    (folder / "json" / "context_classes.json").write_text(json.dumps(CONTEXT_CLASSES))
    (folder / "json" / "nyu_classes.json").write_text(json.dumps(["unknown", "wall", "floor", "bed"]))
    return folder
