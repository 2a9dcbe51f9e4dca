"""The heuristic baselines produce feasible topologies (the constraints they promise), deterministically."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from icml26.netdiff import heuristics
from icml26.netdiff.simulator import Channel, candidates, metrics, place, violations

CHANNEL = Channel(sectors=4)


@pytest.fixture(scope="module", params=[0, 1, 2])
def instance(request):
    return place(14, 0.4, np.random.default_rng(request.param))


@pytest.mark.parametrize(
    "build",
    [
        lambda x: heuristics.greedy(x, CHANNEL),
        lambda x: heuristics.mutual_nearest(x, CHANNEL),
        lambda x: heuristics.random_feasible(x, CHANNEL, np.random.default_rng(0)),
    ],
)
def test_directional_heuristics_respect_range_sectors_and_parity(instance, build):
    topology = build(instance)
    assert violations(instance, topology, CHANNEL) == {"range": 0, "sector": 0, "parity": 0}
    assert topology.links and set(np.unique(topology.parity)) <= {0, 1}


def test_omnidirectional_is_the_range_graphs_minimum_spanning_tree(instance):
    topology = heuristics.omnidirectional(instance)
    graph = nx.Graph(list(topology.links))
    assert len(topology.links) == instance.n - 1 and nx.is_tree(graph)
    omni = Channel(sectors=1)
    assert violations(instance, topology, omni)["parity"] == 0 and violations(instance, topology, omni)["range"] == 0
    assert metrics(instance, topology, omni)["connected"]


def test_greedy_is_maximal_no_feasible_candidate_is_left_out(instance):
    topology = heuristics.greedy(instance, CHANNEL)
    once_more = heuristics._add_feasible(instance, CHANNEL, sorted(topology.links) + candidates(instance))
    assert once_more.links == topology.links


def test_heuristics_are_deterministic_and_the_random_one_depends_on_its_seed(instance):
    a, b = heuristics.greedy(instance, CHANNEL), heuristics.greedy(instance, CHANNEL)
    assert a.links == b.links and np.array_equal(a.parity, b.parity)
    draws = [heuristics.random_feasible(instance, CHANNEL, np.random.default_rng(s)) for s in (3, 3, 4, 5)]
    assert draws[0].links == draws[1].links and np.array_equal(draws[0].parity, draws[1].parity)
    assert len({d.links for d in draws}) > 1
