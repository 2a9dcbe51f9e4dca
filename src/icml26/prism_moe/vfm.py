"""The paper's teachers, vision foundation models read from their Hugging Face folders: CLIP ViT-B/16 (semantic),
SAM ViT-B (geometric), DINOv2 ViT-B/14 (texture / self-supervised), as PRISM distils them.

A folder is read with ``transformers`` by its ``config.json`` (``model_type`` clip, sam or dinov2; never remote
code) and its ``preprocessor_config.json`` (the normalisation): :class:`FoundationTeacher` resizes the images to the
model's input size (CLIP's and DINOv2's 224 crop, SAM's 1024), normalises them as its processor does, runs the
vision encoder and returns its last patch features as a map ``[B, D, h, w]`` (the class token dropped; SAM's
neck output as it is). :class:`~icml26.prism_moe.teachers.Teacher` then resizes the map to the student's patch
grid and standardises it, as for every teacher. Ours: the last layer's patch tokens (the reference picks its own
layers per teacher), bilinear resizing (its processors resize with PIL, bicubic).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

KINDS = ("clip", "sam", "dinov2")


def _read(folder: Path, name: str) -> dict:
    from ..common.sources import fail

    path = folder / name
    if not path.is_file():
        fail(folder, f"not a Hugging Face vision model folder (no {name})")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        fail(path, f"not valid JSON ({error})")


class FoundationTeacher(nn.Module):
    """A CLIP, SAM or DINOv2 vision encoder as a teacher: images ``[B, 3, H, W]`` in [0, 1] -> ``[B, D, h, w]``."""

    def __init__(self, folder: str | Path):
        super().__init__()
        from ..common.sources import fail

        folder = Path(folder)
        self.kind = _read(folder, "config.json").get("model_type")
        if self.kind not in KINDS:
            fail(folder, f"model_type {self.kind!r} is not a teacher this pipeline reads ({', '.join(KINDS)})")
        processor = _read(folder, "preprocessor_config.json")
        if not {"image_mean", "image_std"} <= set(processor):
            fail(folder / "preprocessor_config.json", "needs image_mean and image_std (the teacher's normalisation)")
        self.register_buffer("mean", torch.tensor(processor["image_mean"], dtype=torch.float32).reshape(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(processor["image_std"], dtype=torch.float32).reshape(1, 3, 1, 1))
        self.encoder = _encoder(self.kind, folder)
        crop = processor.get("crop_size")
        self.size = int(crop["height"] if isinstance(crop, dict) else crop) if crop else _image_size(self.encoder)
        self.encoder.eval().requires_grad_(False)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = F.interpolate(images, size=(self.size, self.size), mode="bilinear", align_corners=False, antialias=True)
        out = self.encoder(pixel_values=(x - self.mean) / self.std).last_hidden_state
        if self.kind == "sam":  # the neck's map, channels first
            return out
        tokens = out[:, 1:]  # the patch tokens after the class token
        side = int(round(tokens.shape[1] ** 0.5))
        return tokens.transpose(1, 2).reshape(out.shape[0], -1, side, side)


def _encoder(kind: str, folder: Path) -> nn.Module:
    """The vision encoder of a model folder (of a whole CLIP or SAM checkpoint, its vision part alone), every one
    of its tensors read from the folder's safetensors (:func:`icml26.common.checkpoints.load_pretrained`)."""
    from ..common.checkpoints import load_pretrained

    if kind == "clip":
        from transformers import CLIPVisionModel as model
    elif kind == "sam":
        from transformers import SamVisionModel as model
    else:
        from transformers import Dinov2Model as model
    return load_pretrained(model, folder, model_types={kind}, what=f"{kind} vision model", part=kind != "dinov2")


def _image_size(encoder: nn.Module) -> int:
    config = encoder.config
    return int(getattr(config, "vision_config", config).image_size)
