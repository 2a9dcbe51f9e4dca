"""The functions the Snakemake rules of ``workflow/rules/cerebellar_control.smk`` call."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, read_npz, require, write_csv, write_json, write_npz


def train_base(
    policy: str,
    curve: str,
    *,
    env: str,
    steps: int,
    seed: int,
    n_envs: int,
    hidden: list[int],
    activation: str,
    ppo: dict,
    env_kwargs: dict,
    device: str,
    algorithm: str = "ppo",
    sac: dict | None = None,
    checkpoint: str | None = None,
    checkpoint_every: int | None = None,
) -> None:
    """Train the base policy once (``algorithm``: PPO or SAC); keep it as arrays (the DVC-tracked checkpoint).
    SAC with ``checkpoint_every`` saves its state to ``checkpoint`` every that many steps and resumes from it."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import base_policy

    seed_everything(seed)
    print(f"training the {env} base policy: {steps} steps of {algorithm.upper()} on {n_envs} environments", flush=True)
    frozen, rows = base_policy.train(
        env,
        steps=steps,
        seed=seed,
        n_envs=n_envs,
        hidden=hidden,
        activation=activation,
        ppo=ppo,
        device=resolve_device(device),
        env_kwargs=env_kwargs,
        algorithm=algorithm,
        sac=sac,
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
    )
    write_npz(policy, **frozen.save())
    write_csv(curve, pd.DataFrame(rows, columns=["steps", "return"]).assign(env=env))


def fit_forward_model(
    policy: str,
    model: str,
    fit: str,
    *,
    env: str,
    steps: int,
    action_noise: float,
    n_random: int,
    ridge: float,
    damping: float,
    holdout: float,
    seed: int,
    max_steps: int,
    env_kwargs: dict,
) -> None:
    """Nominal transitions from the base policy (with action noise) -> the ridge forward model."""
    from . import base_policy, forward_model
    from .rollouts import make_env

    frozen = base_policy.FrozenPolicy.load(read_npz(policy))
    environment = make_env(env, max_steps, env_kwargs)
    obs, actions, next_obs = forward_model.collect(
        environment, frozen, steps=steps, action_noise=action_noise, seed=seed
    )
    environment.close()
    fitted, info = forward_model.fit(
        obs,
        actions,
        next_obs,
        n_random=n_random,
        ridge=ridge,
        damping=damping,
        holdout=holdout,
        rng=np.random.default_rng(seed),
    )
    print(
        f"forward model on {len(obs)} nominal transitions: held-out R^2 mean {info['r2_mean']:.3f}, "
        f"min {info['r2_min']:.3f}",
        flush=True,
    )
    write_npz(model, **fitted.save())
    write_json(fit, {"env": env, **info})


