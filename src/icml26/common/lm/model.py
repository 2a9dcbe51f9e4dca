"""The policy model: a seeded tiny Llama built from sizes in the config, or a local checkpoint.

``LlamaForCausalLM`` is the architecture most small open models share, so what the papers do to it
(sampling, log-probabilities, policy-gradient updates) is what a user does to a real model at ``paper``
scale, where the config names a local checkpoint folder instead of sizes (:func:`model_from_settings`).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, PreTrainedModel
from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

from ..config import ConfigError, settings_from
from ..io import temporary_sibling

PRECISIONS = ("float32", "bfloat16")


@dataclass(frozen=True)
class ModelSettings:
    """A config's ``model`` block: the sizes of a model built here, or ``checkpoint``, a local folder; and how it is
    trained (:func:`prepare_for_training`; every option off by default)."""

    hidden_size: int = 128  # the defaults are the quick-scale size: about 0.8 M parameters
    layers: int = 3
    heads: int = 4
    intermediate_size: int = 512
    context: int = 128  # positions the model attends over: prompt plus generated tokens
    checkpoint: str | None = None
    precision: str = "float32"  # bfloat16: forward passes under torch.autocast; weights and optimizer stay float32
    lora: dict | None = None  # {r, alpha}: low-rank adapters (peft) on every linear layer, the rest frozen
    gradient_checkpointing: bool = False  # recompute activations in the backward pass: memory for time

    @classmethod
    def from_config(cls, block: dict[str, Any], key: str = "model") -> ModelSettings:
        settings = settings_from(cls, block, key)
        if settings.checkpoint is None and settings.hidden_size % settings.heads:
            raise ConfigError(
                f"{key}.hidden_size: {settings.hidden_size} is not a multiple of {key}.heads ({settings.heads})"
            )
        if settings.precision not in PRECISIONS:
            raise ConfigError(f"{key}.precision: {settings.precision!r} is not one of {', '.join(PRECISIONS)}")
        if settings.lora is not None and sorted(settings.lora) != ["alpha", "r"]:
            raise ConfigError(f"{key}.lora: needs exactly r and alpha, got {sorted(settings.lora)}")
        return settings


def build_model(settings: ModelSettings, tokenizer, seed: int) -> LlamaForCausalLM:
    """A freshly initialised Llama sized by ``settings`` for ``tokenizer``'s vocabulary.

    Initialised under ``torch.manual_seed(seed)`` inside a forked RNG, so the weights depend on the seed
    alone and the caller's random stream is left as it was. Embeddings are tied (the usual choice at this
    size: it halves the parameters spent on the vocabulary).
    """
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=settings.hidden_size,
        intermediate_size=settings.intermediate_size,
        num_hidden_layers=settings.layers,
        num_attention_heads=settings.heads,
        num_key_value_heads=settings.heads,
        max_position_embeddings=settings.context,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config)
    return model.eval()


def load_model(path: str | os.PathLike, device: str = "cpu") -> PreTrainedModel:
    """A causal LM from a local folder (a user's checkpoint or one saved by :func:`save_checkpoint`).

    Nothing is downloaded. A missing folder, a folder holding something other than a causal LM, damaged weights
    or weights that do not cover the model are one line naming the folder or file (:mod:`..checkpoints`).
    """
    from ..checkpoints import load_pretrained

    model = load_pretrained(
        AutoModelForCausalLM, path, model_types=MODEL_FOR_CAUSAL_LM_MAPPING_NAMES, what="causal language model"
    )
    return model.to(device).eval()


def context_length(model: PreTrainedModel) -> int:
    return int(model.config.max_position_embeddings)


def parameter_count(model: PreTrainedModel) -> int:
    return sum(p.numel() for p in model.parameters())


def save_checkpoint(model: PreTrainedModel, tokenizer, folder: str | os.PathLike) -> None:
    """Model (safetensors) and tokenizer in one folder, written beside it and renamed into place, so a
    killed job leaves no half-written checkpoint. The same weights give byte-identical files."""
    folder = Path(folder)
    tmp = temporary_sibling(folder)
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp, safe_serialization=True)
    tokenizer.save_pretrained(tmp)
    if folder.exists():
        shutil.rmtree(folder)
    tmp.rename(folder)


def prepare_for_training(model: PreTrainedModel, settings: ModelSettings) -> PreTrainedModel:
    """The model as ``settings`` train it: gradient checkpointing, LoRA adapters (peft's ``LoraConfig`` on every
    linear layer, ``r`` and ``lora_alpha`` from ``settings.lora``, no dropout; only the adapters then train) and
    bfloat16 autocast around every forward pass (the weights and the optimizer's state stay float32, the
    log-probabilities are taken in float32 by the toolkit). All off by default: the model comes back as it was.
    :func:`trained_weights` folds adapters back in before saving."""
    if settings.gradient_checkpointing:
        model.activation_checkpointing_enable()
    if settings.lora is not None:
        from peft import LoraConfig, get_peft_model

        adapters = LoraConfig(
            r=settings.lora["r"], lora_alpha=settings.lora["alpha"], lora_dropout=0.0, target_modules="all-linear"
        )
        model = get_peft_model(model, adapters)
    if settings.precision == "bfloat16":
        forward = model.forward

        def autocast_forward(*args, **kwargs):
            with torch.autocast(model.device.type, dtype=torch.bfloat16):
                return forward(*args, **kwargs)

        model.forward = autocast_forward
    return model


def trained_weights(model: PreTrainedModel) -> PreTrainedModel:
    """A model prepared by :func:`prepare_for_training` as a plain one again: LoRA adapters merged into the
    weights (so the saved folder loads like any other), the autocast wrapper dropped."""
    if hasattr(model, "merge_and_unload"):
        model = model.merge_and_unload()
    model.__dict__.pop("forward", None)
    return model


def model_from_settings(settings: ModelSettings, tokenizer, seed: int, device: str = "cpu") -> PreTrainedModel:
    """The config's model: its ``checkpoint`` when set (``paper`` scale), else one built from its sizes."""
    if settings.checkpoint is not None:
        return load_model(settings.checkpoint, device)
    return build_model(settings, tokenizer, seed).to(device)
