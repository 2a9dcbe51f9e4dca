"""SDAR (``JetLM/SDAR-*-Chat``, the paper's block-diffusion models): the Qwen3 architecture run block-causally,
read from its Hugging Face folder without its remote code (never ``trust_remote_code``).

SDAR's weights are Qwen3's, tensor for tensor (``model.embed_tokens``, ``model.layers.N.self_attn.{q,k,v,o}_proj``
with per-head RMSNorm ``q_norm``/``k_norm``, grouped-query attention, ``mlp.{gate,up,down}_proj`` SwiGLU, RMSNorm
before each sublayer, ``lm_head`` tied below 4B), with rotate-half RoPE. What makes it a diffusion model is how it
is run, as its reference ``generate.py`` runs it: attention full inside a block and causal across blocks (the
:func:`.model.block_causal_mask`), a prefix KV cache of finished blocks, the ``<|MASK|>`` token in masked positions,
and the logits at position i predicting the token *at* i (no shift, unlike a causal LM). The block size is a
decoding setting the model was trained for (``-b32``: 32; the plain Chat models: 4), given by the config's
``layout.block_size``.

The module exposes the parts the FOCUS decoder calls (:mod:`.decoding`; the same interface as
:class:`.model.BlockDiffusionLM`): ``embed``, ``rotary``, per layer ``project`` / ``attend`` / ``out`` /
``feed_forward``, and ``logits``. Equal to ``transformers``' ``Qwen3ForCausalLM`` when the block size is 1 (then the
block-causal mask is the causal one): the test oracle, on a replica saved with ``save_pretrained``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from .hub import (
    HubConfig,
    HubDecoderLayer,
    HubModel,
    RMSNorm,
    SwiGLU,
    load_into,
    mask_token_id,
    read_config,
    rope,
    rope_theta,
    rotary_tables,
)
from .model import Rotary

MODEL_TYPES = ("sdar", "qwen3")  # SDAR's own config, or the Qwen3 layout it shares (the replicas say sdar too)
MASK_TOKEN = "<|MASK|>"


@dataclass(frozen=True)
class SDARConfig(HubConfig):
    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    rms_norm_eps: float
    rope_theta: float
    tie_word_embeddings: bool
    block_size: int  # decoding settings, not in config.json: the block the model was trained for
    mask_token_id: int

    @classmethod
    def from_folder(cls, folder: str | os.PathLike, *, block_size: int) -> SDARConfig:
        """The folder's ``config.json`` (as SDAR ships it, or as ``transformers`` 5 writes a Qwen3 config) and its
        tokenizer's mask token; anything this module does not compute (another RoPE type, biases, another
        activation) is one line naming the file."""
        from ..common.sources import fail

        raw = read_config(folder, MODEL_TYPES, "an SDAR model")
        path = Path(folder) / "config.json"
        theta = rope_theta(raw, path)
        if raw.get("attention_bias") or raw.get("hidden_act", "silu") != "silu":
            fail(path, "expected SDAR's attention without biases and SiLU activations")
        try:
            sizes = dict(
                vocab_size=raw["vocab_size"],
                hidden_size=raw["hidden_size"],
                intermediate_size=raw["intermediate_size"],
                num_hidden_layers=raw["num_hidden_layers"],
                num_attention_heads=raw["num_attention_heads"],
                num_key_value_heads=raw.get("num_key_value_heads", raw["num_attention_heads"]),
                head_dim=raw.get("head_dim") or raw["hidden_size"] // raw["num_attention_heads"],
                rms_norm_eps=raw.get("rms_norm_eps", 1e-6),
                rope_theta=theta,
                tie_word_embeddings=raw.get("tie_word_embeddings", False),
            )
        except KeyError as error:
            fail(path, f"names no {error.args[0]}: not an SDAR config")
        return cls(**sizes, block_size=block_size, mask_token_id=mask_token_id(folder, MASK_TOKEN))


class SDARAttention(nn.Module):
    def __init__(self, config: SDARConfig):
        super().__init__()
        c, d = config, config.head_dim
        self.config = config
        self.q_proj = nn.Linear(c.hidden_size, c.num_attention_heads * d, bias=False)
        self.k_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * d, bias=False)
        self.v_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * d, bias=False)
        self.o_proj = nn.Linear(c.num_attention_heads * d, c.hidden_size, bias=False)
        self.q_norm = RMSNorm(d, c.rms_norm_eps)  # per head, before RoPE
        self.k_norm = RMSNorm(d, c.rms_norm_eps)


class SDARDecoderLayer(HubDecoderLayer):
    def __init__(self, config: SDARConfig):
        super().__init__()
        self.config = config
        self.self_attn = SDARAttention(config)
        self.mlp = SwiGLU(config.hidden_size, config.intermediate_size)
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)

    def project(self, x: torch.Tensor, tables: Rotary) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Queries ``[batch, heads, n, d]``, keys and values ``[batch, kv_heads, n, d]`` of the rows ``x``."""
        b, n, _ = x.shape
        attn, d = self.self_attn, self.config.head_dim
        h = self.input_layernorm(x)
        q = attn.q_norm(attn.q_proj(h).view(b, n, -1, d)).transpose(1, 2)
        k = attn.k_norm(attn.k_proj(h).view(b, n, -1, d)).transpose(1, 2)
        v = attn.v_proj(h).view(b, n, -1, d).transpose(1, 2)
        return rope(q, tables), rope(k, tables), v

    def out(self, read: torch.Tensor) -> torch.Tensor:
        return self.self_attn.o_proj(read)


class SDARModel(nn.Module):
    def __init__(self, config: SDARConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(SDARDecoderLayer(config) for _ in range(config.num_hidden_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps)


class SDARForCausalLM(HubModel):
    """The weights' module tree as the checkpoint names it; a tied model has no ``lm_head`` of its own."""

    def __init__(self, config: SDARConfig):
        super().__init__(config, SDARModel(config))

    def rotary(self, positions: torch.Tensor) -> Rotary:
        """cos, sin ``[batch, 1, n, head_dim]`` in float32 (rotate-half layout: each frequency twice)."""
        return rotary_tables(positions, self.config.head_dim, self.config.rope_theta)

    def with_layers(self, layers: int) -> SDARForCausalLM:
        """A model of this one's width at depth ``layers``, random weights (the depth measurement)."""
        import dataclasses

        return SDARForCausalLM(dataclasses.replace(self.config, num_hidden_layers=layers))


def load(folder: str | os.PathLike, *, block_size: int, dtype: torch.dtype | None = None) -> SDARForCausalLM:
    """An SDAR model from its Hugging Face folder (config.json, safetensors, tokenizer), in the weights' own dtype
    unless ``dtype`` is given (:func:`.hub.load_into`: built on the meta device, weights checked to cover it)."""
    config = SDARConfig.from_folder(folder, block_size=block_size)
    drop = ("lm_head.weight",) if config.tie_word_embeddings else ()  # some tied checkpoints store it twice
    return load_into(SDARForCausalLM, config, folder, dtype, drop)


Config = SDARConfig  # the name every hub model module gives its config (.rules reads any of them)
