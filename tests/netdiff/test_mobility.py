"""The mobility trace stays valid and seeded; churn by hand."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from icml26.netdiff.mobility import churn, trace
from icml26.netdiff.simulator import Topology, place, range_graph


def test_a_trace_moves_by_the_speed_stays_in_the_square_and_connected():
    start = place(10, 0.45, np.random.default_rng(0))
    frames = trace(start, 8, speed=0.02, turn=0.3, rng=np.random.default_rng(1))
    again = trace(start, 8, speed=0.02, turn=0.3, rng=np.random.default_rng(1))
    assert len(frames) == 8 and all(np.array_equal(a.positions, b.positions) for a, b in zip(frames, again))
    for a, b in zip(frames, frames[1:]):
        assert (np.linalg.norm(b.positions - a.positions, axis=1) <= 0.02 + 1e-12).all()
        assert ((b.positions >= 0) & (b.positions <= 1)).all()
        assert nx.is_connected(range_graph(b))


def test_an_impossible_trace_fails_with_a_clear_message():
    start = place(6, 0.3, np.random.default_rng(2))
    with pytest.raises(ValueError, match="no connected frame"):
        trace(start, 3, speed=5.0, turn=0.0, rng=np.random.default_rng(0), max_tries=2)


def test_churn_by_hand():
    a = Topology.of([(0, 1), (1, 2), (2, 3)], [0, 1, 0, 1])
    b = Topology.of([(0, 1), (1, 2), (1, 4)], [0, 1, 0, 1, 0])
    assert churn(a, b) == pytest.approx(2 / 4) and churn(a, a) == 0
    assert churn(Topology.of([], [0]), Topology.of([], [0])) == 0


def test_a_long_trace_does_not_get_stuck_on_a_node_heading_away():
    start = place(16, 0.35, np.random.default_rng(7))  # a placement whose trace once stuck at frame 9
    frames = trace(start, 30, speed=0.01, turn=0.3, rng=np.random.default_rng(8))
    assert len(frames) == 30 and all(nx.is_connected(range_graph(f)) for f in frames)
