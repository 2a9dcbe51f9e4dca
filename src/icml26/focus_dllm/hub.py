"""What the paper's hub models (:mod:`.sdar`, :mod:`.llada2`) share: their RMSNorm, SwiGLU and rotate-half RoPE,
reading a folder's safetensors (one file or shards), the tokenizer's mask token, and building a model on the meta
device and giving it the file's tensors. Each architecture file keeps only what is its own, as a Hugging Face
modeling file does; these are the parts both would otherwise copy."""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch
from torch import nn


class HubConfig:
    """The decoder's names (:mod:`.decoding` reads these of any model's config) for a config in Hugging Face's."""

    @property
    def layers(self) -> int:
        return self.num_hidden_layers

    @property
    def heads(self) -> int:
        return self.num_attention_heads

    @property
    def kv_heads(self) -> int:
        return self.num_key_value_heads


class HubDecoderLayer(nn.Module):
    """What both hub architectures' layers share: grouped-query attention and the MLP sublayer after
    ``post_attention_layernorm``. Subclasses give ``project`` and ``out`` over their own weights."""

    @staticmethod
    def attend(q, keys, values, mask) -> torch.Tensor:
        """Grouped-query attention: each key and value head serves ``heads / kv_heads`` query heads."""
        return nn.functional.scaled_dot_product_attention(q, keys, values, attn_mask=mask, enable_gqa=True)

    def feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlp(self.post_attention_layernorm(x))


class HubModel(nn.Module):
    """The decoder's interface (:mod:`.decoding`) over a hub model's module tree: ``model`` holds the embedding
    (named ``EMBEDDING`` in the checkpoint), ``layers`` and the final ``norm``; ``lm_head`` is absent when the
    output matrix is tied to the embedding. Subclasses build the tree and give ``rotary`` and ``with_layers``."""

    EMBEDDING = "embed_tokens"

    def __init__(self, config, model: nn.Module):
        super().__init__()
        self.config, self.model = config, model
        if not config.tie_word_embeddings:
            self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    @property
    def embed(self) -> nn.Embedding:
        return getattr(self.model, self.EMBEDDING)

    @property
    def layers(self) -> nn.ModuleList:
        return self.model.layers

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        weight = self.embed.weight if self.config.tie_word_embeddings else self.lm_head.weight
        return nn.functional.linear(self.model.norm(x), weight)

    def forward(self, input_ids, positions, past_key_values=None, mask=None):
        """As :meth:`.model.BlockDiffusionLM.forward`: logits at every row (predicting the row's own token) and
        this call's keys and values per layer."""
        from .model import run_layers

        return run_layers(self, input_ids, positions, past_key_values, mask)