def adapt(
    policy: str,
    model: str,
    returns: str,
    curves: str,
    consolidation: str,
    timing: str,
    *,
    env: str,
    env_kwargs: dict,
    fault: str,
    spec: dict | None,
    controllers: list[str],
    seeds: list[int],
    episodes: int,
    max_steps: int,
    residual: dict,
    gradient_lr: float,
    curve_window: int,
    consolidate: dict | None,
    device: str,
) -> None:
    """Every controller under one named fault (its moderate and severe level), or on the nominal plant."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import base_policy, forward_model
    from .experiment import CONTROLLERS, run_fault
    from .faults import NOMINAL, faults_from_config
    from .residual import ResidualConfig

    unknown = sorted(set(controllers) - set(CONTROLLERS))
    if unknown or "base" not in controllers:
        raise ValueError(f"controllers must include 'base' and come from {CONTROLLERS}; got {controllers}")
    seed_everything(seeds[0])
    faults = [NOMINAL] if spec is None else faults_from_config({fault: spec})
    out = run_fault(
        env,
        faults,
        base_policy.FrozenPolicy.load(read_npz(policy)),
        forward_model.ForwardModel.load(read_npz(model)),
        ResidualConfig(**residual),
        controllers=controllers,
        seeds=seeds,
        episodes=episodes,
        max_steps=max_steps,
        gradient_lr=gradient_lr,
        curve_window=curve_window,
        consolidate=consolidate if spec is not None else None,
        env_kwargs=env_kwargs,
        device=resolve_device(device),
    )
    write_csv(returns, out["returns"])
    write_csv(curves, out["curves"])
    write_csv(consolidation, out["consolidation"])
    cost = out["cost"].groupby("controller", sort=True)[["steps", "seconds"]].sum().reset_index()
    write_csv(timing, cost.assign(env=env, fault=fault, seconds_per_step=cost.seconds / cost.steps))


def summarise(
    returns: list[str],
    curves: list[str],
    consolidation: list[str],
    table: str,
    adaptation: str,
    consolidated: str,
    *,
    resamples: int,
) -> None:
    from . import analysis

    frame = read_csvs(returns)
    summary = analysis.summary(frame, resamples=resamples)
    write_csv(table, summary)
    write_csv(adaptation, analysis.adaptation(read_csvs(curves)))
    parts = [read_csv(p) for p in consolidation]
    merged = pd.concat([p for p in parts if not p.empty] or [parts[0]], ignore_index=True)
    write_csv(consolidated, analysis.consolidation_table(merged, summary))
    show = summary[summary.controller.isin(["base", "cerebellar", "no_meta", "gradient"])]
    print(
        show[["env", "fault", "level", "controller", "mean_return", "relative_to_base"]].to_string(index=False),
        flush=True,
    )


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Seconds per environment step of each controller (beside the base policy; varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    frame = read_csvs(timings)
    total = frame.groupby(["env", "controller"], sort=True)[["steps", "seconds"]].sum().reset_index()
    write_csv(summary, total.assign(seconds_per_step=total.seconds / total.steps))


def figures(
    curves: list[str], table: str, adaptation: str, consolidated: str, *, envs: list[str], **outputs: str
) -> None:
    """The base policies' training curves, one panel per environment (base_training), return per fault and
    controller (fault_returns), return over the adaptation episodes (adaptation) and the consolidated
    controller's return (consolidation)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.base_training(read_csvs(curves), envs), *paths("base_training"))
        save_figure(plots.fault_returns(read_csv(table)), *paths("fault_returns"))
        frame = read_csv(adaptation)
        shown = [c for c in ("base", "cerebellar", "no_meta", "gradient") if c in set(frame.controller)]
        save_figure(plots.adaptation(frame, shown), *paths("adaptation"))
        save_figure(plots.consolidation(read_csv(consolidated)), *paths("consolidation"))


def verdict(
    table: str,
    consolidated: str,
    returns: list[str],
    consolidation: list[str],
    fits: list[str],
    claims: str,
    metrics: str,
    *,
    nominal_tolerance: float,
    catastrophic_drop: float,
    resamples: int,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import analysis
    from . import verdict as verdicts

    summary, merged = read_csv(table), read_csv(consolidated)
    frame = read_csvs(returns)
    overall = {
        env: analysis.mean_improvement(frame[frame.env == env], "cerebellar", "moderate", resamples=resamples)
        for env in sorted(frame.env.unique())
    }
    moderate = {
        c: analysis.mean_improvement(frame, c, "moderate", resamples=resamples) for c in ("cerebellar", "gradient")
    }
    drops = analysis.worst_drops(frame, "severe", resamples=resamples, pairs=(("gradient", "cerebellar"),))
    parts = [p for p in map(read_csv, consolidation) if not p.empty]
    effects = analysis.consolidation_effects(pd.concat(parts, ignore_index=True), frame, resamples=resamples)
    write_claims(
        claims,
        [
            verdicts.moderate_improvement(summary, overall),
            verdicts.nominal_preserved(summary, nominal_tolerance),
            verdicts.graceful_degradation(summary, drops, catastrophic_drop),
            verdicts.meta_adaptation_prevents_collapse(summary, drops, catastrophic_drop),
            verdicts.avoids_destabilising_global_updates(summary, drops, moderate),
            verdicts.consolidation_adds_robustness(effects, merged, nominal_tolerance),
        ],
        substitution=substitution,
    )
    forward = {}
    for path in fits:
        require(path)
        info = read_json(path)
        forward[info.pop("env")] = info
    base = summary[(summary.level == "nominal") & (summary.controller == "base")]
    write_json(
        metrics,
        verdicts.metrics(summary, merged, forward, {r.env: round(float(r.mean_return), 3) for r in base.itertuples()}),
    )
