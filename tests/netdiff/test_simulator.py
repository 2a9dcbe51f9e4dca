"""The simulator against the spec's oracles: sectors on hand-placed nodes, parity and half duplex, SINR of an
isolated link, interference and throughput by hand."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from icml26.netdiff.simulator import (
    Channel,
    Instance,
    Topology,
    metrics,
    place,
    sector_of,
    sinr,
    throughput,
    violations,
)


def _instance(points, orientations=None, radius=1.0):
    points = np.asarray(points, float)
    return Instance(points, np.zeros(len(points)) if orientations is None else np.asarray(orientations), radius)


def test_sector_index_on_hand_placed_nodes():
    square = _instance([[0.5, 0.5], [0.8, 0.5], [0.5, 0.8], [0.2, 0.5], [0.5, 0.2]])
    assert sector_of(square, 4)[0, 1:].tolist() == [0, 1, 2, 3]
    turned = _instance(square.positions, [np.pi / 4, 0, 0, 0, 0])
    assert sector_of(turned, 4)[0, 1:].tolist() == [3, 0, 1, 2]
    assert sector_of(square, 1)[0, 1:].tolist() == [0, 0, 0, 0]
    assert sector_of(square, 8)[0, 2] == 2  # 90 degrees is the third of eight 45-degree sectors


def test_placements_have_a_connected_range_graph_and_are_seeded():
    a, b = place(12, 0.35, np.random.default_rng(0)), place(12, 0.35, np.random.default_rng(0))
    assert np.array_equal(a.positions, b.positions) and np.array_equal(a.orientations, b.orientations)
    graph = nx.Graph(list(zip(*np.nonzero(a.in_range()))))
    assert graph.number_of_nodes() == 12 and nx.is_connected(graph)
    with pytest.raises(ValueError, match="no connected placement"):
        place(30, 0.01, np.random.default_rng(0), max_tries=3)


def test_a_bipartite_parity_has_no_half_duplex_violation():
    instance = place(10, 0.45, np.random.default_rng(1))
    graph = nx.Graph(list(zip(*np.nonzero(np.triu(instance.in_range())))))
    tree = nx.minimum_spanning_tree(graph)
    colour = nx.bipartite.color(tree)
    topology = Topology.of(tree.edges, [colour[i] for i in range(10)])
    assert violations(instance, topology, Channel(sectors=1))["parity"] == 0
    i, _ = next(iter(topology.links))
    flipped = topology.parity.copy()
    flipped[i] = 1 - flipped[i]
    assert violations(instance, Topology(topology.links, flipped), Channel(sectors=1))["parity"] >= 1


def test_two_links_in_one_sector_and_a_link_out_of_range_are_violations():
    instance = _instance([[0.1, 0.5], [0.5, 0.52], [0.5, 0.55], [0.95, 0.5]], radius=0.5)
    topology = Topology.of([(0, 1), (0, 2), (0, 3)], [0, 1, 1, 1])
    found = violations(instance, topology, Channel(sectors=4))
    assert found == {"range": 1, "sector": 2, "parity": 0}  # node 0 sees all three in sector 0


def test_the_sinr_of_an_isolated_link_is_its_snr():
    instance = _instance([[0.2, 0.5], [0.5, 0.5]])
    channel = Channel(sectors=4, alpha=3.0, power=2.0, noise=0.01)
    values = sinr(instance, Topology.of([(0, 1)], [0, 1]), channel)
    snr = 2.0 * 0.3**-3 / 0.01
    assert values[(0, 1)] == pytest.approx(snr) and values[(1, 0)] == pytest.approx(snr)
    assert throughput(values) == pytest.approx(np.log2(1 + snr))


def test_interference_by_hand_with_main_and_side_lobes():
    # link 0-1 along x at y = 0.5; link 2-3 at y = 0.7; nodes 0 and 2 send in slot 0
    instance = _instance([[0.2, 0.5], [0.4, 0.5], [0.2, 0.7], [0.4, 0.7]])
    channel = Channel(sectors=4, side_db=-10.0, alpha=2.0, power=1.0, noise=0.0 + 1e-9)
    values = sinr(instance, Topology.of([(0, 1), (2, 3)], [0, 1, 0, 1]), channel)
    # at node 1 from node 2: 2's beam to 3 is sector 0 (east); 1 is south-east of 2: sector 3 -> side lobe;
    # 1 receives on its beam to 0 (west, sector 2); 2 is north-west of 1: sector 1 -> side lobe
    d12 = np.hypot(0.2, 0.2)
    expected = (0.2**-2) / (1e-9 + 0.1 * 0.1 * d12**-2)
    assert values[(0, 1)] == pytest.approx(expected)


def test_a_senders_other_beam_interferes_through_its_side_lobe():
    # node 1 sends to 0 (west, sector 2) and to 2 (east, sector 0) in the same slot
    instance = _instance([[0.2, 0.5], [0.5, 0.5], [0.8, 0.5]])
    channel = Channel(sectors=4, side_db=-10.0, alpha=2.0, noise=1e-3)
    values = sinr(instance, Topology.of([(0, 1), (1, 2)], [0, 1, 0]), channel)
    expected = 0.3**-2 / (1e-3 + 0.1 * 0.3**-2)  # the beam to 2 reaches 0 through its side lobe, received on-beam
    assert values[(1, 0)] == pytest.approx(expected)


def test_metrics_count_density_and_sector_usage():
    instance = _instance([[0.2, 0.5], [0.5, 0.5], [0.8, 0.5]])
    result = metrics(instance, Topology.of([(0, 1), (1, 2)], [0, 1, 0]), Channel(sectors=4))
    assert result["connected"] and result["density"] == pytest.approx(2 / 3)
    assert result["sector_usage"] == pytest.approx(4 / 12)  # node 1 uses two sectors, nodes 0 and 2 one each
    assert result["parity_violations"] == 0 and result["sector_violations"] == 0
