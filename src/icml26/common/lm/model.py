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


@dataclass(frozen=True)
class ModelSettings:
    """A config's ``model`` block: the sizes of a model built here, or ``checkpoint``, a local folder."""

    hidden_size: int = 128  # the defaults are the quick-scale size: about 0.8 M parameters
    layers: int = 3
    heads: int = 4
    intermediate_size: int = 512
    context: int = 128  # positions the model attends over: prompt plus generated tokens
    checkpoint: str | None = None

    @classmethod
    def from_config(cls, block: dict[str, Any], key: str = "model") -> ModelSettings:
        settings = settings_from(cls, block, key)
        if settings.checkpoint is None and settings.hidden_size % settings.heads:
            raise ConfigError(
                f"{key}.hidden_size: {settings.hidden_size} is not a multiple of {key}.heads ({settings.heads})"
            )
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


def model_from_settings(settings: ModelSettings, tokenizer, seed: int, device: str = "cpu") -> PreTrainedModel:
    """The config's model: its ``checkpoint`` when set (``paper`` scale), else one built from its sizes."""
    if settings.checkpoint is not None:
        return load_model(settings.checkpoint, device)
    return build_model(settings, tokenizer, seed).to(device)
