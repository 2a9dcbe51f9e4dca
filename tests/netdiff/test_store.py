"""Instance sets as arrays, and the user's placements by path: round trip, validation naming what is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.common.io import read_npz, write_npz
from icml26.common.sources import SourceError
from icml26.netdiff import rules, store
from icml26.netdiff.simulator import Channel, place
from icml26.netdiff.target import target

CHANNEL = Channel(sectors=4)
DATA = {"train_nodes": {"low": 5, "high": 6}, "train": 3, "test_nodes": [6], "test": 2, "rounds": 2, "seed": 0}


def test_a_set_of_mixed_sizes_round_trips_through_a_file(tmp_path):
    rng = np.random.default_rng(0)
    instances = [place(n, 0.6, rng) for n in (5, 7, 6)]
    topologies = [target(x, CHANNEL, 2)[0] for x in instances]
    write_npz(tmp_path / "set.npz", **store.to_arrays(instances, topologies))
    back = store.examples(read_npz(tmp_path / "set.npz"))
    for (x, t), (y, u) in zip(zip(instances, topologies), back):
        assert np.array_equal(x.positions, y.positions) and np.array_equal(x.orientations, y.orientations)
        assert x.radius == y.radius and t.links == u.links and np.array_equal(t.parity, u.parity)


def _placements(**overrides):
    rng = np.random.default_rng(1)
    arrays = store.to_arrays([place(6, 0.6, rng) for _ in range(2)])
    return {k: v for k, v in {**arrays, **overrides}.items() if v is not None}


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"orientations": None}, "no array 'orientations'"),
        ({"positions": np.zeros((2, 6))}, "positions must be [M, N, 2]"),
        ({"orientations": np.zeros((2, 5))}, "orientations must be [M, N]"),
        ({"nodes": np.array([6, 9])}, "instance 1: nodes must be a count in [2, 6] (the padded width), got 9"),
        ({"nodes": np.array([6])}, "nodes must be [M] = [2] counts, got [1]"),
        (
            {"positions": np.full((2, 1, 2), 0.5), "orientations": np.zeros((2, 1)), "nodes": None},
            "every instance needs at least 2 nodes to link, got 1 node per instance",
        ),
        ({"positions": np.full((2, 6, 2), 1.5)}, "instance 0: positions outside the unit square"),
        ({"positions": np.stack([np.eye(6, 2) * 0.9] * 2)}, "instance 0: the range graph is not connected"),
    ],
)
def test_bad_placements_are_named(overrides, problem):
    assert store.validate(_placements(**overrides), 0.6).startswith(problem)


def test_good_placements_pass():
    assert store.validate(_placements(), 0.6) is None


def test_the_users_placements_become_the_test_set(tmp_path):
    source = tmp_path / "mine.npz"
    write_npz(source, **_placements())
    train, test = tmp_path / "train.npz", tmp_path / "test.npz"
    rules.dataset([str(source)], str(train), str(test), data=DATA, radius=0.6, channel=CHANNEL.__dict__)
    used = store.examples(read_npz(test))
    assert np.array_equal(np.stack([x.positions for x, _ in used]), read_npz(source)["positions"])
    assert all(t.links and x.n == 6 for x, t in used)  # each with its target
    assert {x.n for x, _ in store.examples(read_npz(train))} <= {5, 6}


@pytest.mark.parametrize("content", [b"", b"garbled", None])
def test_a_bad_placements_file_fails_naming_it(tmp_path, content):
    source = tmp_path / "mine.npz"
    if content is None:
        write_npz(source, **_placements(positions=np.zeros((2, 6, 3))))  # wrong shape
    else:
        source.write_bytes(content)
    test = tmp_path / "test.npz"
    with pytest.raises(SourceError, match=f"^{source}: "):
        rules.dataset([str(source)], str(tmp_path / "t.npz"), str(test), data=DATA, radius=0.6, channel={})
    assert not test.exists()


def test_a_bad_model_file_fails_naming_it(tmp_path):
    model = tmp_path / "seed0.safetensors"
    model.write_bytes(b"nonsense")
    with pytest.raises(SourceError, match=f"^{model}: not a safetensors file"):
        rules.evaluate("unused.npz", str(model), str(tmp_path / "out.csv"), name="netdiff", seed=0, channel={})
