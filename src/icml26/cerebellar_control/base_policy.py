"""The frozen base policy: trained once by the pipeline with Stable-Baselines3, then kept as arrays.

Two trainers, chosen per environment (``base.algorithm``): PPO with observation (and reward) normalisation on
``n_envs`` in-process copies of the environment (HalfCheetah), and SAC (the spec's choice for Humanoid-v5 at paper
scale; one environment, raw observations, SB3's squashed-Gaussian actor). The checkpoint the rest of the pipeline
sees is not SB3's zip but ``FrozenPolicy``: the observation normaliser and the mean-action MLP as plain arrays
(npz, DVC-tracked), evaluated in numpy; PPO's mean action is clipped to [-1, 1], SAC's is squashed by tanh into
the action space's bounds, as SB3's ``predict(deterministic=True)`` returns it.
That makes the base action a pure function of the observation, the thing the residual wraps and the
"gain 0 reproduces the base bit for bit" oracle compares against, and lets consolidation rebuild the same
network in torch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import resumable

ACTIVATIONS = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh}


@dataclass
class FrozenPolicy:
    """Deterministic action = squash(MLP(clip((obs - mean) / sqrt(var + eps), +-clip_obs))): ``clip`` to [-1, 1]
    (PPO), or ``tanh`` into ``[low, high]`` (SAC: ``low + (tanh(z) + 1) (high - low) / 2``)."""

    obs_mean: np.ndarray
    obs_var: np.ndarray
    weights: list[np.ndarray]  # (out, in) per layer, last one is the action head
    biases: list[np.ndarray]
    activation: str = "tanh"
    clip_obs: float = 10.0
    epsilon: float = 1e-8
    squash: str = "clip"
    low: np.ndarray | None = None  # the action bounds of a tanh-squashed policy
    high: np.ndarray | None = None

    def squashed(self, z: np.ndarray) -> np.ndarray:
        """The action of the head's output ``z``."""
        if self.squash == "clip":
            return np.clip(z, -1.0, 1.0)
        return self.low + (np.tanh(z) + 1.0) * (self.high - self.low) / 2.0

    def normalise(self, obs: np.ndarray) -> np.ndarray:
        z = (obs - self.obs_mean) / np.sqrt(self.obs_var + self.epsilon)
        return np.clip(z, -self.clip_obs, self.clip_obs)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        h = self.normalise(np.asarray(obs, dtype=np.float64))
        act = ACTIVATIONS[self.activation]
        for W, b in zip(self.weights[:-1], self.biases[:-1]):
            h = act(h @ W.T + b)
        return self.squashed(h @ self.weights[-1].T + self.biases[-1])

    def save(self) -> dict[str, np.ndarray]:
        arrays = {
            "obs_mean": self.obs_mean,
            "obs_var": self.obs_var,
            "clip_obs": np.array(self.clip_obs),
            "epsilon": np.array(self.epsilon),
            "activation": np.array(self.activation),
        }
        if self.squash != "clip":  # a clipped policy's file stays as it was
            arrays |= {"squash": np.array(self.squash), "low": self.low, "high": self.high}
        for i, (W, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"W{i}"], arrays[f"b{i}"] = W, b
        return arrays

    @classmethod
    def load(cls, arrays) -> FrozenPolicy:
        n = sum(1 for k in arrays.keys() if k.startswith("W"))
        return cls(
            np.asarray(arrays["obs_mean"]),
            np.asarray(arrays["obs_var"]),
            [np.asarray(arrays[f"W{i}"]) for i in range(n)],
            [np.asarray(arrays[f"b{i}"]) for i in range(n)],
            str(_scalar(arrays["activation"])),
            float(_scalar(arrays["clip_obs"])),
            float(_scalar(arrays["epsilon"])),
            str(_scalar(arrays["squash"])) if "squash" in arrays else "clip",
            np.asarray(arrays["low"]) if "low" in arrays else None,
            np.asarray(arrays["high"]) if "high" in arrays else None,
        )

    def with_layers(self, weights: list[np.ndarray], biases: list[np.ndarray]) -> FrozenPolicy:
        """The same normaliser with other layer parameters (consolidation's output)."""
        return FrozenPolicy(
            self.obs_mean,
            self.obs_var,
            weights,
            biases,
            self.activation,
            self.clip_obs,
            self.epsilon,
            self.squash,
            self.low,
            self.high,
        )


def _scalar(array) -> object:
    """A stored scalar (npz keeps them as one-element arrays)."""
    return np.asarray(array).reshape(-1)[0]


