"""The two stages of training a student, and its evaluation.

*Stage 1, expertise deconstruction*: for every teacher, the student runs with that teacher's condition, a
per-teacher projector (LayerNorm + linear, token -> teacher channels) maps its tokens onto the teacher's
standardised feature map, and the loss is ``(1 - cosine) + L1`` per token, plus ``decorrelation`` times the mean
squared off-diagonal correlation of the projected channels (ours: the spec leaves the decorrelation term open),
plus ``balance`` times the routers' load-balance loss. *Stage 2, dynamic recomposition*: the same with the data
set's task conditions and task heads (LayerNorm + linear to ``outputs x patch^2``, pixel-shuffled to full resolution):
cross-entropy (segmentation, human parts), L1 (depth), weighted binary cross-entropy (edges, saliency), ``1 - cosine``
(normals), each over its labelled pixels. The whole student is trained in both stages (ours; the spec does not
freeze anything).

Every ``conflict_every`` steps of stage 1 with several teachers, the gradients of each teacher's distillation
loss on the student's shared parameters (everything but the projectors) are taken separately and their pairwise
cosines recorded: a negative cosine is the feature conflict that monolithic distillation suffers.

Optimiser: AdamW with linear warm-up and cosine decay (ours), the closed form through torch's ``LambdaLR``:
``transformers.get_cosine_schedule_with_warmup`` would import transformers (seconds per job) into a torch-only paper,
and torch's ``SequentialLR(LinearLR, CosineAnnealingLR)`` computes the cosine recursively, so its learning rates
drift from the closed form in the last digits.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from .metrics import image_stats
from .tasks import IGNORE, TASKS


@dataclass(frozen=True)
class TrainSettings:
    stage1_steps: int = 600
    stage2_steps: int = 600
    batch_size: int = 32
    lr: float = 0.001
    weight_decay: float = 0.01
    warmup: int = 30
    balance: float = 0.01
    decorrelation: float = 0.05
    edge_weight: float = 3.0
    conflict_every: int = 25
    log_every: int = 100


class Linear2d(nn.Module):
    """Tokens ``[B, N, D]`` -> a full-resolution map ``[B, out, H, W]`` (LayerNorm, linear, pixel shuffle)."""

    def __init__(self, dim: int, out: int, patch: int):
        super().__init__()
        self.norm, self.linear, self.patch = nn.LayerNorm(dim), nn.Linear(dim, out * patch * patch), patch

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        batch, n, _ = tokens.shape
        side = math.isqrt(n)
        grid = self.linear(self.norm(tokens)).transpose(1, 2).reshape(batch, -1, side, side)
        return F.pixel_shuffle(grid, self.patch)


class Projector(nn.Module):
    def __init__(self, dim: int, channels: int):
        super().__init__()
        self.norm, self.linear = nn.LayerNorm(dim), nn.Linear(dim, channels)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.linear(self.norm(tokens))


def decorrelation_loss(features: torch.Tensor) -> torch.Tensor:
    """Mean squared off-diagonal correlation between the channels of ``[T, C]`` features."""
    z = (features - features.mean(0)) / (features.std(0, correction=0) + 1e-6)
    correlation = z.T @ z / len(z)
    off = correlation - torch.diag(torch.diagonal(correlation))
    return (off**2).sum() / (off.shape[0] * (off.shape[0] - 1))


def distillation_loss(projected: torch.Tensor, target: torch.Tensor, decorrelation: float) -> torch.Tensor:
    """``projected``: ``[B, N, C]``; ``target``: the teacher's map ``[B, C, h, w]`` with ``h w = N``."""
    target = target.flatten(2).transpose(1, 2)
    loss = (1 - F.cosine_similarity(projected, target, dim=-1)).mean() + F.l1_loss(projected, target)
    if decorrelation:
        loss = loss + decorrelation * decorrelation_loss(projected.reshape(-1, projected.shape[-1]))
    return loss


