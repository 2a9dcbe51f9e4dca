"""PRISM's mixture of experts: a FiLM-conditioned noisy top-k router and a shared + routed expert layer.

- :class:`FiLM` modulates the router's input by the condition embedding, ``(1 + gamma) x + beta``, with the
  projection initialised to zero so it is the identity at initialisation (the router starts unconditioned).
- :class:`Router`: logits ``W_g FiLM(x, c)``; in training, Gaussian noise with a learned, softplus scale (noisy
  top-k gating) and *expert dropout*: each expert is dropped for a token with probability ``dropout``, but the
  ``k`` experts with the highest dropout draws always survive, so a token never has fewer than ``k`` candidates.
  The top-k logits are renormalised by a softmax over the k chosen (weights sum to 1).
- :class:`MoE`: ``shared(x) + sum_k w_k expert_k(x)``; each expert sees only the tokens routed to it (physical
  dispatch), and the layer returns the Switch-Transformer load-balance loss ``E sum_i f_i P_i`` (``f_i``: share of
  the T k assignments to expert i, ``P_i``: mean router probability; 1 at perfect balance).

Experts are two-layer GELU MLPs (:class:`Mlp`); ours, like the reference's, without spatial convolutions.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


class Mlp(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(dim, hidden), nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(F.gelu(self.fc1(x)))


class FiLM(nn.Module):
    """Feature-wise affine modulation by a condition embedding; the identity at initialisation."""

    def __init__(self, dim: int, condition_dim: int):
        super().__init__()
        self.project = nn.Linear(condition_dim, 2 * dim)
        nn.init.zeros_(self.project.weight)
        nn.init.zeros_(self.project.bias)

    def forward(self, x: torch.Tensor, condition: torch.Tensor) -> torch.Tensor:
        gamma, beta = self.project(condition).chunk(2, dim=-1)
        return (1 + gamma) * x + beta


def expert_dropout_mask(draws: torch.Tensor, rate: float, k: int) -> torch.Tensor:
    """Which experts survive for each token (``[T, E]`` bool) given uniform ``draws``: those with a draw of at
    least ``rate``, and always the ``k`` with the highest draws."""
    keep = draws >= rate
    best = draws.topk(k, dim=-1).indices
    return keep.scatter(-1, best, True)


@dataclass(frozen=True)
class Routing:
    weights: torch.Tensor  # [T, k], rows sum to 1
    indices: torch.Tensor  # [T, k] expert ids
    probabilities: torch.Tensor  # [T, E] softmax over the surviving experts (for the balance loss)


class Router(nn.Module):
    def __init__(self, dim: int, experts: int, top_k: int, condition_dim: int | None, noisy: bool, dropout: float):
        super().__init__()
        if not 1 <= top_k <= experts:
            raise ValueError(f"top_k must be in [1, experts={experts}], got {top_k}")
        self.experts, self.top_k, self.dropout = experts, top_k, dropout
        self.film = FiLM(dim, condition_dim) if condition_dim else None
        self.gate = nn.Linear(dim, experts)
        self.noise = nn.Linear(dim, experts) if noisy else None

    def forward(self, x: torch.Tensor, condition: torch.Tensor | None = None) -> Routing:
        """``x``: tokens ``[T, D]``; ``condition``: their condition embeddings ``[T, C]`` (ignored if unconditioned)."""
        h = self.film(x, condition) if self.film is not None else x
        logits = self.gate(h)
        if self.training and self.noise is not None:
            logits = logits + torch.randn_like(logits) * F.softplus(self.noise(h))
        if self.training and self.dropout > 0:
            survive = expert_dropout_mask(torch.rand_like(logits), self.dropout, self.top_k)
            logits = logits.masked_fill(~survive, float("-inf"))
        top = logits.topk(self.top_k, dim=-1)
        return Routing(F.softmax(top.values, dim=-1), top.indices, F.softmax(logits, dim=-1))


def balance_loss(routing: Routing, experts: int) -> torch.Tensor:
    """Switch-Transformer load balance ``E sum_i f_i P_i`` (1 when tokens and probability spread evenly)."""
    counts = torch.bincount(routing.indices.flatten(), minlength=experts).to(routing.probabilities.dtype)
    share = counts / counts.sum()
    return experts * (share * routing.probabilities.mean(dim=0)).sum()


class MoE(nn.Module):
    """Shared expert (optional) plus top-k routed experts; returns the output, the balance loss and the routing."""

    def __init__(
        self,
        dim: int,
        hidden: int,
        experts: int,
        top_k: int,
        *,
        shared: bool = True,
        condition_dim: int | None = None,
        noisy: bool = True,
        dropout: float = 0.0,
    ):
        super().__init__()
        self.experts = nn.ModuleList(Mlp(dim, hidden) for _ in range(experts))
        self.shared = Mlp(dim, hidden) if shared else None
        self.router = Router(dim, experts, top_k, condition_dim, noisy, dropout)

    def forward(self, x: torch.Tensor, condition: torch.Tensor | None = None):
        """``x``: ``[B, N, D]``; ``condition``: ``[B, C]`` per image. Returns (``[B, N, D]``, balance, indices
        ``[B, N, k]``)."""
        batch, tokens, dim = x.shape
        flat = x.reshape(-1, dim)
        per_token = condition.repeat_interleave(tokens, dim=0) if condition is not None else None
        routing = self.router(flat, per_token)
        out = self.shared(flat) if self.shared is not None else torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            rows, slot = (routing.indices == e).nonzero(as_tuple=True)
            if rows.numel():
                out = out.index_add(0, rows, routing.weights[rows, slot, None] * expert(flat[rows]))
        balance = balance_loss(routing, len(self.experts))
        return out.reshape(batch, tokens, dim), balance, routing.indices.reshape(batch, tokens, -1)
