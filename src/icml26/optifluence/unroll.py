"""Unrolled canary optimisation: differentiate a canary's detectability through the training that sees it.

Objective (per canary ``c``): ``phi_IN(x_c) - E[phi_OUT(x_c)]``, the hinge score of ``c`` in models that
trained on it minus its mean score in models that did not. Each outer step draws a fresh set of
``models_in + models_out`` small models (new initialisations, new random halves of the base pool) and, for
each canary on its own, a random ``models_in`` of them that train on it (the IN models of that canary; the
others are its OUT models), trains them, and takes one Adam step on the canary pixels, which are clipped to
[0, 1]. Drawing the membership per canary puts each canary in the audit's condition, where a model that has not
seen canary ``c`` has seen about half of its siblings: with one IN group for the whole set (this module's first
version) the OUT models never saw any canary, and a set could raise its objective together -- the canaries
teaching each other -- in a way the audit does not reward (objective ~38 against an audited gap of ~8 on digits).

The gradient flows through the last ``truncation`` training steps only (truncated backpropagation through
time, ``truncation = steps`` is full unrolling) and through the final evaluation; with ``checkpoint`` each
unrolled step is recomputed in the backward pass instead of stored (``torch.utils.checkpoint``), so memory
does not grow with the truncation length.

Ours, not the paper's: all canaries of a set are optimised in the same inner models, each with its own IN and
OUT groups (the paper optimises one canary at a time, K times the cost); the outer optimiser is Adam with a
fixed step; labels stay the seeds'.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
from torch.utils.checkpoint import checkpoint as recompute

from .models import Architecture, Training, batch, hinge, logits, population, schedule, step_function, train


@dataclass(frozen=True)
class Unrolling:
    models_in: int
    models_out: int
    truncation: int
    outer_steps: int
    outer_lr: float
    base_fraction: (
        float  # of the base pool each inner model trains on: the audit's, so the canary meets the same training
    )
    checkpoint: bool = True


def detectability(
    canaries: torch.Tensor,
    labels: torch.Tensor,
    base_x: torch.Tensor,
    base_y: torch.Tensor,
    skeleton: torch.nn.Module,
    params: dict,
    base_weights: torch.Tensor,
    inside: torch.Tensor,
    training: Training,
    truncation: int,
    use_checkpoint: bool = True,
    seed: int | list[int] = 0,
) -> torch.Tensor:
    """``mean phi_IN - mean phi_OUT`` of each canary after training the models ``params`` on their base images
    plus the canaries ``inside`` (models x canaries) marks; differentiable in ``canaries`` through the last
    ``truncation`` steps (minibatches, when ``training.batch`` is set, drawn from ``seed``)."""
    k = min(truncation, training.steps)
    weights = torch.cat([base_weights, inside.to(base_weights.dtype)], dim=1)
    y = torch.cat([base_y, labels])
    order = schedule(len(y), training, seed)
    params, velocity = train(
        skeleton,
        params,
        torch.cat([base_x, canaries.detach()]),
        y,
        weights,
        training,
        steps=training.steps - k,
        order=order,
    )
    step = step_function(skeleton, training)
    names = list(params)

    def flat_step(x, i, *state):  # tensors only: the reentrant checkpoint (the one torch.func.grad works under)
        params, velocity = dict(zip(names, state[: len(names)])), dict(zip(names, state[len(names) :]))
        new_params, new_velocity = step(params, velocity, *batch(order, i, x, y, weights))
        return (*new_params.values(), *new_velocity.values())

    x = torch.cat([base_x, canaries])
    state = (*params.values(), *velocity.values())
    for i in range(training.steps - k, training.steps):
        if use_checkpoint and torch.is_grad_enabled() and canaries.requires_grad:
            state = recompute(flat_step, x, i, *state, use_reentrant=True)
        else:
            state = flat_step(x, i, *state)
    params = dict(zip(names, state[: len(names)]))
    phi = hinge(logits(skeleton, params, canaries), labels)
    member = inside.to(phi.dtype)
    return (phi * member).sum(dim=0) / member.sum(dim=0) - (phi * (1 - member)).sum(dim=0) / (1 - member).sum(dim=0)


def optimise(
    init: np.ndarray,
    labels: np.ndarray,
    base_x: np.ndarray,
    base_y: np.ndarray,
    arch: Architecture,
    classes: int,
    training: Training,
    unrolling: Unrolling,
    seed: int,
    name: str = "canaries",
    device: str = "cpu",
):
    """Optimised canaries from ``init`` (K x C x H x W in [0, 1]), the inner models on ``device``; returns
    ``(canaries, trace rows, seconds per step)``."""
    shape = init.shape[1:]
    x = torch.tensor(init, dtype=torch.float32, device=device, requires_grad=True)
    y = torch.tensor(labels, dtype=torch.int64, device=device)
    bx = torch.tensor(base_x, dtype=torch.float32, device=device)
    by = torch.tensor(base_y, dtype=torch.int64, device=device)
    optimiser = torch.optim.Adam([x], lr=unrolling.outer_lr)
    models = unrolling.models_in + unrolling.models_out
    half = np.arange(models) < unrolling.models_in
    rows, seconds = [], []
    for it in range(unrolling.outer_steps):
        start = time.perf_counter()
        rng = np.random.default_rng([seed, it])
        skeleton, params = population(arch, shape, classes, [int(s) for s in rng.integers(0, 2**31, models)], device)
        drawn = rng.random((models, len(base_x))) < unrolling.base_fraction
        base_weights = torch.tensor(drawn, dtype=torch.float32, device=device)
        inside = torch.tensor(np.stack([rng.permutation(half) for _ in range(len(init))], axis=1), device=device)
        gap = detectability(
            x,
            y,
            bx,
            by,
            skeleton,
            params,
            base_weights,
            inside,
            training,
            unrolling.truncation,
            unrolling.checkpoint,
            seed=[seed, it],
        )
        optimiser.zero_grad()
        (-gap.mean()).backward()
        optimiser.step()
        with torch.no_grad():
            x.clamp_(0.0, 1.0)
        seconds.append(time.perf_counter() - start)
        gap = gap.detach()
        rows.append({"step": it, "gap_mean": float(gap.mean()), "gap_min": float(gap.min())})
        print(
            f"{name}: outer step {it + 1}/{unrolling.outer_steps}, mean phi_IN - phi_OUT {rows[-1]['gap_mean']:.3f} "
            f"({sum(seconds):.1f} s)",
            flush=True,
        )
    return x.detach().cpu().numpy(), rows, seconds
