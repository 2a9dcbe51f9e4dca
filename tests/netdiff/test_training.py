"""Training and generation end to end on a handful of tiny instances: the loss falls, the parity loss ignores a
global swap, generation is repeatable and repair leaves a feasible topology."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.netdiff import training
from icml26.netdiff.denoiser import Denoiser
from icml26.netdiff.diffusion import MarginalTransitions
from icml26.netdiff.simulator import Channel, metrics, place, violations
from icml26.netdiff.target import target

CHANNEL = Channel(sectors=4)


@pytest.fixture(scope="module")
def data():
    instances = [place(8, 0.45, np.random.default_rng(s)) for s in range(6)]
    return [(x, target(x, CHANNEL)[0]) for x in instances]


def _model():
    torch.manual_seed(0)
    return Denoiser(training.denoiser_settings(4, dim=16, edge_dim=8, heads=2, layers=2))


def test_the_loss_falls_over_a_few_steps(data):
    batch = training.encode(data, CHANNEL)
    edge_m, parity_m = training.marginals(data)
    edge_q, parity_q = MarginalTransitions(edge_m, 20), MarginalTransitions(parity_m, 20)
    model, generator = _model(), torch.Generator().manual_seed(0)
    optimiser = torch.optim.Adam(model.parameters(), lr=0.01)

    def held_out() -> float:  # the same noise draw at t = 3 before and after
        with torch.no_grad():
            return float(
                training.losses(model, batch, edge_q, parity_q, 3, torch.Generator().manual_seed(9), 0.5)["total"]
            )

    before = held_out()
    for step in range(60):
        parts = training.losses(model, batch, edge_q, parity_q, 1 + step % 20, generator, aux=0.5)
        optimiser.zero_grad()
        parts["total"].backward()
        optimiser.step()
    assert held_out() < 0.8 * before


def test_the_parity_loss_is_the_same_for_both_colourings():
    logits = torch.randn(3, 7, 2, generator=torch.Generator().manual_seed(1))
    parity = torch.randint(0, 2, (3, 7), generator=torch.Generator().manual_seed(2))
    assert float(training.parity_loss(logits, parity)) == pytest.approx(float(training.parity_loss(logits, 1 - parity)))
    confident = 20.0 * (2 * torch.nn.functional.one_hot(1 - parity, 2).float() - 1)  # exactly the swapped colouring
    assert float(training.parity_loss(confident, parity)) < 1e-6


def test_generation_is_repeatable_and_repair_leaves_a_feasible_topology(data):
    batch = training.encode(data[:2], CHANNEL)
    edge_m, parity_m = training.marginals(data[:2])
    edge_q, parity_q = MarginalTransitions(edge_m, 10), MarginalTransitions(parity_m, 10)
    model = _model()
    runs = [training.generate(model, batch, edge_q, parity_q, torch.Generator().manual_seed(3)) for _ in range(2)]
    assert all(torch.equal(a, b) for a, b in zip(runs[0], runs[1]))
    edges, parity, link = runs[0]
    assert torch.equal(edges, edges.transpose(1, 2)) and not (edges.bool() & ~batch.in_range).any()
    instance = data[0][0]
    raw, repaired = training.repair(instance, CHANNEL, edges[0].numpy(), parity[0].numpy(), link[0].numpy())
    assert violations(instance, repaired, CHANNEL) == {"range": 0, "sector": 0, "parity": 0}
    assert metrics(instance, repaired, CHANNEL)["connected"]


def test_partial_diffusion_with_a_certain_model_keeps_the_previous_topology(data):
    batch = training.encode(data[:1], CHANNEL)
    q = MarginalTransitions(torch.tensor([0.8, 0.2], dtype=torch.float64), 20)

    class Certain(torch.nn.Module):
        def forward(self, nodes, pairs, in_range, time):
            return 50.0 * (2 * torch.nn.functional.one_hot(batch.edges, 2).float() - 1), 50.0 * (
                2 * torch.nn.functional.one_hot(batch.parity, 2).float() - 1
            )

    edges, parity, _ = training.generate(
        Certain(),
        batch,
        q,
        q,
        torch.Generator().manual_seed(0),
        greedy=True,
        start=(batch.edges, batch.parity),
        from_step=5,
    )
    assert torch.equal(edges, batch.edges) and torch.equal(parity, batch.parity)


def test_marginals_count_links_among_in_range_pairs_and_halve_the_parities():
    from icml26.netdiff.simulator import Instance, Topology

    instance = Instance(np.array([[0.1, 0.5], [0.3, 0.5], [0.5, 0.5]]), np.zeros(3), 0.5)  # all three pairs in range
    edge_m, parity_m = training.marginals([(instance, Topology.of([(0, 1), (1, 2)], [0, 1, 0]))])
    assert edge_m.tolist() == pytest.approx([1 / 3, 2 / 3]) and parity_m.tolist() == [0.5, 0.5]


def test_repair_joins_components_with_feasible_links_and_flips_a_component_when_needed():
    from icml26.netdiff.simulator import Instance

    instance = Instance(np.array([[0.1, 0.5], [0.3, 0.5], [0.5, 0.5], [0.7, 0.5]]), np.zeros(4), 0.25)
    edges = np.zeros((4, 4), int)
    edges[0, 1] = edges[1, 0] = edges[2, 3] = edges[3, 2] = 1  # two components: 0-1 and 2-3
    parity = np.array([0, 1, 1, 0])  # joining 1 and 2 needs one side flipped
    link = np.full((4, 4), 0.5)
    raw, repaired = training.repair(instance, CHANNEL, edges, parity, link)
    assert raw.links == frozenset({(0, 1), (2, 3)}) and not metrics(instance, raw, CHANNEL)["connected"]
    assert repaired.links == frozenset({(0, 1), (1, 2), (2, 3)})
    assert violations(instance, repaired, CHANNEL) == {"range": 0, "sector": 0, "parity": 0}
    assert metrics(instance, repaired, CHANNEL)["connected"]
