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
    return pd.DataFrame(experiments.evaluate(trained, test, CHANNEL, seed=0)), trained


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
    assert np.allclose(rows.loc[rows["method"] == "target", "share"], 1.0)
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
    frames = trace(place(8, 0.5, np.random.default_rng(4)), 3, speed=0.02, turn=0.2, rng=np.random.default_rng(5))
    rows = pd.DataFrame(experiments.partial_sweep(trained, frames, CHANNEL, restarts=[2, 8], seed=0, rounds=5))
    assert rows[["restart", "frame"]].values.tolist() == [[2, 1], [2, 2], [8, 1], [8, 2]]
    assert rows.loc[rows["restart"] == 8, "denoising_steps"].tolist() == [8, 8]  # T = 8: from noise
    assert rows.loc[rows["restart"] == 2, "denoising_steps"].tolist() == [2, 2]
    assert ((rows["churn"] >= 0) & (rows["churn"] <= 1)).all()
    again = pd.DataFrame(experiments.partial_sweep(trained, frames, CHANNEL, restarts=[2, 8], seed=0, rounds=5))
    pd.testing.assert_frame_equal(rows, again)
    edges, parity = experiments._topology_tensors(Topology.of([(0, 1), (1, 3)], [0, 1, 0, 0]), 4)
    assert edges[0].tolist() == [[0, 1, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert parity.tolist() == [[0, 1, 0, 0]] and torch.is_tensor(edges)
