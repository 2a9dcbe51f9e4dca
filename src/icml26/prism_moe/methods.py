"""The students compared: PRISM and the spec's baselines, each a student kind and the teachers it distils.

Every method with teachers runs stage 1 (distillation) then stage 2 (tasks); ``scratch`` (the multi-task student
from scratch, the reference of Delta_m) runs stage 2 only, for as many steps as the others' two stages together,
so no method gets more optimisation. All baselines have PRISM's parameter count (``student.matched_width``).
"""

from __future__ import annotations

from dataclasses import dataclass

OBJECTIVES = ("semantic", "geometric", "texture")  # the teachers, one objective each (teachers.py trains them)
# The downstream tasks each teacher's objective teaches (tasks.TASKS; a data set's own are those of them it has):
# class presence -> segmentation (and, on PASCAL-Context, human parts and saliency, which are object classes too);
# edges and depth -> those two; masked reconstruction, self-supervised, no task in particular -> all of them.
KNOWS = {
    "semantic": ("seg", "parts", "saliency"),
    "geometric": ("depth", "edges"),
    "texture": ("seg", "parts", "depth", "edges", "normals", "saliency"),
}


@dataclass(frozen=True)
class Method:
    kind: str  # the student kind (student.KINDS)
    teachers: tuple[str, ...]  # the teachers distilled in stage 1 (none: no stage 1)
    description: str


METHODS = {
    "prism": Method("prism", OBJECTIVES, "PRISM: dual-stream MoE, teacher- then task-conditioned router"),
    "dense": Method("dense", OBJECTIVES, "monolithic multi-teacher distillation (dense ViT)"),
    "moe_unconditioned": Method("moe_unconditioned", OBJECTIVES, "dual-stream MoE with an unconditioned router"),
    "adapters": Method("adapters", OBJECTIVES, "shared stem + teacher-specific adapters"),
    "scratch": Method("dense", (), "multi-task from scratch (the reference of Delta_m)"),
    **{f"single_{t}": Method("dense", (t,), f"single-teacher student ({t} teacher only)") for t in OBJECTIVES},
}
REFERENCE = "scratch"


def conditions(tasks, teachers: tuple[str, ...] = OBJECTIVES) -> dict[str, int]:
    """Condition ids: the teachers first, then the data set's tasks (one embedding table for both stages)."""
    return {t: i for i, t in enumerate(teachers)} | {t: len(teachers) + i for i, t in enumerate(tasks)}
