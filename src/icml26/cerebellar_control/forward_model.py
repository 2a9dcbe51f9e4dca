"""The nominal forward model: next state from (state, action), fit on rollouts of the healthy plant.

It predicts the change of the standardised observation with a ridge regression on
``[1, s, tanh(P s + c), a, a (x) s]``: random tanh features carry the state dependence and the bilinear
block makes the action sensitivity ``d s' / d a = B0 + sum_i s_i B_i`` depend on the state (contacts change
what a torque does) while staying linear in the action, so the sensitivity is exact and cheap. Errors are
whitened by the per-coordinate residual standard deviation on held-out nominal data, so a healthy plant
gives an error energy of about 1 per coordinate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class ForwardModel:
    obs_mean: np.ndarray
    obs_std: np.ndarray
    projection: np.ndarray  # (n_random, n_obs)
    offset: np.ndarray  # (n_random,)
    coef: np.ndarray  # (n_inputs, n_obs) ridge coefficients
    noise_std: np.ndarray  # (n_obs,) residual std on held-out nominal transitions
    damping: float = 0.1

    @property
    def n_obs(self) -> int:
        return self.obs_mean.size

    @property
    def n_actions(self) -> int:
        return (self.coef.shape[0] - 1 - self.n_obs - self.projection.shape[0]) // (1 + self.n_obs)

    def normalise(self, obs: np.ndarray) -> np.ndarray:
        return (obs - self.obs_mean) / self.obs_std

    def predict_delta(self, obs: np.ndarray, action: np.ndarray) -> np.ndarray:
        """Predicted change of the standardised observation (rows of ``obs``/``action`` or one vector)."""
        return design(self.normalise(obs), action, self.projection, self.offset) @ self.coef

    def whitened_error(self, obs: np.ndarray, action: np.ndarray, next_obs: np.ndarray) -> np.ndarray:
        """(observed - predicted) change, in units of the nominal residual std per coordinate."""
        observed = self.normalise(next_obs) - self.normalise(obs)
        return (observed - self.predict_delta(obs, action)) / self.noise_std

    def sensitivity(self, obs: np.ndarray) -> np.ndarray:
        """Whitened ``d delta / d action`` at one state: (n_obs, n_actions)."""
        s = self.normalise(obs)
        n_s, n_a = self.n_obs, self.n_actions
        start = 1 + n_s + self.projection.shape[0]
        linear = self.coef[start : start + n_a]  # (n_a, n_obs)
        bilinear = self.coef[start + n_a :].reshape(n_a, n_s, n_s)  # (a, s_i, out)
        return (linear + np.einsum("i,aio->ao", s, bilinear)).T / self.noise_std[:, None]

    def action_correction(self, whitened: np.ndarray, obs: np.ndarray) -> np.ndarray:
        """Damped least-squares map of a whitened state error at ``obs`` to the action change that cancels it."""
        B = self.sensitivity(obs)
        return -np.linalg.solve(B.T @ B + self.damping * np.eye(B.shape[1]), B.T @ whitened)

    def save(self) -> dict[str, np.ndarray]:
        return {
            "obs_mean": self.obs_mean,
            "obs_std": self.obs_std,
            "projection": self.projection,
            "offset": self.offset,
            "coef": self.coef,
            "noise_std": self.noise_std,
            "damping": np.array(self.damping),
        }

    @classmethod
    def load(cls, arrays) -> ForwardModel:
        names = ("obs_mean", "obs_std", "projection", "offset", "coef", "noise_std")
        return cls(
            **{k: np.asarray(arrays[k]) for k in names}, damping=float(np.asarray(arrays["damping"]).reshape(-1)[0])
        )


def design(s: np.ndarray, a: np.ndarray, projection: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """The regression inputs ``[1, s, tanh(P s + c), a, a (x) s]`` for standardised states ``s``."""
    s2, a2 = np.atleast_2d(s), np.atleast_2d(a)
    rows = [
        np.ones((s2.shape[0], 1)),
        s2,
        np.tanh(s2 @ projection.T + offset),
        a2,
        (a2[:, :, None] * s2[:, None, :]).reshape(s2.shape[0], -1),
    ]
    out = np.concatenate(rows, axis=1)
    return out[0] if np.ndim(s) == 1 else out


def fit(
    obs: np.ndarray,
    actions: np.ndarray,
    next_obs: np.ndarray,
    *,
    n_random: int,
    ridge: float,
    damping: float,
    holdout: float,
    rng: np.random.Generator,
) -> tuple[ForwardModel, dict[str, float]]:
    """Ridge fit on the first part of the transitions; noise scale and R^2 on the held-out rest."""
    mean, std = obs.mean(axis=0), obs.std(axis=0) + 1e-6
    s, s_next = (obs - mean) / std, (next_obs - mean) / std
    target = s_next - s
    projection = rng.standard_normal((n_random, obs.shape[1])) / np.sqrt(obs.shape[1])
    offset = rng.uniform(-1.0, 1.0, n_random)
    X = design(s, actions, projection, offset)
    n_fit = int(round(len(X) * (1.0 - holdout)))
    A = X[:n_fit].T @ X[:n_fit] + ridge * np.eye(X.shape[1])
    coef = np.linalg.solve(A, X[:n_fit].T @ target[:n_fit])
    residual = target[n_fit:] - X[n_fit:] @ coef
    noise = residual.std(axis=0) + 1e-6
    r2 = 1.0 - residual.var(axis=0) / (target[n_fit:].var(axis=0) + 1e-12)
    model = ForwardModel(mean, std, projection, offset, coef, noise, damping)
    return model, {"r2_mean": float(r2.mean()), "r2_min": float(r2.min()), "n_fit": n_fit, "n_holdout": len(X) - n_fit}


def collect(env, policy, *, steps: int, action_noise: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nominal transitions (obs, action, next obs) from the base policy plus Gaussian action noise.

    The noise excites every actuator around the policy's own state distribution, so the action
    sensitivity is identifiable where the controller will use it.
    """
    rng = np.random.default_rng(seed)
    obs_rows, act_rows, next_rows = [], [], []
    obs, _ = env.reset(seed=seed)
    while len(obs_rows) < steps:
        action = np.clip(
            np.asarray(policy(obs)) + action_noise * rng.standard_normal(env.action_space.shape), -1.0, 1.0
        )
        next_obs, _, terminated, truncated, _ = env.step(action)
        obs_rows.append(obs)
        act_rows.append(action)
        next_rows.append(next_obs)
        obs = env.reset()[0] if terminated or truncated else next_obs
    return np.array(obs_rows), np.array(act_rows), np.array(next_rows)
