"""One audit: many models of one architecture trained with the canaries inserted at random, scored.

Every model trains on a random half of the base pool (``base_fraction``) plus the canaries its row of
the membership matrix marks, from its own initialisation; the membership and base subsets depend only
on the seed, so every architecture is audited on the same draws. Models are trained ``chunk`` at a time
with batched weights (``models.train``).
"""

from __future__ import annotations

import time

import numpy as np
import torch

from .models import Architecture, Training, hinge, logits, population, schedule, train


def audit(
    arch: Architecture,
    classes: int,
    base_x: np.ndarray,
    base_y: np.ndarray,
    canary_x: np.ndarray,
    canary_y: np.ndarray,
    member: np.ndarray,
    test_x: np.ndarray,
    test_y: np.ndarray,
    training: Training,
    base_fraction: float,
    seed: int,
    chunk: int,
    device: str = "cpu",
) -> dict[str, np.ndarray]:
    """``{"scores": hinge of each canary in each model, "test_accuracy": per model, "train_accuracy": per model
    on its base images}``, the models trained on ``device``."""
    models, shape = member.shape[0], base_x.shape[1:]
    rng = np.random.default_rng([seed, 2])
    base_member = rng.random((models, len(base_x))) < base_fraction
    model_seeds = [int(s) for s in rng.integers(0, 2**31, models)]
    x = torch.tensor(np.concatenate([base_x, canary_x]), dtype=torch.float32, device=device)
    y = torch.tensor(np.concatenate([base_y, canary_y]), dtype=torch.int64, device=device)
    weights = torch.tensor(np.concatenate([base_member, member], axis=1), dtype=torch.float32, device=device)
    cx = torch.tensor(canary_x, dtype=torch.float32, device=device)
    tx = torch.tensor(test_x, dtype=torch.float32, device=device)
    cy = torch.tensor(canary_y, device=device)
    scores, test_acc, train_acc = [], [], []
    start = time.perf_counter()
    for first in range(0, models, chunk):
        part = slice(first, min(first + chunk, models))
        skeleton, params = population(arch, shape, classes, model_seeds[part], device)
        order = schedule(len(x), training, [seed, first])
        params, _ = train(skeleton, params, x, y, weights[part], training, order=order)
        with torch.no_grad():
            scores.append(hinge(logits(skeleton, params, cx, training.batch), cy).double().cpu().numpy())
            predicted = logits(skeleton, params, tx, training.batch).argmax(-1).cpu().numpy()
            test_acc.append((predicted == test_y).mean(axis=1))
            fit = logits(skeleton, params, x[: len(base_x)], training.batch).argmax(-1).cpu().numpy() == base_y
            train_acc.append((fit * base_member[part]).sum(axis=1) / base_member[part].sum(axis=1))
        print(
            f"{arch.name}: {part.stop}/{models} models trained, mean test accuracy "
            f"{np.concatenate(test_acc).mean():.3f} ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
    return {
        "scores": np.concatenate(scores),
        "test_accuracy": np.concatenate(test_acc),
        "train_accuracy": np.concatenate(train_acc),
    }
