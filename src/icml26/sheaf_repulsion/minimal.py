"""The minimal-circuit search and the indispensability test.

A circuit is *closed* when finalisation keeps all of its edges (every edge on a path from the embedding
to the logits). The search scores every closed circuit of ``size`` edges drawn from a candidate pool
(ours: the edges with the largest attribution scores, :func:`~icml26.sheaf_repulsion.metrics.top_edges`;
the spec leaves the search open) by its IO-over-S accuracy alone, best first. The indispensability
test forbids each edge of a circuit in turn and searches again without it: an edge is indispensable
when no closed circuit of the same size without it reaches ``accuracy - tolerance``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import torch

from .data import Batch
from .metrics import logit_difference
from .model import EdgeTransformer


@torch.no_grad()
def closed_circuits(
    net: EdgeTransformer, batch: Batch, candidates: np.ndarray, size: int, forbidden: int | None = None
) -> list[tuple[float, tuple[int, ...]]]:
    """(accuracy, edge indices) of every closed ``size``-edge circuit among the candidate edges (without
    edge ``forbidden``), best first (ties: lower edge indices first)."""
    pool = [int(i) for i in np.flatnonzero(candidates) if i != forbidden]
    found = []
    for subset in combinations(pool, size):
        circuit = np.zeros(len(net.graph), dtype=bool)
        circuit[list(subset)] = True
        if net.graph.finalise(circuit).sum() != size:
            continue
        weights = torch.as_tensor(circuit, dtype=torch.float32, device=net.device)
        accuracy = (logit_difference(net, batch, weights) > 0).float().mean()
        found.append((accuracy.item(), subset))
    return sorted(found, key=lambda item: (-item[0], item[1]))


def indispensable_edges(
    net: EdgeTransformer,
    batch: Batch,
    circuit: tuple[int, ...],
    candidates: np.ndarray,
    accuracy: float,
    tolerance: float,
) -> dict[int, float]:
    """For each edge of ``circuit``: the best accuracy of a closed circuit of the same size without it
    (0.0 if there is none). The edge is indispensable when that is below ``accuracy - tolerance``."""
    best = {}
    for edge in circuit:
        others = closed_circuits(net, batch, candidates, len(circuit), forbidden=edge)
        best[edge] = others[0][0] if others else 0.0
    return best
