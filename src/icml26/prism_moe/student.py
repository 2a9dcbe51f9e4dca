"""The students: a small ViT (4 x 4 patches) whose last blocks are PRISM's dual-stream blocks, or a baseline's.

Every student has the same trunk (patch embedding, position embedding, ``depth - routed_blocks`` standard pre-norm
blocks: ``torch.nn.TransformerEncoderLayer``) and differs only in its last ``routed_blocks`` blocks:

- ``prism``: dual-stream blocks, ``x <- x + g * FFN_dense(x~) + (1 - g) * MoE(x~, c)`` with a per-token gate
  ``g = 0.5 + 0.5 sigmoid(w . x~ + b)`` in [0.5, 1] (``b`` starts at ``gate_bias``, so ``g`` starts near 1) and a
  MoE whose router is FiLM-conditioned on the condition embedding (teacher ID in stage 1, task ID in stage 2);
- ``moe_unconditioned``: the same blocks with a router that never sees the condition;
- ``adapters``: standard blocks plus one bottleneck adapter per teacher; a teacher's condition uses its adapter,
  a task's condition the mean of all of them (ours: the spec's "shared stem + teacher-specific adapters" needs a
  rule for tasks; a fixed uniform mix is the unlearned counterpart of PRISM's recomposition);
- ``dense``: standard blocks (monolithic multi-teacher distillation, and the single-teacher and from-scratch
  students).

Each baseline has one free width (``dense``: the FFN of its last blocks; ``moe_unconditioned``: its dense
stream; ``adapters``: the adapter bottleneck), chosen by :func:`matched_width` so its parameter count equals
PRISM's as closely as the integer width allows (a test bounds the gap at 1 %).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch
from torch import nn

from .moe import Mlp, MoE

KINDS = ("prism", "moe_unconditioned", "adapters", "dense")


@dataclass(frozen=True)
class StudentSettings:
    image_size: int = 32
    patch: int = 4
    dim: int = 64
    depth: int = 4
    heads: int = 4
    mlp_hidden: int = 128
    routed_blocks: int = 2
    experts: int = 4
    expert_hidden: int = 64
    top_k: int = 2
    condition_dim: int = 16
    noisy: bool = True
    expert_dropout: float = 0.1
    gate_bias: float = 3.0
    width: int | None = None  # a baseline's free width (matched_width); None = mlp_hidden / expert_hidden

    @property
    def tokens(self) -> int:
        return (self.image_size // self.patch) ** 2


def _standard(s: StudentSettings, hidden: int) -> nn.TransformerEncoderLayer:
    return nn.TransformerEncoderLayer(
        s.dim, s.heads, hidden, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
    )


class DualStreamBlock(nn.Module):
    def __init__(self, s: StudentSettings, conditioned: bool):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(s.dim), nn.LayerNorm(s.dim)
        self.attention = nn.MultiheadAttention(s.dim, s.heads, batch_first=True)
        self.dense = Mlp(s.dim, s.width or s.mlp_hidden)
        self.moe = MoE(
            s.dim,
            s.expert_hidden,
            s.experts,
            s.top_k,
            condition_dim=s.condition_dim if conditioned else None,
            noisy=s.noisy,
            dropout=s.expert_dropout,
        )
        self.gate = nn.Linear(s.dim, 1)
        nn.init.zeros_(self.gate.weight)
        nn.init.constant_(self.gate.bias, s.gate_bias)

    def gate_value(self, h: torch.Tensor) -> torch.Tensor:
        return 0.5 + 0.5 * torch.sigmoid(self.gate(h))

    def forward(self, x: torch.Tensor, condition: torch.Tensor):
        h = self.norm1(x)
        x = x + self.attention(h, h, h, need_weights=False)[0]
        h = self.norm2(x)
        g = self.gate_value(h)
        routed, balance, indices = self.moe(h, condition)
        return x + g * self.dense(h) + (1 - g) * routed, balance, indices


class AdapterBlock(nn.Module):
    """A standard block followed by residual teacher adapters mixed by a fixed condition -> adapter table."""

    def __init__(self, s: StudentSettings, mix: torch.Tensor):
        super().__init__()
        self.block = _standard(s, s.mlp_hidden)
        self.norm = nn.LayerNorm(s.dim)
        self.adapters = nn.ModuleList(Mlp(s.dim, s.width or s.expert_hidden) for _ in range(mix.shape[1]))
        self.register_buffer("mix", mix.clone())  # one per block: safetensors refuses shared storage

    def forward(self, x: torch.Tensor, conditions: torch.Tensor):
        x = self.block(x)
        h = self.norm(x)
        outputs = torch.stack([adapter(h) for adapter in self.adapters], dim=1)  # [B, A, N, D]
        weights = self.mix[conditions][:, :, None, None]
        return x + (weights * outputs).sum(dim=1), None, None


@dataclass
class StudentOutput:
    tokens: list[torch.Tensor]  # one [B, N, D] per requested condition
    balance: torch.Tensor  # mean load-balance loss over MoE blocks (0 without)
    routes: list[torch.Tensor]  # per MoE block, expert indices [conditions, B, N, k]


class Student(nn.Module):
    """``forward(images, conditions)`` runs the trunk once and the last blocks once per condition (stacked)."""

    def __init__(self, s: StudentSettings, kind: str, teachers: int, tasks: int):
        super().__init__()
        if kind not in KINDS:
            raise ValueError(f"student kind must be one of {KINDS}, got {kind!r}")
        if not 1 <= s.routed_blocks <= s.depth:
            raise ValueError(f"routed_blocks must be in [1, depth={s.depth}], got {s.routed_blocks}")
        self.settings, self.kind = s, kind
        self.patch = nn.Conv2d(3, s.dim, s.patch, stride=s.patch)
        self.position = nn.Parameter(torch.randn(1, s.tokens, s.dim) * 0.02)
        self.trunk = nn.ModuleList(_standard(s, s.mlp_hidden) for _ in range(s.depth - s.routed_blocks))
        self.conditioned = kind in ("prism", "adapters")
        if kind == "prism":
            self.condition = nn.Embedding(teachers + tasks, s.condition_dim)
        if kind in ("prism", "moe_unconditioned"):
            self.last = nn.ModuleList(DualStreamBlock(s, kind == "prism") for _ in range(s.routed_blocks))
        elif kind == "adapters":
            mix = torch.cat([torch.eye(teachers), torch.full((tasks, teachers), 1 / teachers)])
            self.last = nn.ModuleList(AdapterBlock(s, mix) for _ in range(s.routed_blocks))
        else:
            self.last = nn.ModuleList(_standard(s, s.width or s.mlp_hidden) for _ in range(s.routed_blocks))
        self.norm = nn.LayerNorm(s.dim)

    def forward(self, images: torch.Tensor, conditions: list[int]) -> StudentOutput:
        x = self.patch(images.float() / 255 - 0.5).flatten(2).transpose(1, 2) + self.position
        for block in self.trunk:
            x = block(x)
        batch, copies = x.shape[0], len(conditions) if self.conditioned else 1
        ids = torch.tensor(conditions, device=x.device).repeat_interleave(batch)[: copies * batch]
        # what the last blocks read: PRISM's router the condition embedding, the adapters the condition ids
        condition = self.condition(ids) if self.kind == "prism" else ids if self.kind == "adapters" else None
        x = x.repeat(copies, 1, 1)
        balances, routes = [], []
        for block in self.last:
            if self.kind == "dense":
                x = block(x)
                continue
            x, balance, indices = block(x, condition)
            if balance is not None:
                balances.append(balance)
                routes.append(indices.reshape(copies, batch, *indices.shape[1:]))
        tokens = self.norm(x).split(batch)
        tokens = list(tokens) if self.conditioned else [tokens[0]] * len(conditions)
        balance = torch.stack(balances).mean() if balances else x.new_zeros(())
        return StudentOutput(tokens, balance, routes)


def parameter_count(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


def matched_width(s: StudentSettings, kind: str, teachers: int, tasks: int) -> StudentSettings:
    """``s`` with the free width of ``kind`` set so its parameter count is nearest PRISM's (PRISM: unchanged)."""
    if kind == "prism":
        return replace(s, width=None)
    target = parameter_count(Student(replace(s, width=None), "prism", teachers, tasks))

    def count(width: int) -> int:
        return parameter_count(Student(replace(s, width=width), kind, teachers, tasks))

    low, high = count(1), count(2)  # the count is affine in the width
    width = max(1, round(1 + (target - low) / (high - low)))
    return replace(s, width=width)
