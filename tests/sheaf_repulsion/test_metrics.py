"""Circuit metrics and the attribution-patching ranking."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.sheaf_repulsion.data import ioi
from icml26.sheaf_repulsion.metrics import attribution_scores, circuit_metrics, logit_difference, top_edges
from icml26.sheaf_repulsion.train import Architecture

ARCH = Architecture(layers=2, heads=2, width=8, mlp_width=16, names=5)
BATCH = ioi(32, ARCH.names, np.random.default_rng(0))


def net(dtype=torch.float32):
    torch.manual_seed(0)
    return ARCH.build().to(dtype)


def test_the_whole_model_as_a_circuit_is_faithful():
    model = net()
    metrics = circuit_metrics(model, BATCH, np.ones(len(model.graph), dtype=bool))
    with torch.no_grad():
        ld = logit_difference(model, BATCH)
    assert metrics["faithfulness"] == pytest.approx(1.0, rel=1e-5) and metrics["density"] == 1.0
    assert metrics["accuracy"] == (ld > 0).float().mean().item() and metrics["edges"] == len(model.graph)


def test_attribution_scores_are_the_derivative_of_the_mean_logit_difference_in_each_edge_weight():
    model = net(torch.float64)
    scores = attribution_scores(model, BATCH)
    eps = 1e-5
    for edge in (0, 7, len(model.graph) // 2, len(model.graph) - 1):
        step = torch.zeros(len(model.graph), dtype=torch.float64)
        step[edge] = eps
        with torch.no_grad():
            up = logit_difference(model, BATCH, 1.0 + step).mean().item()
            down = logit_difference(model, BATCH, 1.0 - step).mean().item()
        assert np.isclose(scores[edge], (up - down) / (2 * eps), rtol=1e-6, atol=1e-9), edge


def test_top_edges_takes_the_largest_magnitudes_first_and_breaks_ties_by_edge_order():
    scores = np.array([0.1, -3.0, 2.0, -2.0, 0.0])
    assert top_edges(scores, 2).tolist() == [False, True, True, False, False]
    assert top_edges(scores, 3).tolist() == [False, True, True, True, False]  # |2| == |-2|: the earlier first
    assert not top_edges(scores, 0).any()


def test_acdc_lite_removes_exactly_what_changes_nothing_and_everything_at_an_infinite_threshold():
    from icml26.sheaf_repulsion.graph import head
    from icml26.sheaf_repulsion.metrics import acdc_lite

    model = net()
    with torch.no_grad():
        model.w_out[0][1].zero_()  # head a0.h1 writes nothing: its edges in and out change nothing
    circuit = acdc_lite(model, BATCH, threshold=0.0)
    dead = np.array([head(0, 1) in (e.source, e.node) for e in model.graph.edges])
    assert (circuit == ~dead).all()  # every other edge moves the output, so it stays
    assert not acdc_lite(model, BATCH, threshold=float("inf")).any()
