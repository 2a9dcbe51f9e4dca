"""The denoiser: permutation equivariance, symmetric edge logits, ACAM's absolute (count-preserving) reading."""

from __future__ import annotations

import pytest
import torch

from icml26.netdiff.denoiser import ACAM, Denoiser, DenoiserSettings


def _inputs(n=6, b=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    in_range = torch.rand(b, n, n, generator=g) < 0.6
    in_range = (in_range | in_range.transpose(1, 2)) & ~torch.eye(n, dtype=torch.bool)
    return torch.randn(b, n, 5, generator=g), torch.randn(b, n, n, 7, generator=g), in_range, torch.rand(b, generator=g)


@pytest.mark.parametrize("acam", [True, False])
def test_outputs_are_permutation_equivariant_and_edge_logits_symmetric(acam):
    torch.manual_seed(0)
    model = Denoiser(DenoiserSettings(node_features=5, edge_features=7, dim=16, edge_dim=8, heads=2, acam=acam))
    with torch.no_grad():  # FiLM starts at the identity; move it so ACAM's path is exercised
        for p in model.parameters():
            p.add_(0.05 * torch.randn_like(p))
    nodes, edges, in_range, time = _inputs()
    edge_logits, node_logits = model(nodes, edges, in_range, time)
    assert torch.allclose(edge_logits, edge_logits.transpose(1, 2))
    perm = torch.tensor([3, 0, 5, 1, 4, 2])
    moved = model(nodes[:, perm], edges[:, perm][:, :, perm], in_range[:, perm][:, :, perm], time)
    assert torch.allclose(moved[0], edge_logits[:, perm][:, :, perm], atol=1e-5)
    assert torch.allclose(moved[1], node_logits[:, perm], atol=1e-5)


def test_acam_reads_sums_not_averages():
    torch.manual_seed(0)
    acam = ACAM(DenoiserSettings(node_features=1, edge_features=1, dim=8, edge_dim=4, scale=10.0))
    queries, keys, values = torch.randn(1, 2, 8), torch.zeros(1, 6, 8), torch.ones(1, 6, 8)
    few = acam.read(queries, keys, values, torch.tensor([[1, 1, 0, 0, 0, 0]]).float())
    many = acam.read(queries, keys, values, torch.tensor([[1, 1, 1, 1, 0, 0]]).float())
    assert torch.allclose(many, 2 * few)  # twice the items, twice the input: a count survives
    assert torch.allclose(few, torch.full_like(few, 2 * 0.5 / 10.0))  # sigmoid(0) = 1/2 per item, over the scale


def test_the_baseline_has_no_global_tokens_and_fewer_parameters():
    with_acam = Denoiser(DenoiserSettings(node_features=5, edge_features=7))
    without = Denoiser(DenoiserSettings(node_features=5, edge_features=7, acam=False))
    assert without.acam is None
    assert sum(p.numel() for p in without.parameters()) < sum(p.numel() for p in with_acam.parameters())


@pytest.mark.parametrize("acam", [True, False])
def test_only_acam_sees_how_large_the_graph_is(acam):
    """Fails when ACAM is swapped out (issue 67): a graph and two disjoint copies of it look the same to every node
    of the baseline (its attention reads only a node's in-range neighbours, through the same weights), while ACAM's
    tokens sum over all nodes and links, so the doubled counts change every output."""
    torch.manual_seed(0)
    model = Denoiser(DenoiserSettings(node_features=5, edge_features=7, dim=16, edge_dim=8, heads=2, acam=acam))
    with torch.no_grad():  # FiLM starts at the identity; move it so ACAM's modulation is exercised
        for p in model.parameters():
            p.add_(0.05 * torch.randn_like(p))
    nodes, edges, in_range, time = _inputs(n=5, b=1)
    double_nodes = torch.cat([nodes, nodes], dim=1)
    double_edges = torch.zeros(1, 10, 10, 7)
    double_edges[:, :5, :5] = double_edges[:, 5:, 5:] = edges
    double_range = torch.zeros(1, 10, 10, dtype=torch.bool)
    double_range[:, :5, :5] = double_range[:, 5:, 5:] = in_range
    with torch.no_grad():
        edge_logits, node_logits = model(nodes, edges, in_range, time)
        doubled = model(double_nodes, double_edges, double_range, time)
    same = torch.allclose(doubled[1][:, :5], node_logits, atol=1e-6) and torch.allclose(
        doubled[0][:, :5, :5], edge_logits, atol=1e-6
    )
    assert same != acam  # the baseline cannot tell one copy from two; ACAM can
