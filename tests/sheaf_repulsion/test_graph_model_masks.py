"""The spec's oracles for the edge graph, the masked model and the discovery objective's terms."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.sheaf_repulsion.graph import EMBED, LOGITS, Edge, EdgeGraph, chance_iou, head, iou, mlp
from icml26.sheaf_repulsion.masks import density, overlap, sparsity_weight, straight_through
from icml26.sheaf_repulsion.model import EdgeTransformer


def model(layers=2, heads=2, seed=0) -> EdgeTransformer:
    torch.manual_seed(seed)
    net = EdgeTransformer(vocab=11, context=6, layers=layers, heads=heads, width=8, mlp_width=16)
    with torch.no_grad():  # biases and LayerNorm gains away from their identity values, so nothing cancels
        for parameter in net.parameters():
            parameter.add_(0.3 * torch.randn_like(parameter))
    return net


TOKENS = torch.randint(0, 11, (5, 6), generator=torch.Generator().manual_seed(1))


def test_edges_of_a_one_layer_one_head_model_by_hand():
    graph = EdgeGraph(1, 1)
    assert [e.name for e in graph.edges] == [
        "embed->a0.h0.q",
        "embed->a0.h0.k",
        "embed->a0.h0.v",
        "embed->m0",
        "a0.h0->m0",
        "embed->logits",
        "a0.h0->logits",
        "m0->logits",
    ]


def test_edge_count_of_the_spec_s_four_layer_four_head_model():
    # q, k, v of 16 heads read 1 + 5l sources, each MLP 5 + 5l, the logits all 21 sources
    assert len(EdgeGraph(4, 4)) == 12 * sum(1 + 5 * n for n in range(4)) + sum(5 + 5 * n for n in range(4)) + 21 == 479


def test_an_all_ones_mask_equals_the_original_model_to_round_off():
    net = model().double()  # float64: what remains is the order of additions (sources summed at once)
    with torch.no_grad():
        masked, ordinary = net(TOKENS, torch.ones(len(net.graph), dtype=torch.float64)), net(TOKENS)
    assert torch.allclose(masked, ordinary, rtol=0, atol=1e-12) and ordinary.abs().max() > 0.1


def test_the_direct_path_alone_is_the_unembedded_embedding_and_no_edge_at_all_ignores_the_input():
    net = model()
    direct = torch.zeros(len(net.graph))
    direct[net.graph.index[Edge(EMBED, LOGITS, "in")]] = 1.0
    with torch.no_grad():
        embedded = net.embed(TOKENS) + net.position(torch.arange(TOKENS.shape[1]))
        assert torch.allclose(net(TOKENS, direct), net.unembed(net.ln_final(embedded)), rtol=0, atol=1e-6)
        empty = net(TOKENS, torch.zeros(len(net.graph)))
    assert torch.allclose(empty, empty[0, 0].expand_as(empty))  # the same logits wherever, whatever the tokens


def test_removing_one_edge_changes_the_output_and_a_wrong_size_mask_is_refused():
    net = model()
    mask = torch.ones(len(net.graph))
    mask[net.graph.index[Edge(head(0, 1), mlp(1), "in")]] = 0.0
    with torch.no_grad():
        assert not torch.allclose(net(TOKENS, mask), net(TOKENS))
    with pytest.raises(ValueError, match=f"one entry per edge \\({len(net.graph)}\\)"):
        net(TOKENS, torch.ones(3))


def test_straight_through_masks_are_exactly_0_or_1_with_the_sigmoid_s_gradient():
    logits = torch.linspace(-3, 3, 101, requires_grad=True)
    noisy = straight_through(logits, generator=torch.Generator().manual_seed(0))
    assert set(noisy.tolist()) == {0.0, 1.0} and 0 < noisy.sum() < 101
    plain = straight_through(logits)
    assert torch.equal(plain, (logits > 0).float())
    plain.sum().backward()
    s = torch.sigmoid(logits.detach())
    assert torch.allclose(logits.grad, s * (1 - s))


def test_overlap_is_the_kept_share_of_the_reference_at_saturated_logits():
    kept = torch.tensor([1, 1, 0, 0, 1, 0], dtype=torch.bool)
    reference = torch.tensor([1, 0, 1, 0, 1, 1], dtype=torch.bool)
    logits = torch.where(kept, 60.0, -60.0)
    assert overlap(logits, reference).item() == pytest.approx(2 / 4, abs=1e-12)
    assert overlap(logits, torch.zeros(6, dtype=torch.bool)).item() == 0.0
    assert density(logits).item() == pytest.approx(3 / 6, abs=1e-12)


def test_sparsity_schedule_at_0_at_80_percent_and_at_the_end():
    weight = {"base": 0.5, "max_times": 20.0, "min_times": 0.01}
    assert sparsity_weight(0, 50, **weight) == pytest.approx(0.5)
    assert sparsity_weight(40, 50, **weight) == pytest.approx(10.0)
    assert sparsity_weight(50, 50, **weight) == pytest.approx(0.005)
    assert sparsity_weight(20, 50, **weight) == pytest.approx(0.5 * (1 + 19 / 2))  # linear on the way up


def test_finalise_removes_dangling_edges_on_a_hand_made_circuit():
    graph = EdgeGraph(2, 1)
    path = [Edge(EMBED, head(0, 0), "v"), Edge(head(0, 0), mlp(1), "in"), Edge(mlp(1), LOGITS, "in")]
    dangling = [
        Edge(EMBED, head(1, 0), "q"),  # a1.h0 feeds nothing
        Edge(mlp(0), LOGITS, "in"),
    ]  # nothing feeds m0
    kept = np.zeros(len(graph), dtype=bool)
    kept[[graph.index[e] for e in path + dangling]] = True
    final = graph.finalise(kept)
    assert [graph.edges[i] for i in np.flatnonzero(final)] == path
    assert not graph.finalise(np.zeros(len(graph), dtype=bool)).any()
    with pytest.raises(ValueError, match="boolean vector over the"):
        graph.finalise(kept[:-1])


def test_iou_and_chance_iou_formulas():
    assert iou([1, 1, 0, 0], [0, 1, 1, 0]) == pytest.approx(1 / 3)
    assert iou([0, 0], [0, 0]) == 1.0
    assert chance_iou(10, 20, 100) == pytest.approx(2 / 28)  # ab/N = 2 shared, over 10 + 20 - 2
    assert chance_iou(100, 100, 100) == 1.0
    with pytest.raises(ValueError, match="sizes must lie in"):
        chance_iou(101, 3, 100)