def task_loss(task: str, output: torch.Tensor, batch: dict[str, torch.Tensor], edge_weight: float) -> torch.Tensor:
    """The task's loss over its labelled pixels (``tasks.IGNORE``, depth 0 and zero normals are missing labels).
    Binary maps (edges, saliency) share the edge loss and its positive weight."""
    kind, target = TASKS[task].kind, batch[task]
    if kind == "labels":
        return F.cross_entropy(output, target, ignore_index=IGNORE)
    if kind == "depth":
        valid = target != 0
        return F.l1_loss(output[:, 0][valid], target[valid])
    if kind == "binary":
        valid = target != IGNORE
        return F.binary_cross_entropy_with_logits(
            output[:, 0][valid], target[valid], pos_weight=torch.tensor(edge_weight, device=output.device)
        )
    valid = (target != 0).any(1)
    return (1 - F.cosine_similarity(output, target, dim=1))[valid].mean()


def as_batch(
    data: dict[str, np.ndarray], tasks: dict[str, int], index: np.ndarray, device: torch.device
) -> dict[str, torch.Tensor]:
    """The images and the labels of ``tasks`` at ``index`` (labels as int64, binary maps as floats)."""
    batch = {"images": torch.from_numpy(data["images"][index])}
    for task in tasks:
        kind, values = TASKS[task].kind, torch.from_numpy(data[task][index])
        batch[task] = values.long() if kind == "labels" else values.float() if kind == "binary" else values
    return {k: v.to(device) for k, v in batch.items()}


def _device(module: nn.Module) -> torch.device:
    return next(module.parameters()).device


def _schedule(optimiser, steps: int, warmup: int):
    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, steps - warmup)))

    return torch.optim.lr_scheduler.LambdaLR(optimiser, factor)


def _flat_cosine(a: tuple[torch.Tensor, ...], b: tuple[torch.Tensor, ...]) -> float:
    va, vb = torch.cat([g.flatten() for g in a]), torch.cat([g.flatten() for g in b])
    return float(F.cosine_similarity(va, vb, dim=0))


def stage1(
    student: nn.Module,
    projectors: nn.ModuleDict,
    teachers: dict[str, Callable[[torch.Tensor], torch.Tensor]],
    conditions: dict[str, int],
    data: dict[str, np.ndarray],
    s: TrainSettings,
    rng: np.random.Generator,
    log: Callable[[str], None] = print,
) -> tuple[list[dict], list[dict]]:
    """Distil the teachers into the student; return (loss rows, gradient-cosine rows)."""
    names = list(teachers)
    parameters = list(student.parameters()) + list(projectors.parameters())
    optimiser = torch.optim.AdamW(parameters, lr=s.lr, weight_decay=s.weight_decay)
    scheduler = _schedule(optimiser, s.stage1_steps, s.warmup)
    shared = [p for p in student.parameters() if p.requires_grad]
    losses, cosines, start = [], [], time.perf_counter()
    for step in range(1, s.stage1_steps + 1):
        index = rng.integers(len(data["images"]), size=s.batch_size)
        images = torch.from_numpy(data["images"][index]).to(_device(student))
        out = student(images, [conditions[t] for t in names])
        per_teacher = {
            t: distillation_loss(projectors[t](tokens), teachers[t](images), s.decorrelation)
            for t, tokens in zip(names, out.tokens)
        }
        loss = sum(per_teacher.values()) + s.balance * out.balance
        if len(names) > 1 and s.conflict_every and (step == 1 or step % s.conflict_every == 0):
            grads = {
                t: torch.autograd.grad(value, shared, retain_graph=True, allow_unused=True, materialize_grads=True)
                for t, value in per_teacher.items()
            }
            for a, b in itertools.combinations(names, 2):
                cosines.append({"step": step, "pair": f"{a}-{b}", "cosine": _flat_cosine(grads[a], grads[b])})
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        scheduler.step()
        losses.append({"stage": 1, "step": step, "loss": loss.item(), "balance": out.balance.item()})
        if step % s.log_every == 0 or step == s.stage1_steps:
            log(f"stage 1: step {step}/{s.stage1_steps} loss {loss.item():.4f} ({time.perf_counter() - start:.0f} s)")
    return losses, cosines


