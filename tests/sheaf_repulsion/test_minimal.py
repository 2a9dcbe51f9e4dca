"""Minimal closed circuits and the indispensability test, on a hand-set model where the answer is known."""

from __future__ import annotations

import numpy as np
import torch

from icml26.sheaf_repulsion.data import ioi
from icml26.sheaf_repulsion.graph import EMBED, LOGITS, Edge, head
from icml26.sheaf_repulsion.minimal import closed_circuits, indispensable_edges
from icml26.sheaf_repulsion.train import Architecture

ARCH = Architecture(layers=1, heads=2, width=8, mlp_width=8, names=4)
BATCH = ioi(24, ARCH.names, np.random.default_rng(0))


def model():
    torch.manual_seed(0)
    return ARCH.build()


def test_only_closed_circuits_are_returned_best_first():
    net = model()
    everything = np.ones(len(net.graph), dtype=bool)
    found = closed_circuits(net, BATCH, everything, 2)
    direct = net.graph.index[Edge(EMBED, LOGITS, "in")]
    assert found and all(net.graph.finalise(np.isin(np.arange(len(net.graph)), s)).sum() == 2 for _, s in found)
    assert [a for a, _ in found] == sorted((a for a, _ in found), reverse=True)
    # a head's value edge and its edge to the logits make a closed pair; the direct path needs a partner
    pair = (net.graph.index[Edge(EMBED, head(0, 0), "v")], net.graph.index[Edge(head(0, 0), LOGITS, "in")])
    assert pair in [s for _, s in found]
    assert [s for _, s in closed_circuits(net, BATCH, everything, 1)] == [(direct,)]  # the only closed single edge


def test_an_edge_without_an_alternative_is_indispensable_and_one_with_is_not():
    net = model()
    edges = net.graph.index
    v0, out0 = edges[Edge(EMBED, head(0, 0), "v")], edges[Edge(head(0, 0), LOGITS, "in")]
    v1, out1 = edges[Edge(EMBED, head(0, 1), "v")], edges[Edge(head(0, 1), LOGITS, "in")]
    candidates = np.zeros(len(net.graph), dtype=bool)
    candidates[[v0, out0, v1]] = True  # no way around out0: head 1's edge to the logits is not a candidate
    best = indispensable_edges(net, BATCH, (v0, out0), candidates, accuracy=1.0, tolerance=0.0)
    assert best == {v0: 0.0, out0: 0.0}  # forbidding either leaves no closed pair at all
    candidates[out1] = True  # now head 1's pair is the alternative to either edge
    ((alternative, pair),) = closed_circuits(net, BATCH, np.isin(np.arange(len(net.graph)), [v1, out1]), 2)
    assert pair == (v1, out1)
    assert indispensable_edges(net, BATCH, (v0, out0), candidates, accuracy=1.0, tolerance=0.0) == {
        v0: alternative,
        out0: alternative,
    }
