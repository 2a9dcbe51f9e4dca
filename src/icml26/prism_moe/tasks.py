"""The dense-prediction tasks a data set can carry, and which ones a data set has.

The scenes carry four (``SCENES``: segmentation into 5 classes, depth, edges, normals). The paper's two multi-task
sets carry their own: NYUD-v2 the same four with 40 classes, PASCAL-Context (the PASCAL-MT split) five --
segmentation (21 classes), human parts (7), normals, edges and saliency -- and no depth. A data set file names its
tasks in a ``tasks`` array, with the classes of each label task in ``classes`` (0 for the others); a file without
them is the scenes'. Heads, losses, metrics, Delta_m and the routing conditions all follow the data set's list, so a
task a data set lacks is left out of its tables rather than filled in.

Missing labels, as the real data sets mark them: class ``IGNORE`` (255) in label and binary maps, depth 0, and a
zero normal vector. The scenes have none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

IGNORE = 255


@dataclass(frozen=True)
class Task:
    kind: str  # "labels" (a class per pixel), "depth", "binary" (a probability per pixel), "normals" (unit vectors)
    metric: str
    higher_is_better: bool


TASKS = {
    "seg": Task("labels", "miou", True),
    "parts": Task("labels", "parts_miou", True),
    "depth": Task("depth", "depth_rmse", False),
    "edges": Task("binary", "edge_f1", True),
    "normals": Task("normals", "normal_angle", False),
    "saliency": Task("binary", "saliency_maxf", True),
}
METRICS = {t: task.metric for t, task in TASKS.items()}
HIGHER_IS_BETTER = {task.metric: task.higher_is_better for task in TASKS.values()}
SCENES = {"seg": 5, "depth": 1, "edges": 1, "normals": 3}  # the scenes' tasks and their output channels


def outputs(task: str, classes: int) -> int:
    """Output channels of a task's head: its classes, 3 for normals, else 1."""
    kind = TASKS[task].kind
    return classes if kind == "labels" else 3 if kind == "normals" else 1


def of(data: dict[str, np.ndarray]) -> dict[str, int]:
    """The data set's tasks in order, each with its head's output channels (the scenes' without a ``tasks`` array)."""
    if "tasks" not in data:
        return dict(SCENES)
    return {str(t): outputs(str(t), int(c)) for t, c in zip(data["tasks"], data["classes"])}


def header(tasks: dict[str, int]) -> dict[str, np.ndarray]:
    """The ``tasks`` and ``classes`` arrays that declare ``tasks`` in a data set file."""
    return {
        "tasks": np.array(list(tasks)),
        "classes": np.array([c if TASKS[t].kind == "labels" else 0 for t, c in tasks.items()], np.int64),
    }


def present(labels: np.ndarray, classes: int) -> np.ndarray:
    """Which of ``classes`` a label map shows (``IGNORE`` aside): the semantic teacher's multi-label target."""
    return np.bincount(labels[labels != IGNORE].ravel(), minlength=classes).astype(bool).astype(np.uint8)
