"""Three small teachers with deliberately different objectives: the stand-ins for CLIP, SAM and DINOv2 (substitution).

Each is the same small CNN encoder (four 3 x 3 convolutions, two of stride 2: a ``[B, D, H/4, W/4]`` feature map
aligned with the student's 4 x 4 patches) trained here, then frozen, with its own objective:

- ``semantic`` ("CLIP-like"): which shape classes are present (multi-label cross-entropy on the maximum over
  positions of per-position class logits) -- image-level labels only, no masks;
- ``geometric`` ("SAM-like"): occlusion edges and depth, decoded densely from the map (pixel shuffle);
- ``texture`` ("DINO-like", self-supervised): reconstruct the pixels of randomly masked 4 x 4 patches
  (masked auto-encoding) -- colour and texture, no labels.

The distillation targets are the feature maps standardised per channel over the training images
(:class:`Teacher`), so the three teachers weigh alike in a sum of losses. At paper scale a teacher is the paper's:
a CLIP, SAM or DINOv2 folder as the Hugging Face hub ships it (:mod:`.vfm`); or the user's own model, a
``torch.export`` program (``.pt2``) mapping images ``[B, 3, H, W]`` in [0, 1] to a feature map ``[B, D, h, w]``.
A map of another size is resized (bilinear) to the student's patch grid.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from .methods import OBJECTIVES  # the names live with the methods, so the config checks need no torch

MASK_PATCH = 4


class Encoder(nn.Module):
    def __init__(self, channels: int, features: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, channels, 3, padding=1),
            nn.GELU(),
            nn.Conv2d(channels, channels, 3, stride=2, padding=1),
            nn.GELU(),
            nn.Conv2d(channels, features, 3, stride=2, padding=1),
            nn.GELU(),
            nn.Conv2d(features, features, 3, padding=1),
        )

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.net(images)


class Objective(nn.Module):
    """An encoder with the head and loss of one objective (the head is dropped after training)."""

    def __init__(self, objective: str, channels: int, features: int, classes: int):
        super().__init__()
        if objective not in OBJECTIVES:
            raise ValueError(f"teacher objective must be one of {OBJECTIVES}, got {objective!r}")
        self.objective = objective
        self.encoder = Encoder(channels, features)
        outputs = {"semantic": classes, "geometric": 2 * 16, "texture": 3 * 16}[objective]
        self.head = nn.Conv2d(features, outputs, 1)

    def loss(self, batch: dict[str, torch.Tensor], generator: torch.Generator) -> torch.Tensor:
        images = batch["images"]
        if self.objective == "texture":
            n, _, h, w = images.shape
            hidden = torch.rand(n, 1, h // MASK_PATCH, w // MASK_PATCH, generator=generator) < 0.5
            hidden = hidden.repeat_interleave(MASK_PATCH, 2).repeat_interleave(MASK_PATCH, 3)
            reconstruction = F.pixel_shuffle(self.head(self.encoder(images * ~hidden)), 4)
            error = (reconstruction - images) ** 2 * hidden
            return error.sum() / (hidden.sum() * 3).clamp(min=1)
        features = self.encoder(images)
        if self.objective == "semantic":
            logits = self.head(F.gelu(features)).amax(dim=(2, 3))
            return F.binary_cross_entropy_with_logits(logits, batch["present"])
        edges, depth = F.pixel_shuffle(self.head(features), 4).unbind(1)
        return F.binary_cross_entropy_with_logits(edges, batch["edges"], pos_weight=torch.tensor(3.0)) + (
            F.l1_loss(depth, batch["depth"])
        )


NEEDS = {"semantic": ("present",), "geometric": ("edges", "depth"), "texture": ()}  # the labels each objective reads


def as_batch(data: dict[str, np.ndarray], index: np.ndarray) -> dict[str, torch.Tensor]:
    return {
        "images": torch.from_numpy(data["images"][index]).float() / 255,
        "present": torch.from_numpy(data["present"][index]).float(),
        "edges": torch.from_numpy(data["edges"][index]).float(),
        "depth": torch.from_numpy(data["depth"][index]),
    }


def train(
    objective: str,
    data: dict[str, np.ndarray],
    *,
    channels: int,
    features: int,
    steps: int,
    batch_size: int,
    lr: float,
    seed: int,
    log: Callable[[str], None] = print,
    log_every: int = 100,
) -> tuple[Encoder, list[float]]:
    """Train one teacher on the training scenes; return its encoder and the loss per step."""
    torch.manual_seed(seed)
    model = Objective(objective, channels, features, data["present"].shape[1])
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    rng, generator = np.random.default_rng(seed), torch.Generator().manual_seed(seed)
    losses, start = [], time.perf_counter()
    for step in range(1, steps + 1):
        loss = model.loss(as_batch(data, rng.integers(len(data["images"]), size=batch_size)), generator)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        if step % log_every == 0 or step == steps:
            log(
                f"teacher {objective}: step {step}/{steps} loss {np.mean(losses[-log_every:]):.4f} "
                f"({time.perf_counter() - start:.0f} s)"
            )
    return model.encoder.eval(), losses


class Teacher(nn.Module):
    """A frozen teacher: images (uint8 ``[B, 3, H, W]``) -> its feature map standardised per channel, on the grid."""

    def __init__(self, model: nn.Module, mean: torch.Tensor, std: torch.Tensor, grid: int):
        super().__init__()
        self.model, self.grid = model, grid
        self.register_buffer("mean", mean.reshape(1, -1, 1, 1))
        self.register_buffer("std", std.reshape(1, -1, 1, 1))

    def raw(self, images: torch.Tensor) -> torch.Tensor:
        features = self.model(images.float() / 255)
        if features.shape[-2:] != (self.grid, self.grid):
            features = F.interpolate(features, size=(self.grid, self.grid), mode="bilinear", align_corners=False)
        return features

    @torch.no_grad()
    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return (self.raw(images) - self.mean) / self.std


@torch.no_grad()
def standardisation(model: nn.Module, images: np.ndarray, grid: int, batch: int = 256):
    """Per-channel mean and standard deviation of a model's feature map over ``images``."""
    probe = Teacher(model, torch.zeros(1), torch.ones(1), grid)
    total, squares, count = 0.0, 0.0, 0
    for start in range(0, len(images), batch):
        f = probe.raw(torch.from_numpy(images[start : start + batch])).double()
        total = total + f.sum(dim=(0, 2, 3))
        squares = squares + (f**2).sum(dim=(0, 2, 3))
        count += f.shape[0] * f.shape[2] * f.shape[3]
    mean = total / count
    std = (squares / count - mean**2).clamp(min=1e-12).sqrt().clamp(min=1e-3)
    return mean.float(), std.float()