def stage2(
    student: nn.Module,
    heads: nn.ModuleDict,
    conditions: dict[str, int],
    data: dict[str, np.ndarray],
    s: TrainSettings,
    rng: np.random.Generator,
    steps: int,
    log: Callable[[str], None] = print,
) -> list[dict]:
    """Train the student and the task heads (one per task of the data set); return the loss rows."""
    tasks = list(heads)
    optimiser = torch.optim.AdamW(
        list(student.parameters()) + list(heads.parameters()), lr=s.lr, weight_decay=s.weight_decay
    )
    scheduler = _schedule(optimiser, steps, s.warmup)
    rows, start = [], time.perf_counter()
    for step in range(1, steps + 1):
        batch = as_batch(data, heads, rng.integers(len(data["images"]), size=s.batch_size), _device(student))
        out = student(batch["images"], [conditions[t] for t in tasks])
        per_task = [task_loss(t, heads[t](tokens), batch, s.edge_weight) for t, tokens in zip(tasks, out.tokens)]
        loss = sum(per_task) + s.balance * out.balance
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        scheduler.step()
        rows.append({"stage": 2, "step": step, "loss": loss.item(), "balance": out.balance.item()})
        if step % s.log_every == 0 or step == steps:
            log(f"stage 2: step {step}/{steps} loss {loss.item():.4f} ({time.perf_counter() - start:.0f} s)")
    return rows


def predict(outputs: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    """Heads' maps -> predictions: classes, depth, probabilities of binary maps, unit normals."""
    found = {}
    for task, output in outputs.items():
        kind = TASKS[task].kind
        if kind == "labels":
            found[task] = output.argmax(1).cpu().numpy()
        elif kind == "depth":
            found[task] = output[:, 0].cpu().numpy()
        elif kind == "binary":
            found[task] = torch.sigmoid(output[:, 0]).cpu().numpy()
        else:
            found[task] = F.normalize(output, dim=1).cpu().numpy()
    return found


@torch.no_grad()
def evaluate(student, heads, conditions: dict[str, int], data, *, shift: int = 0, batch: int = 250) -> dict:
    """Per-image stats on ``data`` of the tasks of ``heads``; task ``t``'s head reads the tokens made under the
    condition of task ``t + shift`` (``shift = 1``: every task on another task's pathway)."""
    student.eval()
    tasks = {t: head.linear.out_features // head.patch**2 for t, head in heads.items()}
    names = list(tasks)
    order = [conditions[names[(i + shift) % len(names)]] for i in range(len(names))]
    parts = []
    for start in range(0, len(data["images"]), batch):
        index = np.arange(start, min(start + batch, len(data["images"])))
        out = student(torch.from_numpy(data["images"][index]).to(_device(student)), order)
        prediction = predict({t: heads[t](tokens) for t, tokens in zip(names, out.tokens)})
        parts.append(image_stats(prediction, {k: data[k][index] for k in names}, tasks))
    student.train()
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


@torch.no_grad()
def routing_counts(student, conditions: list[int], images: np.ndarray, experts: int, batch: int = 250) -> np.ndarray:
    """``[blocks, conditions, experts]`` counts of each token's top-1 expert under each condition (eval mode)."""
    student.eval()
    total = None
    for start in range(0, len(images), batch):
        out = student(torch.from_numpy(images[start : start + batch]).to(_device(student)), conditions)
        if not out.routes:
            return np.zeros((0, len(conditions), experts), np.int64)
        counts = np.stack(
            [
                np.stack(
                    [
                        np.bincount(route[min(c, len(route) - 1), ..., 0].flatten().cpu().numpy(), minlength=experts)
                        for c in range(len(conditions))
                    ]
                )
                for route in out.routes
            ]
        )
        total = counts if total is None else total + counts
    student.train()
    return total