class RMSNorm(nn.Module):
    """RMSNorm computed in float32 and cast back, as Qwen3's and LLaDA2's are (so bf16 weights give their numbers)."""

    def __init__(self, size: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


class SwiGLU(nn.Module):
    """The SwiGLU MLP (``gate_proj``, ``up_proj``, ``down_proj``): SDAR's and each of LLaDA2's experts."""

    def __init__(self, hidden_size: int, intermediate_size: int):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(nn.functional.silu(self.gate_proj(x)) * self.up_proj(x))


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rotary_tables(positions: torch.Tensor, dim: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos, sin ``[batch, 1, n, dim]`` in float32 for rotate-half RoPE over ``dim`` channels (each frequency twice)."""
    freqs = theta ** (-torch.arange(0, dim, 2, dtype=torch.float32, device=positions.device) / dim)
    angles = positions.to(torch.float32)[:, None, :, None] * freqs
    angles = torch.cat((angles, angles), dim=-1)
    return angles.cos(), angles.sin()


def rope(x: torch.Tensor, tables: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """Rotate-half RoPE of ``x`` ``[batch, heads, n, head_dim]`` on its first ``tables``-wide channels (all of them,
    or LLaDA2's partial half); the rest pass unchanged."""
    cos, sin = (t.to(x.dtype) for t in tables)
    width = cos.shape[-1]
    if width == x.shape[-1]:
        return x * cos + rotate_half(x) * sin
    turned, kept = x[..., :width], x[..., width:]
    return torch.cat((turned * cos + rotate_half(turned) * sin, kept), dim=-1)


def read_config(folder: str | os.PathLike, model_types: tuple[str, ...], what: str) -> dict:
    """The folder's ``config.json``, refused with one line unless its ``model_type`` is one of ``model_types``."""
    from ..common.checkpoints import model_type
    from ..common.sources import fail

    kind = model_type(folder, what)
    if kind not in model_types:
        fail(folder, f"not {what} (config.json says model_type {kind!r}; expected one of {model_types})")
    return json.loads((Path(folder) / "config.json").read_text())


def rope_theta(raw: dict, path: Path) -> float:
    """The RoPE base of a config as released (``rope_theta``) or as ``transformers`` 5 writes it
    (``rope_parameters``); any RoPE scaling is refused."""
    from ..common.sources import fail

    rope = raw.get("rope_parameters") or raw.get("rope_scaling") or {}
    if rope.get("rope_type", rope.get("type", "default")) != "default":
        fail(path, f"RoPE scaling {rope.get('rope_type', rope.get('type'))!r} is not supported (default only)")
    return float(raw.get("rope_theta", rope.get("rope_theta", 10000.0)))


def read_weights(folder: str | os.PathLike) -> dict[str, torch.Tensor]:
    """Every tensor of the folder's safetensors: ``model.safetensors``, or the shards its
    ``model.safetensors.index.json`` lists (the 8B and 16B models ship several). A missing shard names the index."""
    from ..common.checkpoints import read_safetensors
    from ..common.sources import fail

    folder = Path(folder)
    index = folder / "model.safetensors.index.json"
    if not index.is_file():
        return read_safetensors(folder / "model.safetensors")
    try:
        shards = sorted(set(json.loads(index.read_text())["weight_map"].values()))
    except (ValueError, KeyError, AttributeError):
        fail(index, "not a safetensors index (no weight_map)")
    tensors = {}
    for shard in shards:
        if not (folder / shard).is_file():
            fail(index, f"lists {shard}, which the folder lacks")
        tensors |= read_safetensors(folder / shard)
    return tensors


def mask_token_id(folder: str | os.PathLike, spelling: str) -> int:
    """The id of the tokenizer's mask token (its ``mask_token``, else ``spelling``); a tokenizer without one names
    the folder."""
    from ..common.lm.tokenizer import load_tokenizer
    from ..common.sources import fail

    tokenizer = load_tokenizer(folder)
    if tokenizer.mask_token_id is not None:
        return int(tokenizer.mask_token_id)
    found = tokenizer.convert_tokens_to_ids(spelling)
    if found is None or found == tokenizer.unk_token_id:
        fail(folder, f"the tokenizer has no mask token ({spelling}): not a diffusion model's tokenizer")
    return int(found)


def load_into(model_class, config, folder: str | os.PathLike, dtype: torch.dtype | None, drop=()) -> nn.Module:
    """``model_class(config)`` with the folder's tensors (in their own dtype unless ``dtype``), built on the meta
    device so no time goes into a random initialisation of billions of weights; tensors named in ``drop`` are
    ignored (a tied head stored twice). Weights that do not cover the model exactly are one line naming the folder
    (:func:`..common.checkpoints.check_coverage`)."""
    from ..common.checkpoints import check_coverage

    tensors = read_weights(folder)
    for name in drop:
        tensors.pop(name, None)
    with torch.device("meta"):
        model = model_class(config)
    expected = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    mismatched = [k for k in expected.keys() & tensors.keys() if tuple(tensors[k].shape) != expected[k]]
    check_coverage(folder, expected.keys() - tensors.keys(), tensors.keys() - expected.keys(), mismatched)
    if dtype is not None:
        tensors = {k: v.to(dtype) for k, v in tensors.items()}
    model.load_state_dict(tensors, assign=True)
    return model.eval()


ARCHITECTURES = {"sdar": "sdar", "qwen3": "sdar", "llada2_moe": "llada2"}  # model_type -> the module that reads it


def architecture(folder: str | os.PathLike):
    """The module (:mod:`.sdar`, :mod:`.llada2`) that reads the paper's model in ``folder``, by its config.json's
    ``model_type``; None for anything else (a folder of our own architecture, whose loader names what is wrong)."""
    import importlib

    try:
        kind = json.loads((Path(folder) / "config.json").read_text()).get("model_type")
    except (OSError, ValueError, AttributeError):
        return None
    return importlib.import_module(f"{__package__}.{ARCHITECTURES[kind]}") if kind in ARCHITECTURES else None
