"""Episodes of a controller on a (possibly faulty) MuJoCo environment.

A controller is anything with ``act(obs) -> action``, ``learn(next_obs, reward)`` and ``reset_episode()``;
``Frozen`` makes a plain policy one. Consecutive episodes share the controller, so what the residual
learned in episode 1 is still there in episode 2 (the fault persists; only the robot is reset).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import gymnasium as gym
import numpy as np

from .faults import Fault, inject


class Controller(Protocol):
    def act(self, obs: np.ndarray) -> np.ndarray: ...
    def learn(self, next_obs: np.ndarray, reward: float) -> None: ...
    def reset_episode(self) -> None: ...


class Frozen:
    """The base policy alone, as a controller that never learns."""

    gain = 0.0

    def __init__(self, policy: Callable[[np.ndarray], np.ndarray]):
        self.policy = policy

    def act(self, obs: np.ndarray) -> np.ndarray:
        return np.asarray(self.policy(obs), dtype=np.float64)

    def learn(self, next_obs: np.ndarray, reward: float) -> None:
        pass

    def reset_episode(self) -> None:
        pass


@dataclass
class Rollout:
    returns: np.ndarray  # (episodes,)
    rewards: np.ndarray  # (episodes, steps)
    gains: np.ndarray  # (episodes, steps) residual gain in force at each step
    observations: np.ndarray | None = None  # (episodes * steps, n_obs) when recorded
    actions: np.ndarray | None = None


def make_env(env_id: str, max_steps: int, env_kwargs: dict | None = None) -> gym.Env:
    """A gymnasium environment with episodes cut at ``max_steps`` (``env_kwargs``: e.g. a reduced observation)."""
    return gym.make(env_id, max_episode_steps=max_steps, **(env_kwargs or {}))


def run(
    env: gym.Env, controller: Controller, fault: Fault, *, episodes: int, seed: int, record: bool = False
) -> Rollout:
    """``episodes`` episodes under ``fault`` (injected for the whole run and then undone)."""
    undo = inject(env.unwrapped.model, fault)
    try:
        returns, rewards, gains, observations, actions = [], [], [], [], []
        for episode in range(episodes):
            obs, _ = env.reset(seed=seed if episode == 0 else None)
            controller.reset_episode()
            trace, gain_trace = [], []
            done = False
            while not done:
                action = controller.act(obs)
                gain_trace.append(float(getattr(controller, "gain", 0.0)))
                if record:
                    observations.append(obs)
                    actions.append(action)
                obs, reward, terminated, truncated, _ = env.step(action)
                controller.learn(obs, float(reward))
                trace.append(float(reward))
                done = terminated or truncated
            returns.append(sum(trace))
            rewards.append(trace)
            gains.append(gain_trace)
    finally:
        undo.restore()
    width = max(len(t) for t in rewards)
    pad = lambda rows: np.array([r + [np.nan] * (width - len(r)) for r in rows])  # noqa: E731
    return Rollout(
        np.array(returns),
        pad(rewards),
        pad(gains),
        np.array(observations) if record else None,
        np.array(actions) if record else None,
    )
