"""The audited architectures and many of them trained at once with batched weights.

Images are N x C x H x W. ``mlp`` and ``cnn`` are this project's small models (quick scale); ``resnet9``
(:mod:`.resnet9`) is the paper's CIFAR-10 model and ``resnet`` (:mod:`.resnet`) its transfer targets, ResNet-50 and
WideResNet-50-2.

``torch.func.stack_module_state`` stacks the weights of M models and ``vmap`` over ``functional_call``
trains them as one batched computation: this is what makes hundreds of shadow models affordable on CPU
(its speed-up over a Python loop over the same step is measured by the ``optifluence_timing`` rule).
Training is full-batch gradient descent with heavy-ball momentum on a per-model weighted cross-entropy:
each model's weights (one row of ``weights``) say which images it trains on, so one call trains models
on different subsets. Steps are full-batch unless ``training.batch`` is set (the paper trains its CIFAR models
with minibatches: then every model of a batch steps on the same drawn images, each on those it trains on). The
update is written out because ``torch.optim`` works on one module's parameters, not
on a batch of stacked functional weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.func import functional_call, grad, stack_module_state, vmap

KINDS = ("mlp", "cnn", "resnet9", "resnet")


class MLP(nn.Module):
    """One hidden ReLU layer; ``features`` is the input of the linear head (IF-Init's last layer)."""

    def __init__(self, pixels: int, classes: int, width: int):
        super().__init__()
        self.hidden = nn.Linear(pixels, width)
        self.head = nn.Linear(width, classes)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.hidden(x.flatten(-3)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class CNN(nn.Module):
    """A 3x3 convolution with stride 2 and ``channels`` filters, ReLU and a linear head.

    The convolution is written as image patches (``unfold``) times a weight matrix, which is what a
    convolution computes: under ``vmap`` over stacked weights the patches of the (shared) input are taken
    once and the rest stays a batched matrix product, where ``nn.Conv2d`` becomes a grouped convolution
    many times slower on CPU.
    """

    def __init__(self, shape: tuple[int, int, int], classes: int, channels: int):
        super().__init__()
        self.shape = tuple(shape)
        side = self.shape[-1]
        self.conv = nn.Linear(9 * self.shape[0], channels)
        self.head = nn.Linear(channels * math.ceil(side / 2) ** 2, classes)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[:-3]
        patches = nn.functional.unfold(x.reshape(-1, *self.shape), 3, padding=1, stride=2)
        return torch.relu(self.conv(patches.transpose(1, 2))).reshape(*batch, -1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


@dataclass(frozen=True)
class Architecture:
    """One audited architecture: ``kind`` and its size (mlp: hidden units; cnn: filters; resnet9 and resnet: the
    first stage's width, 64 in the papers); a resnet's ``blocks`` per stage and bottleneck ``widen`` factor."""

    name: str
    kind: str
    size: int
    blocks: tuple[int, ...] = (3, 4, 6, 3)
    widen: int = 1

    def build(self, shape: tuple[int, int, int], classes: int) -> nn.Module:
        """A model for images of ``shape`` (channels, height, width)."""
        channels, side = shape[0], shape[-1]
        if self.kind == "mlp":
            return MLP(channels * side * side, classes, self.size)
        if self.kind == "cnn":
            return CNN(shape, classes, self.size)
        if self.kind == "resnet9":
            from .resnet9 import ResNet9

            return ResNet9(channels, classes, self.size)
        if self.kind == "resnet":
            from .resnet import ResNet

            return ResNet(channels, classes, self.size, tuple(self.blocks), self.widen)
        raise ValueError(f"architecture {self.name}: kind must be one of {KINDS}, got {self.kind!r}")


@dataclass(frozen=True)
class Training:
    """Full-batch momentum gradient descent: ``steps`` updates of size ``lr``, momentum ``momentum``,
    L2 penalty ``weight_decay``."""

    steps: int
    lr: float
    momentum: float = 0.9
    weight_decay: float = 0.0
    batch: int | None = None  # images per step (None: all of them)


def schedule(images: int, training: Training, seed: int | list[int]) -> list[torch.Tensor] | None:
    """The images of each step: ``training.batch`` of them, every image once per epoch in an order drawn from
    ``seed`` (the same for every model trained together); ``None`` for full-batch training."""
    if training.batch is None or training.batch >= images:
        return None
    rng = np.random.default_rng([*np.atleast_1d(seed).tolist(), 3])
    per_epoch = images // training.batch
    order = []
    while len(order) < training.steps:
        epoch = torch.from_numpy(rng.permutation(images))
        order += [epoch[i * training.batch : (i + 1) * training.batch] for i in range(per_epoch)]
    return order[: training.steps]


def population(
    arch: Architecture, shape: tuple[int, int, int], classes: int, seeds: list[int], device: str = "cpu"
) -> tuple[nn.Module, dict]:
    """``(skeleton, stacked weights on device)`` of one model per seed (each initialised on the CPU under its own
    seed, so the same weights on every device)."""
    models = []
    for seed in seeds:
        torch.manual_seed(seed)
        models.append(arch.build(shape, classes))
    params, _ = stack_module_state(models)
    skeleton = arch.build(shape, classes).to("meta")
    return skeleton, {k: v.detach().to(device) for k, v in params.items()}


def weighted_loss(
    skeleton: nn.Module, params: dict, x: torch.Tensor, y: torch.Tensor, w: torch.Tensor, weight_decay: float
) -> torch.Tensor:
    """One model's mean cross-entropy over the images it trains on (``w`` in {0, 1} per image; a minibatch that
    holds none of them contributes only the penalty)."""
    logits = functional_call(skeleton, params, (x,))
    ce = nn.functional.cross_entropy(logits, y, reduction="none")
    penalty = sum((p * p).sum() for p in params.values()) if weight_decay else 0.0
    return (w * ce).sum() / w.sum().clamp_min(1.0) + 0.5 * weight_decay * penalty


def step_function(skeleton: nn.Module, training: Training):
    """``step(params, velocity, x, y, weights) -> (params, velocity)`` for a batch of models (differentiable
    in ``x``: the unrolled canary optimisation backpropagates through it); ``weights`` is models x images."""
    grads = vmap(
        grad(lambda p, x, y, w: weighted_loss(skeleton, p, x, y, w, training.weight_decay)), in_dims=(0, None, None, 0)
    )

    def step(params: dict, velocity: dict, x: torch.Tensor, y: torch.Tensor, weights: torch.Tensor):
        g = grads(params, x, y, weights)
        velocity = {k: training.momentum * velocity[k] + g[k] for k in params}
        return {k: params[k] - training.lr * velocity[k] for k in params}, velocity

    return step


def train(
    skeleton: nn.Module,
    params: dict,
    x: torch.Tensor,
    y: torch.Tensor,
    weights: torch.Tensor,
    training: Training,
    steps: int | None = None,
    velocity: dict | None = None,
    order: list[torch.Tensor] | None = None,
) -> tuple[dict, dict]:
    """Train a batch of models (no graph kept); returns ``(params, velocity)`` after ``steps`` updates, step ``i``
    on the images ``order[i]`` (:func:`schedule`; ``None``: all of them)."""
    step = step_function(skeleton, training)
    velocity = velocity if velocity is not None else {k: torch.zeros_like(v) for k, v in params.items()}
    with torch.no_grad():
        for i in range(training.steps if steps is None else steps):
            params, velocity = step(params, velocity, *batch(order, i, x, y, weights))
    return params, velocity


def batch(order: list[torch.Tensor] | None, i: int, x: torch.Tensor, y: torch.Tensor, weights: torch.Tensor):
    """The images, labels and per-model weights of step ``i`` of ``order``."""
    if order is None:
        return x, y, weights
    index = order[i].to(x.device)
    return x[index], y[index], weights[:, index]


def train_one_by_one(
    skeleton: nn.Module,
    params: dict,
    x: torch.Tensor,
    y: torch.Tensor,
    weights: torch.Tensor,
    training: Training,
    order: list[torch.Tensor] | None = None,
) -> dict:
    """The same training as :func:`train`, one model at a time in a Python loop (the timing baseline)."""
    out = []
    for i in range(weights.shape[0]):
        one = {k: v[i : i + 1] for k, v in params.items()}
        out.append(train(skeleton, one, x, y, weights[i : i + 1], training, order=order)[0])
    return {k: torch.cat([o[k] for o in out]) for k in params}


def hinge(z: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """The membership score ``z_y - max_{y' != y} z_y'`` of logits ``z`` (... x classes); differentiable."""
    labels = labels.expand(z.shape[:-1])
    own = z.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    others = z.masked_fill(torch.nn.functional.one_hot(labels, z.shape[-1]).bool(), float("-inf"))
    return own - others.max(dim=-1).values


def logits(skeleton: nn.Module, params: dict, x: torch.Tensor, batch: int | None = None) -> torch.Tensor:
    """Logits of every model on every image: ``M x N x classes``, ``batch`` images at a time (None: all at once)."""
    every = vmap(lambda p, images: functional_call(skeleton, p, (images,)), in_dims=(0, None))
    if batch is None or batch >= len(x):
        return every(params, x)
    return torch.cat([every(params, x[i : i + batch]) for i in range(0, len(x), batch)], dim=1)
