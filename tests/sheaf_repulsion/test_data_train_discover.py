"""Synthetic IOI, training from scratch and discovery runs, on models small enough for seconds."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.sheaf_repulsion.data import FRAMES, LENGTH, TEMPLATES, ioi, vocabulary
from icml26.sheaf_repulsion.discover import Objective, discover, repelled_runs
from icml26.sheaf_repulsion.train import Architecture, accuracy, train

TINY = Architecture(layers=1, heads=2, width=16, mlp_width=16, names=6)
OBJECTIVE = Objective(
    steps=25,
    batch_size=16,
    lr=0.1,
    sparsity=1.0,
    sparsity_max_times=20,
    sparsity_min_times=0.01,
    overlap=0.0,
    overlap_max_times=20,
    overlap_min_times=0.01,
    completeness=1.0,
)


def test_ioi_sentences_follow_every_frame_in_both_orders():
    batch = ioi(204, 7, np.random.default_rng(0))
    words = np.array(vocabulary(7))
    assert batch.tokens.shape == (204, LENGTH) and batch.tokens.max() < len(words)
    assert np.bincount(batch.template).tolist() == [34] * len(TEMPLATES) == [34] * 6  # three frames, two orders
    assert (batch.good != batch.bad).all() and (batch.tokens[:, 7] == batch.bad).all()  # S2 is the subject
    assert (batch.tokens < 7).sum(axis=1).tolist() == [3] * 204  # three names: IO once, S twice
    for t, name in enumerate(TEMPLATES):
        frame, order = name.split()
        rows = batch.tokens[batch.template == t]
        a, b = FRAMES[frame].index("A"), FRAMES[frame].index("B")
        io, s = (a, b) if order == "ABBA" else (b, a)
        assert (rows[:, io] == batch.good[batch.template == t]).all()
        assert (rows[:, s] == batch.bad[batch.template == t]).all()
        fixed = [p for p, slot in enumerate(FRAMES[frame]) if slot not in ("A", "B", "S", "PLACE", "OBJECT")]
        assert (words[rows[:, fixed]] == np.array(FRAMES[frame])[fixed]).all()
    # the names of the first clause sit at different positions in different frames
    assert len({(FRAMES[f].index("A"), FRAMES[f].index("B")) for f in FRAMES}) == 3
    with pytest.raises(ValueError, match="at least 2 names"):
        ioi(3, 1, np.random.default_rng(0))


def test_a_small_model_learns_ioi_from_scratch():
    arch = Architecture(layers=2, heads=2, width=32, mlp_width=32, names=8)
    held_out = ioi(256, 8, np.random.default_rng(1))
    net, curve = train(
        arch, steps=400, batch_size=64, lr=1e-2, weight_decay=0.01, target=0.95, held_out=held_out, seed=0, every=25
    )
    assert curve[-1]["accuracy"] >= 0.95 and accuracy(net, held_out) == curve[-1]["accuracy"]
    assert curve[0]["accuracy"] < 0.95  # it had to learn


def test_training_twice_gives_the_same_weights():
    held_out = ioi(16, TINY.names, np.random.default_rng(1))
    runs = [
        train(TINY, steps=10, batch_size=16, lr=1e-2, weight_decay=0.01, target=2.0, held_out=held_out, seed=3)[0]
        for _ in range(2)
    ]
    assert all(torch.equal(a, b) for a, b in zip(runs[0].state_dict().values(), runs[1].state_dict().values()))


def test_a_discovery_run_is_a_function_of_its_seed():
    torch.manual_seed(0)
    net = TINY.build()
    first, again, other = (discover(net, OBJECTIVE, language=TINY.names, seed=s) for s in (0, 0, 1))
    assert np.array_equal(first.logits, again.logits) and np.array_equal(first.edges, again.edges)
    assert not np.array_equal(first.logits, other.logits) and first.logits.shape == (len(net.graph),)


def test_strong_repulsion_keeps_every_reference_edge_out_and_none_keeps_some():
    torch.manual_seed(0)
    net = TINY.build()
    reference = np.zeros(len(net.graph), dtype=bool)
    reference[::2] = True
    free = discover(net, OBJECTIVE, language=TINY.names, seed=1, reference=reference)
    repelled = discover(
        net, Objective(**{**OBJECTIVE.__dict__, "overlap": 50.0}), language=TINY.names, seed=1, reference=reference
    )
    assert (free.logits[reference] > 0).any()  # without repulsion some reference edges stay
    assert not (repelled.logits[reference] > 0).any()


def test_repelled_runs_avoid_the_union_of_earlier_circuits_under_strong_repulsion():
    torch.manual_seed(0)
    net = TINY.build()
    circuits = repelled_runs(
        net, Objective(**{**OBJECTIVE.__dict__, "overlap": 50.0, "sparsity": 0.0}), runs=3, language=TINY.names, seed=0
    )
    assert circuits[0].edges.any()
    for k in range(1, 3):
        earlier = np.logical_or.reduce([c.edges for c in circuits[:k]])
        assert not (circuits[k].edges & earlier).any()
