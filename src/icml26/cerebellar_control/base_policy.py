"""The frozen base policy: trained once by the pipeline with Stable-Baselines3 PPO, then kept as arrays.

Training uses SB3's PPO with observation (and reward) normalisation on ``n_envs`` in-process copies of the
environment, for every environment (the spec suggests SAC for Humanoid-v5; we keep one trainer: a
labelled substitution at paper scale). The checkpoint the rest of the pipeline sees is not SB3's zip but
``FrozenPolicy``: the observation normaliser and the mean-action MLP as plain arrays (npz, DVC-tracked),
evaluated in numpy.
That makes the base action a pure function of the observation, the thing the residual wraps and the
"gain 0 reproduces the base bit for bit" oracle compares against, and lets consolidation rebuild the same
network in torch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

ACTIVATIONS = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh}


@dataclass
class FrozenPolicy:
    """Deterministic action = clip(MLP(clip((obs - mean) / sqrt(var + eps), +-clip_obs)), -1, 1)."""

    obs_mean: np.ndarray
    obs_var: np.ndarray
    weights: list[np.ndarray]  # (out, in) per layer, last one is the action head
    biases: list[np.ndarray]
    activation: str = "tanh"
    clip_obs: float = 10.0
    epsilon: float = 1e-8

    def normalise(self, obs: np.ndarray) -> np.ndarray:
        z = (obs - self.obs_mean) / np.sqrt(self.obs_var + self.epsilon)
        return np.clip(z, -self.clip_obs, self.clip_obs)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        h = self.normalise(np.asarray(obs, dtype=np.float64))
        act = ACTIVATIONS[self.activation]
        for W, b in zip(self.weights[:-1], self.biases[:-1]):
            h = act(h @ W.T + b)
        return np.clip(h @ self.weights[-1].T + self.biases[-1], -1.0, 1.0)

    def save(self) -> dict[str, np.ndarray]:
        arrays = {
            "obs_mean": self.obs_mean,
            "obs_var": self.obs_var,
            "clip_obs": np.array(self.clip_obs),
            "epsilon": np.array(self.epsilon),
            "activation": np.array(self.activation),
        }
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
        )

    def with_layers(self, weights: list[np.ndarray], biases: list[np.ndarray]) -> FrozenPolicy:
        """The same normaliser with other layer parameters (consolidation's output)."""
        return FrozenPolicy(self.obs_mean, self.obs_var, weights, biases, self.activation, self.clip_obs, self.epsilon)


def _scalar(array) -> object:
    """A stored scalar (npz keeps them as one-element arrays)."""
    return np.asarray(array).reshape(-1)[0]


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
) -> tuple[FrozenPolicy, list[dict]]:
    """PPO with observation normalisation; returns the frozen mean-action policy and the learning curve."""
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import VecNormalize

    env = VecNormalize(make_vec_env(env_id, n_envs=n_envs, seed=seed, env_kwargs=env_kwargs or {}), gamma=ppo["gamma"])
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
    started = time.perf_counter()

    class Progress(BaseCallback):
        def _on_rollout_end(self) -> None:
            returns = [e["r"] for e in self.model.ep_info_buffer]
            if returns:
                curve.append({"steps": self.num_timesteps, "return": float(np.mean(returns[-10:]))})
                print(
                    f"  {self.num_timesteps:>8d} steps  mean return (last 10 episodes) {curve[-1]['return']:8.1f}"
                    f"  ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )

        def _on_step(self) -> bool:
            return True

    model.learn(steps, callback=Progress())
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
