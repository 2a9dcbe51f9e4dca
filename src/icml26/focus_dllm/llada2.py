"""LLaDA 2.0 (``inclusionAI/LLaDA2.0-mini``, the paper's second model): a mixture-of-experts masked-diffusion model
run in blocks, read from its Hugging Face folder without its remote code (never ``trust_remote_code``).

The architecture (``model_type`` ``llada2_moe``, the Bailing MoE v2 layout), named as the checkpoint names it:
``model.word_embeddings``; per layer ``attention.query_key_value`` (one fused projection: the query heads, then the
key-value heads' keys, then their values), per-head RMSNorm ``query_layernorm``/``key_layernorm``, rotate-half RoPE
on the first ``partial_rotary_factor`` of each head's channels, ``attention.dense`` out; ``input_layernorm`` and
``post_attention_layernorm``; the first ``first_k_dense_replace`` layers a SwiGLU ``mlp``, the others a sparse
``mlp``: a router ``gate`` (``weight``, ``expert_bias``), ``num_experts`` SwiGLU ``experts`` and
``shared_experts``; ``model.norm``, ``lm_head``. Routing as the reference computes it: sigmoid scores, the
``expert_bias`` added only to choose (the top two scores of each of ``n_group`` expert groups choose
``topk_group`` groups, then the ``num_experts_per_tok`` best experts within them), the chosen experts' unbiased
scores normalised to sum to one and scaled by ``routed_scaling_factor``; the shared experts always run.

LLaDA 2.0 decodes as SDAR does in the paper's setting (blocks of 32, attention full inside a block and causal
across blocks, a prefix cache, the logits at a position predicting that position's token, ``<|mask|>`` in masked
positions), so the same decoder runs it (:mod:`.decoding`; the interface of :class:`.model.BlockDiffusionLM`).
Tested: with dense layers only and full rotation it equals ``transformers``' Qwen3 (its fused projection split
into Qwen3's three) with one-token blocks; the router on hand-built scores; a sparse layer whose experts are all
one MLP equals that MLP times the scaling factor plus the shared experts.
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

MODEL_TYPES = ("llada2_moe",)
MASK_TOKEN = "<|mask|>"


@dataclass(frozen=True)
class LLaDA2Config(HubConfig):
    vocab_size: int
    hidden_size: int
    intermediate_size: int  # the dense layers' MLP
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    rms_norm_eps: float
    rope_theta: float
    partial_rotary_factor: float
    tie_word_embeddings: bool
    num_experts: int
    num_shared_experts: int
    num_experts_per_tok: int
    moe_intermediate_size: int
    n_group: int
    topk_group: int
    routed_scaling_factor: float
    first_k_dense_replace: int
    block_size: int  # decoding settings, not in config.json
    mask_token_id: int

    @property
    def rope_dim(self) -> int:
        return int(self.head_dim * self.partial_rotary_factor)

    @classmethod
    def from_folder(cls, folder: str | os.PathLike, *, block_size: int) -> LLaDA2Config:
        """The folder's ``config.json`` and its tokenizer's mask token; what this module does not compute (biases,
        a softmax router, RoPE scaling) is one line naming the file."""
        from ..common.sources import fail

        raw = read_config(folder, MODEL_TYPES, "a LLaDA 2.0 model")
        path = Path(folder) / "config.json"
        theta = rope_theta(raw, path)
        if raw.get("use_qkv_bias") or raw.get("use_bias") or raw.get("score_function", "sigmoid") != "sigmoid":
            fail(path, "expected LLaDA 2.0's projections without biases and a sigmoid router")
        try:
            sizes = {
                key: raw[key]
                for key in (
                    "vocab_size",
                    "hidden_size",
                    "intermediate_size",
                    "num_hidden_layers",
                    "num_attention_heads",
                    "num_experts",
                    "num_experts_per_tok",
                    "moe_intermediate_size",
                    "n_group",
                    "topk_group",
                )
            }
        except KeyError as error:
            fail(path, f"names no {error.args[0]}: not a LLaDA 2.0 config")
        if sizes["num_experts"] % sizes["n_group"]:
            fail(path, f"{sizes['num_experts']} experts do not split into {sizes['n_group']} groups")
        return cls(
            **sizes,
            num_key_value_heads=raw.get("num_key_value_heads", sizes["num_attention_heads"]),
            head_dim=raw.get("head_dim") or sizes["hidden_size"] // sizes["num_attention_heads"],
            rms_norm_eps=raw.get("rms_norm_eps", 1e-6),
            rope_theta=theta,
            partial_rotary_factor=raw.get("partial_rotary_factor", 1.0),
            tie_word_embeddings=raw.get("tie_word_embeddings", False),
            num_shared_experts=raw.get("num_shared_experts") or 0,
            routed_scaling_factor=raw.get("routed_scaling_factor", 1.0),
            first_k_dense_replace=raw.get("first_k_dense_replace", 0),
            block_size=block_size,
            mask_token_id=mask_token_id(folder, MASK_TOKEN),
        )


class LLaDA2Attention(nn.Module):
    def __init__(self, config: LLaDA2Config):
        super().__init__()
        c, d = config, config.head_dim
        fused = (c.num_attention_heads + 2 * c.num_key_value_heads) * d  # queries, keys, values
        self.query_key_value = nn.Linear(c.hidden_size, fused, bias=False)
        self.query_layernorm = RMSNorm(d, c.rms_norm_eps)
        self.key_layernorm = RMSNorm(d, c.rms_norm_eps)
        self.dense = nn.Linear(c.num_attention_heads * d, c.hidden_size, bias=False)


class LLaDA2Gate(nn.Module):
    """The router: which experts each row goes to, and with what weights."""

    def __init__(self, config: LLaDA2Config):
        super().__init__()
        self.config = config
        self.weight = nn.Parameter(torch.empty(config.num_experts, config.hidden_size))
        self.register_buffer("expert_bias", torch.zeros(config.num_experts))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(experts [rows, k], weights [rows, k])`` for the rows ``x`` ``[rows, hidden]`` (scores in float32)."""
        c, rows = self.config, x.shape[0]
        scores = torch.sigmoid(nn.functional.linear(x.float(), self.weight.float()))
        biased = scores + self.expert_bias.float()  # chooses, never weighs
        groups = biased.view(rows, c.n_group, -1).topk(2, dim=-1).values.sum(dim=-1)
        chosen = torch.zeros_like(groups).scatter_(1, groups.topk(c.topk_group, dim=-1).indices, 1.0).bool()
        allowed = chosen[:, :, None].expand(rows, c.n_group, c.num_experts // c.n_group).reshape(rows, -1)
        experts = biased.masked_fill(~allowed, -torch.inf).topk(c.num_experts_per_tok, dim=-1).indices
        weights = scores.gather(1, experts)
        if c.num_experts_per_tok > 1:
            weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-20)
        return experts, weights * c.routed_scaling_factor


