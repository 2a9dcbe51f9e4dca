"""SAC training in chunks that survive a stop: the resumed run's policy is the uninterrupted run's, byte for byte."""

import mujoco
import numpy as np
import pytest

from icml26.cerebellar_control import base_policy, resumable
from icml26.common.determinism import seed_everything

# Humanoid-v5 as paper scale runs it (reduced observation), with a tiny network and buffer: 200 gradient steps
REDUCED = {f"include_{part}_in_observation": False for part in ("cinert", "cvel", "qfrc_actuator", "cfrc_ext")}
SAC = {"learning_rate": 0.0003, "buffer_size": 2000, "learning_starts": 100, "batch_size": 32, "tau": 0.005,
       "gamma": 0.99, "train_freq": 1, "gradient_steps": 1}  # fmt: skip


def train(checkpoint=None, every=None, steps=300):
    seed_everything(0)  # as the rule does before training
    return base_policy.train("Humanoid-v5", steps=steps, seed=0, n_envs=1, hidden=[16, 16], activation="relu",
                             ppo={}, device="cpu", env_kwargs=REDUCED, algorithm="sac", sac=SAC,
                             checkpoint=checkpoint, checkpoint_every=every)  # fmt: skip


def arrays(policy):
    return policy.weights + policy.biases


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(arrays(a), arrays(b), strict=True))


@pytest.fixture(scope="module")
def uninterrupted():
    return train()


def stopped_after(monkeypatch, path, every, saves):
    """Train until the ``saves``-th checkpoint is written, then stop as a killed job would."""
    written, save = [], resumable.save

    def save_then_stop(*args, **kwargs):
        save(*args, **kwargs)
        written.append(1)
        if len(written) == saves:
            raise KeyboardInterrupt

    monkeypatch.setattr(resumable, "save", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        train(str(path), every)
    monkeypatch.setattr(resumable, "save", save)


def test_a_stopped_run_resumes_to_the_uninterrupted_policy_and_curve(tmp_path, monkeypatch, uninterrupted, capsys):
    path = tmp_path / "base_checkpoint.pkl"
    stopped_after(monkeypatch, path, 100, saves=2)
    assert path.exists() and not path.with_name(path.name + ".partial").exists()
    np.random.seed(123)  # another process's global state: the checkpoint brings its own
    capsys.readouterr()
    policy, curve = train(str(path), 100)
    assert f"resuming from {path}: 200 of 300 steps done" in capsys.readouterr().out
    assert same(policy, uninterrupted[0]) and curve == uninterrupted[1]
    assert not path.exists()  # removed once the run is done
    chunked, _ = train(str(path), 150)  # chunking alone is not a setting of the result
    assert same(chunked, uninterrupted[0])


def test_without_the_simulator_state_the_resumed_run_would_differ(tmp_path, monkeypatch, uninterrupted):
    """Why the MuJoCo data are saved apart: gymnasium's MuJoCo env pickles as its constructor arguments, so
    without copying its MjData back a resumed run starts the next step from a fresh simulator."""
    path = tmp_path / "base_checkpoint.pkl"
    stopped_after(monkeypatch, path, 150, saves=1)
    monkeypatch.setattr(mujoco, "mj_copyData", lambda *args: None)
    policy, _ = train(str(path), 150)
    assert not same(policy, uninterrupted[0])


def test_a_checkpoint_of_other_settings_is_set_aside_not_resumed(tmp_path, monkeypatch, capsys):
    path = tmp_path / "base_checkpoint.pkl"
    stopped_after(monkeypatch, path, 150, saves=1)
    capsys.readouterr()
    train(str(path), 150, steps=301)  # another run: the 300-step run's checkpoint is not its own
    out = capsys.readouterr().out
    assert "set aside as base_checkpoint.pkl.stale, starting afresh" in out and "resuming" not in out
    assert path.with_name("base_checkpoint.pkl.stale").exists() and not path.exists()


def test_checkpoints_are_for_sac_in_whole_steps():
    with pytest.raises(ValueError, match="checkpoint_every applies to SAC"):
        base_policy.train("Pendulum-v1", steps=64, seed=0, n_envs=1, hidden=[4], activation="tanh", ppo={},
                          device="cpu", checkpoint="unused.pkl", checkpoint_every=10)  # fmt: skip
    sac = {"buffer_size": 100, "learning_starts": 10, "batch_size": 8}
    with pytest.raises(ValueError, match="positive multiple of n_envs"):
        base_policy.train("Pendulum-v1", steps=64, seed=0, n_envs=2, hidden=[4], activation="tanh", ppo={},
                          device="cpu", algorithm="sac", sac=sac, checkpoint="x.pkl", checkpoint_every=3)  # fmt: skip