def _progress(curve: list[dict], every: int = 1, print_every: int = 1):
    """An SB3 callback that records the mean return of the last 10 episodes after a rollout, at most once every
    ``every`` steps (SAC's rollouts are single steps), and prints every ``print_every``-th record."""
    from stable_baselines3.common.callbacks import BaseCallback

    started = time.perf_counter()

    class Progress(BaseCallback):
        def _on_rollout_end(self) -> None:
            returns = [e["r"] for e in self.model.ep_info_buffer]
            if not returns or (curve and self.num_timesteps - curve[-1]["steps"] < every):
                return
            curve.append({"steps": self.num_timesteps, "return": float(np.mean(returns[-10:]))})
            if (len(curve) - 1) % print_every == 0:
                print(
                    f"  {self.num_timesteps:>8d} steps  mean return (last 10 episodes) {curve[-1]['return']:8.1f}"
                    f"  ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )

        def _on_step(self) -> bool:
            return True

    return Progress()


def train(
    env_id: str,
    *,
    steps: int,
    seed: int,
    n_envs: int,
    hidden: list[int],
    activation: str,
    ppo: dict,
    device: str,
    env_kwargs: dict | None = None,
    algorithm: str = "ppo",
    sac: dict | None = None,
    checkpoint: str | None = None,
    checkpoint_every: int | None = None,
) -> tuple[FrozenPolicy, list[dict]]:
    """The frozen mean-action policy of ``algorithm`` (``ppo``: with observation normalisation; ``sac``) and the
    learning curve. SAC with ``checkpoint_every`` trains in chunks saved to ``checkpoint`` and resumes from it
    (:mod:`.resumable`); PPO's runs are short enough to need none."""
    if algorithm == "sac":
        settings = {"env_id": env_id, "steps": steps, "seed": seed, "n_envs": n_envs, "hidden": hidden,
                    "activation": activation, "sac": sac, "device": device, "env_kwargs": env_kwargs or {}}  # fmt: skip
        resume = (Path(checkpoint), checkpoint_every, settings) if checkpoint and checkpoint_every else None
        return _train_sac(env_id, steps, seed, n_envs, hidden, activation, sac, device, env_kwargs or {}, resume)
    if algorithm != "ppo":
        raise ValueError(f"base.algorithm must be ppo or sac, got {algorithm!r}")
    if checkpoint_every:
        raise ValueError("base.checkpoint_every applies to SAC (base.algorithm: sac); PPO trains in one go")
    return _train_ppo(env_id, steps, seed, n_envs, hidden, activation, ppo, device, env_kwargs or {})


def _train_ppo(env_id, steps, seed, n_envs, hidden, activation, ppo, device, env_kwargs):
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import VecNormalize

    env = VecNormalize(make_vec_env(env_id, n_envs=n_envs, seed=seed, env_kwargs=env_kwargs), gamma=ppo["gamma"])
    torch_activation = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}[activation]
    model = PPO(
        "MlpPolicy",
        env,
        seed=seed,
        device=device,
        verbose=0,
        policy_kwargs={
            "net_arch": {"pi": list(hidden), "vf": list(hidden)},
            "activation_fn": torch_activation,
            "log_std_init": ppo["log_std_init"],
        },
        **{k: v for k, v in ppo.items() if k != "log_std_init"},
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's default makes a log folder in /tmp
    curve: list[dict] = []
    model.learn(steps, callback=_progress(curve))
    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)] + [policy.action_net]
    frozen = FrozenPolicy(
        env.obs_rms.mean.astype(np.float64),
        env.obs_rms.var.astype(np.float64),
        [layer.weight.detach().cpu().double().numpy() for layer in layers],
        [layer.bias.detach().cpu().double().numpy() for layer in layers],
        activation,
        float(env.clip_obs),
        float(env.epsilon),
    )
    env.close()
    return frozen, curve


def _train_sac(env_id, steps, seed, n_envs, hidden, activation, sac, device, env_kwargs, resume=None):
    """SAC on raw observations; the frozen policy is the actor's mean action squashed into the action bounds
    (an identity normaliser: mean 0, variance 1, epsilon 0, no clipping). ``resume``: ``(checkpoint, every,
    settings)`` to train in chunks that survive a stop."""
    import torch
    from stable_baselines3 import SAC
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger

    if not sac:
        raise ValueError("base.algorithm sac needs the sac: settings")
    env = make_vec_env(env_id, n_envs=n_envs, seed=seed, env_kwargs=env_kwargs)
    torch_activation = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}[activation]
    model = SAC(
        "MlpPolicy",
        env,
        seed=seed,
        device=device,
        verbose=0,
        policy_kwargs={"net_arch": list(hidden), "activation_fn": torch_activation},
        **sac,
    )
    model.set_logger(Logger(folder=None, output_formats=[]))
    curve: list[dict] = []
    if resume is None:
        model.learn(steps, callback=_progress(curve, every=1000, print_every=10))
    else:
        path, every, settings = resume
        model, curve = resumable.learn(model, steps, curve, lambda c: _progress(c, every=1000, print_every=10),
                                       path, every, resumable.state_key(settings))  # fmt: skip
    frozen = freeze_sac(model, activation)
    for used in {id(env): env, id(model.env): model.env}.values():  # a resumed model brings its own
        used.close()
    return frozen, curve


def freeze_sac(model, activation: str) -> FrozenPolicy:
    """An SB3 SAC model's deterministic action as a :class:`FrozenPolicy`: its actor's mean through the latent
    layers and ``mu``, squashed by tanh into the action space's bounds (``predict(deterministic=True)``)."""
    import torch

    actor = model.actor
    layers = [m for m in actor.latent_pi if isinstance(m, torch.nn.Linear)] + [actor.mu]
    size = model.observation_space.shape[0]
    return FrozenPolicy(
        np.zeros(size),
        np.ones(size),
        [layer.weight.detach().cpu().double().numpy() for layer in layers],
        [layer.bias.detach().cpu().double().numpy() for layer in layers],
        activation,
        float("inf"),
        0.0,
        "tanh",
        model.action_space.low.astype(np.float64),
        model.action_space.high.astype(np.float64),
    )