class LLaDA2SparseMoeBlock(nn.Module):
    def __init__(self, config: LLaDA2Config):
        super().__init__()
        hidden, each = config.hidden_size, config.moe_intermediate_size
        self.gate = LLaDA2Gate(config)
        self.experts = nn.ModuleList(SwiGLU(hidden, each) for _ in range(config.num_experts))
        if config.num_shared_experts:
            self.shared_experts = SwiGLU(hidden, each * config.num_shared_experts)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Each row through its chosen experts, weighted, plus the shared experts. One matrix product per expert
        that any row chose (rows gathered per expert), not a loop over rows."""
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        experts, weights = self.gate(flat)
        out = torch.zeros_like(flat)
        for e in torch.unique(experts).tolist():
            rows, slot = torch.nonzero(experts == e, as_tuple=True)
            out.index_add_(0, rows, self.experts[e](flat[rows]) * weights[rows, slot, None].to(flat.dtype))
        if hasattr(self, "shared_experts"):
            out = out + self.shared_experts(flat)
        return out.view(shape)


class LLaDA2DecoderLayer(HubDecoderLayer):
    def __init__(self, config: LLaDA2Config, index: int):
        super().__init__()
        self.config = config
        self.attention = LLaDA2Attention(config)
        if index < config.first_k_dense_replace:
            self.mlp = SwiGLU(config.hidden_size, config.intermediate_size)
        else:
            self.mlp = LLaDA2SparseMoeBlock(config)
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)

    def project(self, x: torch.Tensor, tables: Rotary) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Queries ``[batch, heads, n, d]``, keys and values ``[batch, kv_heads, n, d]`` of the rows ``x``."""
        b, n, _ = x.shape
        c, attn = self.config, self.attention
        qkv = attn.query_key_value(self.input_layernorm(x)).view(b, n, -1, c.head_dim)
        q, k, v = qkv.split([c.num_attention_heads, c.num_key_value_heads, c.num_key_value_heads], dim=2)
        q = attn.query_layernorm(q).transpose(1, 2)
        k = attn.key_layernorm(k).transpose(1, 2)
        return rope(q, tables), rope(k, tables), v.transpose(1, 2)

    def out(self, read: torch.Tensor) -> torch.Tensor:
        return self.attention.dense(read)


class LLaDA2Model(nn.Module):
    def __init__(self, config: LLaDA2Config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(LLaDA2DecoderLayer(config, i) for i in range(config.num_hidden_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps)


class LLaDA2MoeModelLM(HubModel):
    """The checkpoint's module tree; a tied model has no ``lm_head`` of its own."""

    EMBEDDING = "word_embeddings"

    def __init__(self, config: LLaDA2Config):
        super().__init__(config, LLaDA2Model(config))

    def rotary(self, positions: torch.Tensor) -> Rotary:
        """cos, sin ``[batch, 1, n, rope_dim]`` in float32: the rotated part of each head only."""
        return rotary_tables(positions, self.config.rope_dim, self.config.rope_theta)

    def with_layers(self, layers: int) -> LLaDA2MoeModelLM:
        """A model of this one's width at depth ``layers``, random weights (the depth measurement)."""
        import dataclasses

        model = LLaDA2MoeModelLM(dataclasses.replace(self.config, num_hidden_layers=layers))
        for layer in model.layers:
            if isinstance(layer.mlp, LLaDA2SparseMoeBlock):
                nn.init.normal_(layer.mlp.gate.weight, std=0.02)  # torch.empty until a checkpoint fills it
        return model


def load(folder: str | os.PathLike, *, block_size: int, dtype: torch.dtype | None = None) -> LLaDA2MoeModelLM:
    """A LLaDA 2.0 model from its Hugging Face folder, in the weights' own dtype unless ``dtype`` is given
    (:func:`.hub.load_into`: built on the meta device, weights checked to cover it)."""
    config = LLaDA2Config.from_folder(folder, block_size=block_size)
    drop = ("lm_head.weight",) if config.tie_word_embeddings else ()
    return load_into(LLaDA2MoeModelLM, config, folder, dtype, drop)


Config = LLaDA2Config  # the name every hub model module gives its config (.rules reads any of them)