class Program(nn.Module):
    """A loaded ``torch.export`` program as a module (its train/eval mode was fixed when it was exported)."""

    def __init__(self, module: nn.Module):
        super().__init__()
        self.module = module

    def train(self, mode: bool = True) -> Program:
        self.training = mode
        return self

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.module(images)


def load_program(path: str | Path, image_size: int) -> nn.Module:
    """The user's teacher (a ``torch.export`` ``.pt2`` file); one line naming the file if it is not usable."""
    from ..common.sources import fail

    try:
        module = Program(torch.export.load(str(path)).module())
        out = module(torch.zeros(2, 3, image_size, image_size))
    except Exception as error:  # noqa: BLE001 -- any failure to load or run it is the user's file's fault
        fail(path, f"not a usable torch.export teacher program ({type(error).__name__}: {error})".splitlines()[0])
    if not isinstance(out, torch.Tensor) or out.ndim != 4 or out.shape[0] != 2:
        fail(path, f"a teacher must map images [B, 3, {image_size}, {image_size}] to a feature map [B, D, h, w]")
    return module


def save(folder: str | Path, teacher: Teacher, description: dict) -> None:
    """A teacher folder: ``teacher.json``, ``weights.safetensors`` (the standardisation and, for ours, the encoder;
    safetensors, so the same weights give the same bytes) and, for the user's teacher, ``program.pt2`` beside (a
    foundation model's weights stay in its fetched folder, which ``teacher.json`` names)."""
    from safetensors.torch import save_file

    from ..common.io import atomic_path, write_json

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tensors = {"mean": teacher.mean.flatten(), "std": teacher.std.flatten()}
    if description["kind"] == "ours":
        tensors |= {f"encoder.{k}": v.contiguous() for k, v in teacher.model.state_dict().items()}
    with atomic_path(folder / "weights.safetensors") as tmp:
        save_file(tensors, str(tmp))
    write_json(folder / "teacher.json", description)


def load(folder: str | Path, grid: int) -> Teacher:
    from safetensors.torch import load_file

    from ..common.io import read_json

    folder = Path(folder)
    description = read_json(folder / "teacher.json")
    tensors = load_file(str(folder / "weights.safetensors"))
    if description["kind"] == "ours":
        model = Encoder(description["channels"], description["features"])
        model.load_state_dict({k.removeprefix("encoder."): v for k, v in tensors.items() if k.startswith("encoder.")})
    elif description["kind"] == "hub":
        from .vfm import FoundationTeacher

        model = FoundationTeacher(description["folder"])
    else:
        model = load_program(folder / "program.pt2", description["image_size"])
    for p in model.parameters():
        p.requires_grad_(False)
    return Teacher(model.eval(), tensors["mean"], tensors["std"], grid).eval()
