"""The experiment steps end to end on a tiny dataset: every method evaluated, the target at share 1, NetDiff's
repaired topologies feasible, the run repeatable."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.netdiff import experiments, training
from icml26.netdiff.denoiser import Denoiser
from icml26.netdiff.simulator import Channel, Topology

CHANNEL = Channel(sectors=4)


def _run():
    import torch

    torch.manual_seed(0)
    train = experiments.dataset([6, 8], 8, 0.5, CHANNEL, seed=0, rounds=5)
    test = experiments.dataset([8], 2, 0.5, CHANNEL, seed=1, rounds=5)
    model = Denoiser(training.denoiser_settings(4, dim=16, edge_dim=8, heads=2, layers=1))
    trained = experiments.train(
        model,
        train,
        CHANNEL,
        steps=10,
        diffusion_steps=8,
        batch_size=4,
        lr=0.01,
        aux=0.5,
        seed=0,
        log=lambda line: None,
    )
    quiet = lambda _: None  # noqa: E731
    rows = experiments.evaluate(trained, test, CHANNEL, 0, log=quiet) + experiments.baselines(test, CHANNEL, seed=0)
    return pd.DataFrame(rows), trained


def test_every_method_is_evaluated_with_the_target_as_reference():
    rows, trained = _run()
    assert set(rows["method"]) == {
        "target",
        "netdiff_raw",
        "netdiff",
        "greedy",
        "mutual_nearest",
        "random_feasible",
        "omnidirectional",
    }
    assert (rows.groupby("method").size() == 2).all()  # every method on both test instances
    assert np.allclose(rows.loc[rows["method"] == "target", "share"], 1.0)
    assert (rows.loc[rows["method"] == "omnidirectional", "sector_violations"] == 0).all()  # K = 1: no sectors
    repaired = rows[rows["method"] == "netdiff"]
    assert (repaired[["range_violations", "sector_violations", "parity_violations"]] == 0).all().all()
    assert len(trained.losses) == 10 and all(np.isfinite(trained.losses))


def test_the_run_is_repeatable():
    pd.testing.assert_frame_equal(_run()[0], _run()[0])


def test_the_dataset_draws_node_counts_from_the_range():
    data = experiments.dataset([5, 7], 12, 0.6, CHANNEL, seed=3, rounds=2)
    assert {x.n for x, _ in data} <= {5, 7} and len({x.n for x, _ in data}) == 2
    with pytest.raises(ValueError):
        experiments.dataset([40], 1, 0.01, CHANNEL, seed=0)


def test_partial_diffusion_sweep_rows_per_frame_and_restart():
    import torch

    from icml26.netdiff.mobility import trace
    from icml26.netdiff.simulator import place

    _, trained = _run()
    rng = np.random.default_rng(5)
    traces = [trace(place(8, 0.5, rng), 3, speed=0.02, turn=0.2, rng=rng) for _ in range(2)]
    sweep = lambda: pd.DataFrame(  # noqa: E731
        experiments.partial_sweep(trained, traces, CHANNEL, restarts=[2, 8], seed=0, rounds=5, log=lambda _: None)
    )
    rows = sweep()
    assert rows[["restart", "frame", "trace"]].values.tolist() == [
        [k, f, t] for k in (2, 8) for f in (1, 2) for t in (0, 1)
    ]
    assert (rows.loc[rows["restart"] == 8, "denoising_steps"] == 8).all()  # T = 8: from noise
    assert (rows.loc[rows["restart"] == 2, "denoising_steps"] == 2).all()
    assert ((rows["churn"] >= 0) & (rows["churn"] <= 1)).all()
    pd.testing.assert_frame_equal(rows, sweep())
    edges, parity = experiments._topology_tensors([Topology.of([(0, 1), (1, 3)], [0, 1, 0, 0])], 4)
    assert edges[0].tolist() == [[0, 1, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert parity.tolist() == [[0, 1, 0, 0]] and torch.is_tensor(edges)


def test_a_saved_model_loads_to_the_same_samples(tmp_path):
    import torch

    _, trained = _run()
    experiments.save(trained, str(tmp_path / "m.safetensors"), {"model": "netdiff"})
    loaded = experiments.load(str(tmp_path / "m.safetensors"))
    test = experiments.dataset([8], 2, 0.5, CHANNEL, seed=1, rounds=5)
    one = experiments.evaluate(trained, test, CHANNEL, seed=3, log=lambda _: None)
    assert one == experiments.evaluate(loaded, test, CHANNEL, seed=3, log=lambda _: None)
    assert torch.equal(loaded.edge_q.m, trained.edge_q.m) and loaded.edge_q.steps == 8
    experiments.save(loaded, str(tmp_path / "again.safetensors"), {"model": "netdiff"})
    assert (tmp_path / "m.safetensors").read_bytes() == (tmp_path / "again.safetensors").read_bytes()


def test_a_file_that_is_not_a_model_is_named(tmp_path):
    from safetensors.torch import save_file

    garbled = tmp_path / "garbled.safetensors"
    garbled.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a safetensors file"):
        experiments.load(str(garbled))
    other = tmp_path / "other.safetensors"
    save_file({"w": torch_zeros()}, str(other))
    with pytest.raises(ValueError, match="not a netdiff model"):
        experiments.load(str(other))


def torch_zeros():
    import torch

    return torch.zeros(2)
