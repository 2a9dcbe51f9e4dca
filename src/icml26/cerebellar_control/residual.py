"""The cerebellar residual controller: online corrective actions on top of a frozen policy.

``CerebellarResidual(policy, model, config)`` wraps any policy ``obs -> action`` (a callable; the base
parameters are never touched) and is driven step by step::

    action = controller.act(obs)                 # base action + gain * residual, clipped to [-1, 1]
    controller.learn(next_obs, reward)           # after env.step(action)

The pieces, each a config value so ablations are one flag away:

* **Error signal (climbing fibre).** The nominal ``ForwardModel`` predicts the next state for the *base*
  action; the observed next state differs when the plant is faulty (or the residual pushes it). The
  whitened discrepancy is mapped to action space through the model's action sensitivity (damped least
  squares), giving per actuator "how much action the nominal plant would have needed". Driving it to zero
  makes faulty plant + residual behave like the nominal plant under the base action.
* **Pattern separation (granule layer).** A fixed random expansion of (normalised state, base action) to
  ``n_features`` units, of which the ``active_fraction`` with the largest drive are active (k-winners-take-
  all, binary, unit norm).
* **Parallel microzones.** One residual pathway per actuator with its own non-negative excitatory and
  inhibitory weights over the shared features: ``r_j = sum_k (w+_jk - w-_jk) phi_k``.
* **Local plasticity with two eligibility traces.** Excitatory weights learn from a fast trace
  (time constant ``tau_fast`` steps), inhibitory from a slow one (``tau_slow``); each weight changes by
  (its zone's error) x (its feature's trace), clipped at zero; a small ``decay`` forgets stale corrections.
  A surprise gate (our choice; ``surprise_threshold``) lets plasticity run only while the running error
  energy exceeds the nominal model's, so a healthy plant does not teach the residual anything.
* **Conservative meta-adaptation.** Every ``meta_window`` steps the window's mean reward is compared with
  a slow running reference: if it holds (within ``meta_tolerance`` of the reference's scale) the gain and
  plasticity grow additively by ``meta_up``; if it drops they shrink multiplicatively by ``meta_down``.

Ablations: ``inhibitory=False`` (no inhibitory path), ``tau_slow=tau_fast`` (single time scale),
``meta=False`` (gain and plasticity fixed at their maxima).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .forward_model import ForwardModel


@dataclass(frozen=True)
class ResidualConfig:
    n_features: int = 1500
    active_fraction: float = 0.1
    tau_fast: float = 2.0  # excitatory eligibility trace, steps
    tau_slow: float = 20.0  # inhibitory eligibility trace, steps
    lr_exc: float = 0.05
    lr_inh: float = 0.02
    decay: float = 0.0  # per-step multiplicative forgetting of both weight sets
    inhibitory: bool = True
    plastic: bool = True
    surprise_threshold: float = 1.5  # plasticity only while running error energy / nominal exceeds this
    surprise_tau: float = 20.0  # steps, running error energy
    gain_init: float = 0.1
    gain_max: float = 1.0
    meta: bool = True
    meta_window: int = 50
    meta_up: float = 0.05
    meta_down: float = 0.5
    meta_tolerance: float = 0.05
    meta_reference_tau: float = 5.0  # windows, running reference reward
    seed: int = 0

    def ablate(self, **changes) -> ResidualConfig:
        return replace(self, **changes)


def decay_factor(tau: float) -> float:
    """Per-step retention of a trace with time constant ``tau`` steps (``tau <= 0``: no memory)."""
    return float(np.exp(-1.0 / tau)) if tau > 0 else 0.0


class EligibilityTrace:
    """``e <- lambda e + (1 - lambda) phi``: an exponential average of past features, unit gain."""

    def __init__(self, size: int, tau: float):
        self.keep = decay_factor(tau)
        self.value = np.zeros(size)

    def update(self, phi: np.ndarray) -> np.ndarray:
        self.value *= self.keep
        self.value += (1.0 - self.keep) * phi
        return self.value


class PatternSeparation:
    """Fixed random expansion with k-winners-take-all: binary, exactly ``k`` active units of 1/sqrt(k).

    Unit norm makes a learning rate mean the same thing at any size: at a revisited state one update
    moves the residual by ``lr * error``.
    """

    def __init__(self, n_inputs: int, n_features: int, active_fraction: float, rng: np.random.Generator):
        self.projection = rng.standard_normal((n_features, n_inputs)) / np.sqrt(n_inputs)
        self.offset = rng.standard_normal(n_features) * 0.5
        self.k = max(1, int(round(active_fraction * n_features)))

    def dense(self, x: np.ndarray) -> np.ndarray:
        return self.projection @ x + self.offset

    def __call__(self, x: np.ndarray) -> np.ndarray:
        drive = self.dense(x)
        phi = np.zeros_like(drive)
        phi[np.argpartition(-drive, self.k - 1)[: self.k]] = 1.0 / np.sqrt(self.k)
        return phi


class MetaAdaptation:
    """Performance-driven gain and plasticity: grow slowly while reward holds, shrink fast when it drops."""

    def __init__(self, cfg: ResidualConfig):
        self.cfg = cfg
        self.gain = cfg.gain_init if cfg.meta else cfg.gain_max
        self.plasticity = cfg.gain_init / cfg.gain_max if cfg.meta and cfg.gain_max > 0 else 1.0
        self.reference: float | None = None
        self.window: list[float] = []
        self.keep = decay_factor(cfg.meta_reference_tau)

    def observe(self, reward: float) -> None:
        if not self.cfg.meta:
            return
        self.window.append(reward)
        if len(self.window) < self.cfg.meta_window:
            return
        mean = float(np.mean(self.window))
        self.window.clear()
        if self.reference is None:
            self.reference = mean
            return
        held = mean >= self.reference - self.cfg.meta_tolerance * max(abs(self.reference), 1e-6)
        if held:
            self.gain = min(self.cfg.gain_max, self.gain + self.cfg.meta_up)
            self.plasticity = min(1.0, self.plasticity + self.cfg.meta_up / max(self.cfg.gain_max, 1e-12))
        else:
            self.gain *= self.cfg.meta_down
            self.plasticity *= self.cfg.meta_down
        self.reference = self.keep * self.reference + (1.0 - self.keep) * mean


class CerebellarResidual:
    """A frozen policy plus the cerebellar residual pathway; see the module docstring."""

    def __init__(self, policy: Callable[[np.ndarray], np.ndarray], model: ForwardModel, cfg: ResidualConfig):
        self.policy, self.model, self.cfg = policy, model, cfg
        rng = np.random.default_rng(cfg.seed)
        n_act = model.n_actions
        self.features = PatternSeparation(model.n_obs + n_act, cfg.n_features, cfg.active_fraction, rng)
        self.w_exc = np.zeros((n_act, cfg.n_features))
        self.w_inh = np.zeros((n_act, cfg.n_features))
        self.fast = EligibilityTrace(cfg.n_features, cfg.tau_fast)
        self.slow = EligibilityTrace(cfg.n_features, cfg.tau_slow)
        self.meta = MetaAdaptation(cfg)
        self.surprise = 1.0
        self.surprise_keep = decay_factor(cfg.surprise_tau)
        self._last: tuple[np.ndarray, np.ndarray] | None = None
        self.last_residual = np.zeros(n_act)

    @property
    def gain(self) -> float:
        return self.meta.gain

    def residual(self, obs: np.ndarray, base_action: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(residual per actuator, the active features) for this state and base action."""
        phi = self.features(np.concatenate([self.model.normalise(obs), base_action]))
        return (self.w_exc - self.w_inh) @ phi, phi

    def act(self, obs: np.ndarray) -> np.ndarray:
        base = np.asarray(self.policy(obs), dtype=np.float64)
        r, phi = self.residual(obs, base)
        self.fast.update(phi)
        self.slow.update(phi)
        self._last = (obs, base)
        self.last_residual = r
        return np.clip(base + self.gain * r, -1.0, 1.0)

    def learn(self, next_obs: np.ndarray, reward: float) -> None:
        """One plasticity step from the transition that ``act`` started, then the meta-adaptation."""
        if self._last is None:
            raise RuntimeError("learn() needs a preceding act()")
        obs, base = self._last
        cfg = self.cfg
        if cfg.plastic:
            whitened = self.model.whitened_error(obs, base, next_obs)
            energy = float(np.mean(whitened**2))
            self.surprise = self.surprise_keep * self.surprise + (1.0 - self.surprise_keep) * energy
            if self.surprise > cfg.surprise_threshold and self.meta.plasticity > 0:
                teach = self.model.action_correction(whitened, obs)
                step = self.meta.plasticity
                self.w_exc += step * cfg.lr_exc * np.outer(teach, self.fast.value)
                np.maximum(self.w_exc, 0.0, out=self.w_exc)
                if cfg.inhibitory:
                    self.w_inh -= step * cfg.lr_inh * np.outer(teach, self.slow.value)
                    np.maximum(self.w_inh, 0.0, out=self.w_inh)
            if cfg.decay:
                self.w_exc *= 1.0 - cfg.decay
                self.w_inh *= 1.0 - cfg.decay
        self.meta.observe(reward)

    def reset_episode(self) -> None:
        """A new episode: traces and the pending transition are cleared, the learned weights are kept."""
        self.fast.value[:] = 0.0
        self.slow.value[:] = 0.0
        self._last = None


