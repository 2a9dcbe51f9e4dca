"""The target generator: feasible, connected, at least as good as its own stages and the heuristics on J."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from icml26.netdiff import milp
from icml26.netdiff import target as t
from icml26.netdiff.simulator import Channel, candidates, metrics, place, violations

CHANNEL = Channel(sectors=4)


@pytest.fixture(scope="module", params=[0, 1])
def instance(request):
    return place(12, 0.4, np.random.default_rng(request.param))


def test_the_spanning_tree_is_a_feasible_tree(instance):
    tree = t.spanning_tree(instance, CHANNEL)
    graph = nx.Graph(list(tree.links))
    assert nx.is_forest(graph) and violations(instance, tree, CHANNEL) == {"range": 0, "sector": 0, "parity": 0}


def test_the_target_is_feasible_connected_and_never_below_its_own_tree(instance):
    topology, passes = t.target(instance, CHANNEL, rounds=30)
    found = metrics(instance, topology, CHANNEL)
    assert found["connected"] and violations(instance, topology, CHANNEL) == {"range": 0, "sector": 0, "parity": 0}
    assert 1 <= passes <= 30
    assert found["throughput"] >= metrics(instance, t.spanning_tree(instance, CHANNEL), CHANNEL)["throughput"]


def test_local_search_stops_at_a_local_optimum(instance):
    topology, passes = t.target(instance, CHANNEL, rounds=50)
    assert passes < 50  # it stopped because no move improves, not because the passes ran out
    state = t._State(instance, CHANNEL, topology.links, topology.parity)
    best = state.value()
    for links, parity in t._moves(state, candidates(instance)):
        assert t._State(instance, CHANNEL, links, parity).value() <= best + 1e-9


def test_the_targets_surrogate_never_exceeds_the_milp_optimum():
    instance = place(8, 0.45, np.random.default_rng(7))
    topology, _ = t.target(instance, CHANNEL)
    assert milp.surrogate(instance, topology, CHANNEL) <= milp.solve(instance, CHANNEL).value + 1e-6
