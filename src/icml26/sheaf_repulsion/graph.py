"""The edge graph of a small transformer, and what a circuit on it is.

Nodes are the model's components: the embedding (token + position), every attention head, every MLP and
the logits. An edge runs from a source (the embedding, a head's output, an MLP's output) to a destination
that reads the residual stream downstream of it: a head's query, key or value input, an MLP's input, the
logits. The edges of a destination are in source order (embedding, then each layer's heads, then its
MLP), the order in which the residual stream adds them up and in which the model stacks its sources.

A circuit is a set of edges (a boolean vector over :attr:`EdgeGraph.edges`). ``finalise`` keeps the edges
that lie on a path from the embedding to the logits (spec: "finalise by keeping only edges on a path to
the output"); ``iou`` and ``chance_iou`` compare two circuits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import networkx as nx
import numpy as np

EMBED, LOGITS = "embed", "logits"
QKV = ("q", "k", "v")


def head(layer: int, index: int) -> str:
    return f"a{layer}.h{index}"


def mlp(layer: int) -> str:
    return f"m{layer}"


@dataclass(frozen=True)
class Edge:
    source: str  # a node: embed, a<l>.h<i>, m<l>
    node: str  # the destination's node: a<l>.h<i>, m<l>, logits
    port: str  # q, k or v for a head; "in" for an MLP or the logits

    @property
    def name(self) -> str:
        return f"{self.source}->{self.node}" + (f".{self.port}" if self.port in QKV else "")


@dataclass(frozen=True)
class EdgeGraph:
    """Every edge of a transformer with ``layers`` layers of ``heads`` heads and one MLP each."""

    layers: int
    heads: int

    def sources(self, layer: int, *, mlp_input: bool = False) -> list[str]:
        """The sources upstream of layer ``layer``'s head inputs (or of its MLP input), in stream order;
        ``layer == self.layers`` gives the logits' sources."""
        nodes = [EMBED]
        for earlier in range(layer):
            nodes += [head(earlier, i) for i in range(self.heads)] + [mlp(earlier)]
        if mlp_input:
            nodes += [head(layer, i) for i in range(self.heads)]
        return nodes

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Grouped by destination in forward order: per layer each head's q, k, v inputs, then the MLP
        input; the logits last."""
        edges = []
        for layer in range(self.layers):
            upstream = self.sources(layer)
            for i in range(self.heads):
                for port in QKV:
                    edges += [Edge(s, head(layer, i), port) for s in upstream]
            edges += [Edge(s, mlp(layer), "in") for s in self.sources(layer, mlp_input=True)]
        edges += [Edge(s, LOGITS, "in") for s in self.sources(self.layers)]
        return tuple(edges)

    @cached_property
    def index(self) -> dict[Edge, int]:
        return {edge: i for i, edge in enumerate(self.edges)}

    def __len__(self) -> int:
        return len(self.edges)

    def finalise(self, kept: np.ndarray) -> np.ndarray:
        """The kept edges that lie on a path embedding -> ... -> logits through kept edges (dangling
        edges removed: a source nothing feeds, a destination that feeds nothing)."""
        kept = np.asarray(kept, dtype=bool)
        if kept.shape != (len(self),):
            raise ValueError(f"a circuit is a boolean vector over the {len(self)} edges, got shape {kept.shape}")
        dag = nx.DiGraph()
        dag.add_nodes_from([EMBED, LOGITS])
        dag.add_edges_from((e.source, e.node) for e, k in zip(self.edges, kept) if k)
        fed = nx.descendants(dag, EMBED) | {EMBED}
        feeding = nx.ancestors(dag, LOGITS) | {LOGITS}
        return np.array([k and e.source in fed and e.node in feeding for e, k in zip(self.edges, kept)])


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """|A and B| / |A or B| of two circuits (1.0 for two empty ones)."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    union = np.count_nonzero(a | b)
    return np.count_nonzero(a & b) / union if union else 1.0


def chance_iou(a: int, b: int, total: int) -> float:
    """Expected IoU of two independent uniformly random circuits of sizes ``a`` and ``b`` among ``total``
    edges, approximated as in the spec: the expected intersection ab/N over a + b - ab/N."""
    if not 0 <= a <= total or not 0 <= b <= total or total <= 0:
        raise ValueError(f"circuit sizes must lie in [0, {total}], got {a} and {b}")
    shared = a * b / total
    return shared / (a + b - shared) if a + b else 1.0
