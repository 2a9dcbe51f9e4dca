"""SAC training that survives being stopped: ``learn`` in chunks, the whole training state saved after each.

Paper scale trains Humanoid-v5's base policy for 2 M SAC steps, many CPU hours: more than one sitting. With
``checkpoint_every`` set, training runs in chunks of that many steps and, after each, writes everything the
next step depends on to one file beside the job's outputs: the SB3 model (networks, optimisers, replay buffer,
step and update counters, the last observation), the MuJoCo state of every environment, the learning curve so
far and the global generators (numpy's draws the replay batches, torch's the actions). A rerun of the job reads
it and goes on; the policy it ends with is byte for byte the one an uninterrupted run gives
(``tests/cerebellar_control/test_resumable.py``), so chunking is not a setting of the result. The file is
removed once the run is done.

gymnasium's MuJoCo environments pickle as their constructor arguments (a fresh simulator), so their ``MjData``
and random generator are saved apart and copied back (``mj_copyData`` keeps the derived quantities a step reads
before it integrates, such as Humanoid's centre of mass). A checkpoint is keyed by the run's settings, the
libraries and this code: one of another run is set aside (renamed ``*.stale``), never resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import numpy as np

from ..common.sources import sha256

LIBRARIES = ("stable-baselines3", "torch", "gymnasium", "mujoco", "numpy")


def state_key(settings: dict) -> str:
    """What a checkpoint must have been written under to be resumed: the run's settings, the versions of the
    libraries that compute it, and the bytes of the code that trains it."""
    code = [Path(__file__), Path(__file__).with_name("base_policy.py")]
    record = {
        "settings": settings,
        "libraries": {name: metadata.version(name) for name in LIBRARIES},
        "code": {path.name: sha256(path) for path in code},
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).hexdigest()


def _base_envs(model) -> list:
    """The unwrapped gymnasium environments of an SB3 model's (Dummy)VecEnv."""
    return [env.unwrapped for env in model.env.envs]


def _rng_state() -> dict:
    import torch

    state = {"numpy": np.random.get_state(), "python": random.getstate(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict) -> None:
    import torch

    np.random.set_state(state["numpy"])
    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])


def save(path: Path, model, curve: list[dict], key: str) -> None:
    """The whole training state to ``path`` (written beside it and renamed: a stop mid-write leaves the last one)."""
    envs = [(pickle.dumps(env.data), env.np_random.bit_generator.state) for env in _base_envs(model)]
    state = {"key": key, "steps": model.num_timesteps, "model": pickle.dumps(model), "envs": envs,
             "curve": curve, "rng": _rng_state()}  # fmt: skip
    partial = path.with_name(path.name + ".partial")
    partial.parent.mkdir(parents=True, exist_ok=True)
    with partial.open("wb") as handle:
        pickle.dump(state, handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def load(path: Path, key: str):
    """``(model, curve)`` from a checkpoint written under ``key``, else ``None`` (one of another run is renamed
    ``*.stale`` and said so). Our own file, written by :func:`save`: unpickling it is trusted as the job's own."""
    import mujoco

    if not path.exists():
        return None
    with path.open("rb") as handle:
        state = pickle.load(handle)
    if state.get("key") != key:
        stale = path.with_name(path.name + ".stale")
        os.replace(path, stale)
        print(f"{path}: a checkpoint of other settings, libraries or code; set aside as {stale.name}, starting afresh",
              flush=True)  # fmt: skip
        return None
    model = pickle.loads(state["model"])
    for env, (data, generator) in zip(_base_envs(model), state["envs"], strict=True):
        mujoco.mj_copyData(env.data, env.model, pickle.loads(data))
        env.np_random.bit_generator.state = generator
    _set_rng_state(state["rng"])
    return model, state["curve"]


def learn(model, steps: int, curve: list[dict], progress: Callable, path: Path, every: int, key: str):
    """``model.learn(steps)`` in chunks of ``every`` steps, saving to ``path`` after each and resuming from it;
    ``progress(curve)`` makes the chunk's callback. Returns the trained model and its curve."""
    if every <= 0 or every % model.n_envs:
        raise ValueError(f"checkpoint_every must be a positive multiple of n_envs ({model.n_envs}), got {every}")
    resumed = load(path, key)
    if resumed is not None:
        model, curve = resumed
        print(f"resuming from {path}: {model.num_timesteps:,} of {steps:,} steps done", flush=True)
    while model.num_timesteps < steps:
        chunk = min(every, steps - model.num_timesteps)
        model.learn(chunk, callback=progress(curve), reset_num_timesteps=model.num_timesteps == 0)
        if model.num_timesteps < steps:
            save(path, model, curve, key)
            print(f"checkpoint: {model.num_timesteps:,} of {steps:,} steps saved to {path}", flush=True)
    path.unlink(missing_ok=True)
    return model, curve
