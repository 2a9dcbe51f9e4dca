"""The denoiser: a graph transformer with edge-FiLM attention, with or without ACAM global tokens (plain torch).

- *Edge-FiLM attention* (DiGress's layer, our sizes): per head, the score ``q_i . k_j / sqrt(d)`` is modulated by
  the edge ``(1 + gamma_ij) score + beta_ij`` (``gamma, beta`` linear in the edge features); nodes attend with a
  softmax over the pairs in range (and themselves), and each edge is updated from its modulated scores.
- *ACAM tokens* (absolute cross-attentive modulation): ``G`` learned global tokens read every node and every edge
  with *gated, absolute* attention -- a sigmoid gate per item and a sum divided by a constant (the largest node
  or pair count, ``scale``), not by the number of items -- so a token's input grows with how many links or used
  sectors there are and graph-level counts (density, sector usage) are representable; softmax averaging would
  keep only proportions. The tokens then modulate nodes and edges by FiLM (identity at initialisation).
- Outputs: symmetric edge logits ``[B, N, N, 2]`` (no link, link) and parity logits ``[B, N, 2]``.

``acam=False`` is the baseline (the same transformer without global tokens, DiGress-style).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class DenoiserSettings:
    node_features: int
    edge_features: int
    dim: int = 64
    edge_dim: int = 32
    heads: int = 4
    layers: int = 3
    tokens: int = 4  # ACAM global tokens
    acam: bool = True
    scale: float = 20.0  # ACAM's constant normaliser (about the largest N in training)


class EdgeFiLMLayer(nn.Module):
    def __init__(self, s: DenoiserSettings):
        super().__init__()
        self.heads, self.head_dim = s.heads, s.dim // s.heads
        self.qkv = nn.Linear(s.dim, 3 * s.dim)
        self.film = nn.Linear(s.edge_dim, 2 * s.heads)
        self.node_out = nn.Sequential(nn.Linear(s.dim, s.dim), nn.GELU(), nn.Linear(s.dim, s.dim))
        self.edge_out = nn.Sequential(nn.Linear(s.heads, s.edge_dim), nn.GELU(), nn.Linear(s.edge_dim, s.edge_dim))
        self.norm_node, self.norm_edge = nn.LayerNorm(s.dim), nn.LayerNorm(s.edge_dim)

    def forward(self, h: torch.Tensor, e: torch.Tensor, allowed: torch.Tensor):
        b, n, _ = h.shape
        q, k, v = self.qkv(h).view(b, n, 3, self.heads, self.head_dim).unbind(2)
        scores = torch.einsum("bihd,bjhd->bijh", q, k) / self.head_dim**0.5
        gamma, beta = self.film(e).chunk(2, dim=-1)
        scores = (1 + gamma) * scores + beta  # [b, i, j, heads]
        weights = torch.softmax(scores.masked_fill(~allowed[..., None], float("-inf")), dim=2)
        h = self.norm_node(h + self.node_out(torch.einsum("bijh,bjhd->bihd", weights, v).reshape(b, n, -1)))
        e = self.norm_edge(e + self.edge_out(scores))
        return h, e


class ACAM(nn.Module):
    """Global tokens that read nodes and edges by gated sums and modulate them by FiLM."""

    def __init__(self, s: DenoiserSettings):
        super().__init__()
        self.tokens = nn.Parameter(torch.randn(s.tokens, s.dim) * 0.02)
        self.query = nn.Linear(s.dim, s.dim)
        self.node_key, self.node_value = nn.Linear(s.dim, s.dim), nn.Linear(s.dim, s.dim)
        self.edge_key, self.edge_value = nn.Linear(s.edge_dim, s.dim), nn.Linear(s.edge_dim, s.dim)
        self.update = nn.Sequential(nn.Linear(3 * s.dim, s.dim), nn.GELU(), nn.Linear(s.dim, s.dim))
        self.node_film, self.edge_film = nn.Linear(s.dim, 2 * s.dim), nn.Linear(s.dim, 2 * s.edge_dim)
        for layer in (self.node_film, self.edge_film):
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)
        self.scale = s.scale

    def read(self, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, valid: torch.Tensor):
        """``sum_items sigmoid(q . k) v / scale`` over the valid items: grows with their number."""
        gate = torch.sigmoid(torch.einsum("btd,bmd->btm", queries, keys) / keys.shape[-1] ** 0.5) * valid[:, None]
        return torch.einsum("btm,bmd->btd", gate, values) / self.scale

    def forward(self, h: torch.Tensor, e: torch.Tensor, nodes: torch.Tensor, pairs: torch.Tensor):
        b, n, _ = h.shape
        g = self.tokens.expand(b, -1, -1)
        q = self.query(g)
        flat_e = e.reshape(b, n * n, -1)
        from_nodes = self.read(q, self.node_key(h), self.node_value(h), nodes.float())
        from_edges = self.read(q, self.edge_key(flat_e), self.edge_value(flat_e), pairs.reshape(b, -1).float())
        g = g + self.update(torch.cat([g, from_nodes, from_edges], dim=-1))
        pooled = g.mean(dim=1)  # [b, dim]
        node_gamma, node_beta = self.node_film(pooled).chunk(2, dim=-1)
        edge_gamma, edge_beta = self.edge_film(pooled).chunk(2, dim=-1)
        h = (1 + node_gamma[:, None]) * h + node_beta[:, None]
        e = (1 + edge_gamma[:, None, None]) * e + edge_beta[:, None, None]
        return h, e


class Denoiser(nn.Module):
    def __init__(self, s: DenoiserSettings):
        super().__init__()
        self.settings = s
        self.node_in = nn.Linear(s.node_features + 1, s.dim)  # + the diffusion time t / T
        self.edge_in = nn.Linear(s.edge_features, s.edge_dim)
        self.layers = nn.ModuleList(EdgeFiLMLayer(s) for _ in range(s.layers))
        self.acam = nn.ModuleList(ACAM(s) for _ in range(s.layers)) if s.acam else None
        self.edge_head = nn.Linear(s.edge_dim, 2)
        self.node_head = nn.Linear(s.dim, 2)

    def forward(self, nodes: torch.Tensor, edges: torch.Tensor, in_range: torch.Tensor, time: torch.Tensor):
        """``nodes`` ``[B, N, Fn]``, ``edges`` ``[B, N, N, Fe]`` (noisy classes included), ``in_range`` ``[B, N, N]``
        bool, ``time`` ``[B]`` in [0, 1]. Returns (edge logits ``[B, N, N, 2]``, parity logits ``[B, N, 2]``)."""
        b, n, _ = nodes.shape
        h = self.node_in(torch.cat([nodes, time[:, None, None].expand(b, n, 1)], dim=-1))
        e = self.edge_in(edges)
        eye = torch.eye(n, dtype=torch.bool, device=nodes.device)[None]
        allowed = in_range | eye
        present = torch.ones(b, n, dtype=torch.bool, device=nodes.device)
        for i, layer in enumerate(self.layers):
            h, e = layer(h, e, allowed)
            if self.acam is not None:
                h, e = self.acam[i](h, e, present, in_range)
        logits = self.edge_head(e)
        logits = (logits + logits.transpose(1, 2)) / 2
        return logits, self.node_head(h)