class GradientResidual:
    """Baseline: a plain online gradient-descent residual with a global update.

    Dense features (the same random projection, ``tanh``, no sparsity), one signed weight matrix updated
    every step by the same action-space error, constant gain and rate, no traces, gate or meta-adaptation:
    every update moves the correction everywhere in state space at once.
    """

    def __init__(self, policy: Callable[[np.ndarray], np.ndarray], model: ForwardModel, cfg: ResidualConfig, lr: float):
        self.policy, self.model, self.lr = policy, model, lr
        rng = np.random.default_rng(cfg.seed)
        self.features = PatternSeparation(model.n_obs + model.n_actions, cfg.n_features, cfg.active_fraction, rng)
        self.weights = np.zeros((model.n_actions, cfg.n_features))
        self.gain = cfg.gain_max
        self._last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.last_residual = np.zeros(model.n_actions)

    def act(self, obs: np.ndarray) -> np.ndarray:
        base = np.asarray(self.policy(obs), dtype=np.float64)
        phi = np.tanh(self.features.dense(np.concatenate([self.model.normalise(obs), base])))
        phi /= np.linalg.norm(phi) + 1e-12
        self._last = (obs, base, phi)
        self.last_residual = self.weights @ phi
        return np.clip(base + self.gain * self.last_residual, -1.0, 1.0)

    def learn(self, next_obs: np.ndarray, reward: float) -> None:
        obs, base, phi = self._last
        teach = self.model.action_correction(self.model.whitened_error(obs, base, next_obs), obs)
        self.weights += self.lr * np.outer(teach, phi)

    def reset_episode(self) -> None:
        self._last = None
