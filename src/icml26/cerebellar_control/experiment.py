"""One fault's experiment: every controller, at every level of the fault, over seeds; then consolidation.

Controllers (names used in every table):
    base              -- the frozen policy alone
    cerebellar        -- the full residual controller
    no_meta           -- ablation: gain and plasticity fixed at their maxima
    no_inhibitory     -- ablation: excitatory pathway only
    single_timescale  -- ablation: the inhibitory trace uses the fast time constant
    gradient          -- baseline: plain online gradient-descent residual with a global update

Each (level, controller, seed) runs ``episodes`` consecutive episodes with the controller's state kept
across them; the return of each episode is a row. For the moderate level the adapted cerebellar
controller of each seed is consolidated into the policy weights, and the consolidated policy (residual
removed) is evaluated under the fault and on the nominal plant.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from . import consolidation
from .base_policy import FrozenPolicy
from .faults import NOMINAL, Fault
from .forward_model import ForwardModel
from .residual import CerebellarResidual, GradientResidual, ResidualConfig
from .rollouts import Frozen, make_env, run

CONTROLLERS = ("base", "cerebellar", "no_meta", "no_inhibitory", "single_timescale", "gradient")
CONSOLIDATION_COLUMNS = ["env", "fault", "level", "seed", "return_fault", "return_nominal", "weight_change"]


def make_controller(
    name: str, policy: FrozenPolicy, model: ForwardModel, cfg: ResidualConfig, *, gradient_lr: float, seed: int
):
    cfg = cfg.ablate(seed=seed)
    if name == "base":
        return Frozen(policy)
    if name == "gradient":
        return GradientResidual(policy, model, cfg, lr=gradient_lr)
    ablations = {
        "cerebellar": {},
        "no_meta": {"meta": False},
        "no_inhibitory": {"inhibitory": False},
        "single_timescale": {"tau_slow": cfg.tau_fast},
    }
    if name not in ablations:
        raise ValueError(f"unknown controller {name!r}; expected one of {CONTROLLERS}")
    return CerebellarResidual(policy, model, cfg.ablate(**ablations[name]))


def window_means(rewards: np.ndarray, window: int) -> np.ndarray:
    """Mean reward per ``window`` steps along the concatenated episodes (the adaptation curve)."""
    flat = rewards[~np.isnan(rewards)]
    n = len(flat) // window
    return flat[: n * window].reshape(n, window).mean(axis=1)


def run_fault(
    env_id: str,
    faults: list[Fault],
    policy: FrozenPolicy,
    model: ForwardModel,
    cfg: ResidualConfig,
    *,
    controllers: list[str],
    seeds: list[int],
    episodes: int,
    max_steps: int,
    gradient_lr: float,
    curve_window: int,
    consolidate: dict | None,
    env_kwargs: dict | None = None,
    device: str = "cpu",
) -> dict[str, pd.DataFrame]:
    """Returns, adaptation curves, consolidation results and per-controller step costs for these faults."""
    env = make_env(env_id, max_steps, env_kwargs)
    returns, curves, consolidated, cost = [], [], [], []
    for fault in faults:
        for name in controllers:
            for seed in seeds:
                controller = make_controller(name, policy, model, cfg, gradient_lr=gradient_lr, seed=seed)
                keep_states = consolidate is not None and name == "cerebellar" and fault.level == "moderate"
                started = time.perf_counter()
                out = run(env, controller, fault, episodes=episodes, seed=seed, record=keep_states)
                seconds = time.perf_counter() - started
                steps = int(np.sum(~np.isnan(out.rewards)))
                cost.append({"controller": name, "steps": steps, "seconds": seconds})
                key = {
                    "env": env_id,
                    "fault": fault.name,
                    "level": fault.level,
                    "value": fault.value,
                    "controller": name,
                    "seed": seed,
                }
                returns += [{**key, "episode": e, "return": float(r)} for e, r in enumerate(out.returns)]
                means = window_means(out.rewards, curve_window)
                gains = window_means(out.gains, curve_window)
                curves += [
                    {**key, "window": w, "step": (w + 1) * curve_window, "reward": float(m), "gain": float(g)}
                    for w, (m, g) in enumerate(zip(means, gains))
                ]
                print(
                    f"{env_id} {fault.name}/{fault.level} {name:16s} seed {seed}: returns "
                    f"{np.round(out.returns, 1).tolist()} ({steps / seconds:.0f} steps/s)",
                    flush=True,
                )
                if keep_states:
                    consolidated.append(
                        _consolidate(
                            env, controller, out.observations, policy, fault, seed, episodes, consolidate, device
                        )
                    )
    env.close()
    return {
        "returns": pd.DataFrame(returns),
        "curves": pd.DataFrame(curves),
        "consolidation": pd.DataFrame(consolidated, columns=CONSOLIDATION_COLUMNS),
        "cost": pd.DataFrame(cost),
    }


def _consolidate(
    env,
    controller: CerebellarResidual,
    observations: np.ndarray,
    policy: FrozenPolicy,
    fault: Fault,
    seed: int,
    episodes: int,
    settings: dict,
    device: str,
) -> dict:
    """Distil this seed's adapted controller into the weights; evaluate without the residual."""
    targets = consolidation.residual_targets(controller, observations)
    merged = consolidation.distil(policy, observations, targets, seed=seed, device=device, **settings)
    on_fault = run(env, Frozen(merged), fault, episodes=episodes, seed=seed)
    on_nominal = run(env, Frozen(merged), NOMINAL, episodes=episodes, seed=seed)
    change = np.sqrt(sum(float(np.sum((a - b) ** 2)) for a, b in zip(merged.weights, policy.weights)))
    print(
        f"  consolidated seed {seed}: fault returns {np.round(on_fault.returns, 1).tolist()}, "
        f"nominal {np.round(on_nominal.returns, 1).tolist()}",
        flush=True,
    )
    return {
        "env": env.spec.id,
        "fault": fault.name,
        "level": fault.level,
        "seed": seed,
        "return_fault": float(on_fault.returns.mean()),
        "return_nominal": float(on_nominal.returns.mean()),
        "weight_change": change,
    }
