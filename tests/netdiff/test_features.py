"""The denoiser's inputs: shapes, symmetry where the quantity is symmetric, hand values."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.netdiff import features
from icml26.netdiff.simulator import Channel, Instance, place


def test_shapes_and_symmetric_quantities():
    instance = place(9, 0.4, np.random.default_rng(0))
    channel = Channel(sectors=6)
    nodes, pairs = features.node_features(instance), features.pair_features(instance, channel)
    assert nodes.shape == (9, features.NODE_FEATURES) and pairs.shape == (9, 9, features.edge_features(6))
    for column in (0, 1, pairs.shape[-1] - 1):  # distance, in range, SNR
        assert np.allclose(pairs[..., column], pairs[..., column].T)
    assert np.allclose(pairs[..., 2:8], pairs.transpose(1, 0, 2)[..., 8:14])  # my sector of you = your view of me
    assert (pairs[np.arange(9), np.arange(9), 2:] == 0).all()


def test_hand_values_for_two_nodes():
    instance = Instance(np.array([[0.2, 0.5], [0.5, 0.5]]), np.zeros(2), 0.5)
    channel = Channel(sectors=4, alpha=3.0, power=1.0, noise=1e-3)
    pairs = features.pair_features(instance, channel)
    assert pairs[0, 1, 0] == pytest.approx(0.3) and pairs[0, 1, 1] == 1
    assert pairs[0, 1, 2:6].tolist() == [1, 0, 0, 0] and pairs[0, 1, 6:10].tolist() == [0, 0, 1, 0]
    assert pairs[0, 1, 10] == pytest.approx(1.0) and pairs[0, 1, 11] == pytest.approx(0.0, abs=1e-7)
    assert pairs[0, 1, 12] == pytest.approx(10 * np.log10(0.3**-3 / 1e-3) / 50, rel=1e-6)
    assert features.node_features(instance)[:, 4].tolist() == [1.0, 1.0]


def test_the_noisy_state_is_appended_one_hot():
    nodes, pairs = np.zeros((3, 5), np.float32), np.zeros((3, 3, 15), np.float32)
    n2, p2 = features.with_state(nodes, pairs, np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]), np.array([1, 0, 1]))
    assert n2.shape == (3, 7) and p2.shape == (3, 3, 17)
    assert n2[:, 5:].tolist() == [[0, 1], [1, 0], [0, 1]] and p2[0, 1, 15:].tolist() == [0, 1]
