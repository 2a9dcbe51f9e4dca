"""Tables from the per-episode returns: means with seed-bootstrap intervals, relative to the base policy.

A run's score is the mean return over its consecutive episodes (adaptation included: the controller starts
from zero residual under the fault). Intervals resample seeds; relative improvements are paired by seed
(the same seed gives base and controller the same initial states) and measured against the base's
magnitude, ``(controller - base) / |base|``, so a smaller loss under a fault that makes the base's return
negative still counts as an improvement.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from scipy.stats import bootstrap

KEYS = ["env", "fault", "level", "value"]


def run_scores(returns: pd.DataFrame) -> pd.DataFrame:
    """One row per (env, fault, level, controller, seed): mean and final-episode return."""
    grouped = returns.sort_values("episode").groupby([*KEYS, "controller", "seed"], sort=True)["return"]
    return grouped.agg(score="mean", final="last").reset_index()


def bootstrap_mean(values: np.ndarray, *, resamples: int, seed: int, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean (``scipy.stats.bootstrap``; degenerate for a single value)."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float(values.mean()), float(values.mean())
    found = bootstrap(
        (values,),
        np.mean,
        n_resamples=resamples,
        confidence_level=level,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(found.confidence_interval.low), float(found.confidence_interval.high)


def summary(returns: pd.DataFrame, *, resamples: int) -> pd.DataFrame:
    """Per (env, fault, level, controller): mean score, CI, and the paired relative change against base."""
    scores = run_scores(returns)
    base = scores[scores.controller == "base"].set_index([*KEYS, "seed"])["score"]
    nominal = scores[(scores.controller == "base") & (scores.level == "nominal")].groupby("env")["score"].mean()
    rows = []
    for (env, fault, level, value, controller), group in scores.groupby([*KEYS, "controller"], sort=True):
        paired = base.loc[[(env, fault, level, value, s) for s in group.seed]].to_numpy()
        ratio = relative(group.score.to_numpy(), paired.mean())
        low, high = bootstrap_mean(group.score.to_numpy(), resamples=resamples, seed=0)
        rel_low, rel_high = _paired_ratio_interval(group.score.to_numpy(), paired, resamples=resamples)
        rows.append(
            {
                "env": env,
                "fault": fault,
                "level": level,
                "value": value,
                "controller": controller,
                "seeds": len(group),
                "mean_return": group.score.mean(),
                "ci_low": low,
                "ci_high": high,
                "final_episode_return": group.final.mean(),
                "base_return": paired.mean(),
                "relative_to_base": float(ratio.mean()),
                "relative_ci_low": rel_low,
                "relative_ci_high": rel_high,
                "drop_vs_base_of_nominal": (paired.mean() - group.score.mean()) / nominal[env],
            }
        )
    return pd.DataFrame(rows)


def relative(score, base):
    """Change against the base, in units of the base's magnitude."""
    return (score - base) / np.abs(base)


def _paired_ratio_interval(scores: np.ndarray, base: np.ndarray, *, resamples: int) -> tuple[float, float]:
    """Bootstrap interval of the relative change of the means, resampling seeds jointly (paired)."""
    if len(scores) < 2:
        value = float(relative(scores.mean(), base.mean()))
        return value, value

    def ratio(s, b, axis=-1):
        return relative(s.mean(axis=axis), b.mean(axis=axis))

    found = bootstrap(
        (scores, base), ratio, paired=True, n_resamples=resamples, method="percentile", rng=np.random.default_rng(1)
    )
    return float(found.confidence_interval.low), float(found.confidence_interval.high)


def mean_improvement(returns: pd.DataFrame, controller: str, level: str, *, resamples: int) -> dict[str, float]:
    """Mean over faults of the paired relative improvement at ``level``, with a bootstrap over seeds."""
    scores = run_scores(returns)
    scores = scores[scores.level == level]
    pivot = scores.pivot_table(index=["env", "fault", "seed"], columns="controller", values="score")
    faults = [group for _, group in pivot.groupby(level=["env", "fault"])]

    def statistic(choices: list[np.ndarray]) -> float:
        return float(
            np.mean(
                [
                    relative(g[controller].to_numpy()[c].mean(), g["base"].to_numpy()[c].mean())
                    for g, c in zip(faults, choices)
                ]
            )
        )

    # each fault's seeds resampled on their own (one sample per fault), the controller and base paired by seed
    return _seed_bootstrap(faults, statistic, resamples=resamples, seed=2, widen=False)


def _seed_bootstrap(groups: list, statistic, *, resamples: int, seed: int, widen: bool = True) -> dict[str, float]:
    """Point value and percentile interval of ``statistic(choices)``, where ``choices`` picks seeds within each group
    (each group's seeds resampled on their own, every column of a group paired by seed). ``widen``: the interval is
    widened to hold the point value where it lies outside (a maximum's percentile interval can, as
    ``icml26.common.intervals.over_items`` does); :func:`mean_improvement`'s, committed before, is not."""
    point = statistic([np.arange(len(g)) for g in groups])
    if min(len(g) for g in groups) < 2:  # a single seed: nothing to resample
        return {"mean": point, "ci_low": point, "ci_high": point}
    found = bootstrap(
        [np.arange(len(g)) for g in groups],
        lambda *c: statistic(list(c)),
        vectorized=False,
        n_resamples=resamples,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return {
        "mean": point,
        "ci_low": float(found.confidence_interval.low),
        "ci_high": float(found.confidence_interval.high),
    }


def worst_drops(
    returns: pd.DataFrame, level: str, *, resamples: int, pairs: tuple[tuple[str, str], ...] = ()
) -> dict[str, dict[str, float]]:
    """Per controller, the worst (largest) drop below the base over the faults at ``level``, as a fraction of the
    base's nominal return in the same environment (``summary``'s ``drop_vs_base_of_nominal``), with a seed bootstrap;
    and for each ``(a, b)`` of ``pairs``, ``"a-b"``: a's worst drop minus b's on the same resamples (paired)."""
    scores = run_scores(returns)
    nominal = scores[(scores.controller == "base") & (scores.level == "nominal")].groupby("env")["score"].mean()
    pivot = scores[scores.level == level].pivot_table(
        index=["env", "fault", "seed"], columns="controller", values="score"
    )
    groups = [
        {c: group[c].to_numpy() / nominal[env] for c in pivot.columns}
        for (env, _), group in pivot.groupby(level=["env", "fault"])
    ]

    def worst(controller: str, choices: list[np.ndarray]) -> float:
        return float(max(g["base"][c].mean() - g[controller][c].mean() for g, c in zip(groups, choices)))

    seeds = [g["base"] for g in groups]
    out = {
        c: _seed_bootstrap(seeds, partial(worst, c), resamples=resamples, seed=3) for c in pivot.columns if c != "base"
    }
    for a, b in pairs:
        out[f"{a}-{b}"] = _seed_bootstrap(
            seeds, lambda ch, a=a, b=b: worst(a, ch) - worst(b, ch), resamples=resamples, seed=3
        )
    return out


def consolidation_effects(
    consolidation: pd.DataFrame, returns: pd.DataFrame, *, resamples: int
) -> dict[str, dict[str, float]]:
    """The consolidated policy (residual distilled into it, then removed), as a mean over the consolidated faults
    with a seed bootstrap: ``fault_gain``, its relative change against the frozen base under the same fault, and
    ``nominal_change``, its return on the nominal plant against the base's nominal return (paired by seed)."""
    scores = run_scores(returns)
    base = scores[scores.controller == "base"].set_index(["env", "fault", "level", "seed"])["score"]
    nominal = scores[(scores.controller == "base") & (scores.level == "nominal")].set_index(["env", "seed"])["score"]
    rows = consolidation.sort_values(["env", "fault", "level", "seed"])
    groups = [
        group.assign(
            base_fault=[base[(r.env, r.fault, r.level, r.seed)] for r in group.itertuples()],
            base_nominal=[nominal[(r.env, r.seed)] for r in group.itertuples()],
        )
        for _, group in rows.groupby(["env", "fault", "level"], sort=True)
    ]

    def mean_relative(column: str, against: str, choices: list[np.ndarray]) -> float:
        return float(
            np.mean(
                [
                    relative(g[column].to_numpy()[c].mean(), g[against].to_numpy()[c].mean())
                    for g, c in zip(groups, choices)
                ]
            )
        )

    return {
        "fault_gain": _seed_bootstrap(
            groups, partial(mean_relative, "return_fault", "base_fault"), resamples=resamples, seed=4
        ),
        "nominal_change": _seed_bootstrap(
            groups, partial(mean_relative, "return_nominal", "base_nominal"), resamples=resamples, seed=5
        ),
    }


def adaptation(curves: pd.DataFrame) -> pd.DataFrame:
    """Windowed reward and gain averaged over seeds: the adaptation curves."""
    return curves.groupby([*KEYS, "controller", "window", "step"], sort=True)[["reward", "gain"]].mean().reset_index()


def consolidation_table(consolidation: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Per fault: base, cerebellar and consolidated (residual removed) returns, faulty and nominal."""
    if consolidation.empty:
        return pd.DataFrame(
            columns=[
                "env",
                "fault",
                "base_fault",
                "cerebellar_fault",
                "consolidated_fault",
                "base_nominal",
                "consolidated_nominal",
                "weight_change",
            ]
        )
    merged = (
        consolidation.groupby(["env", "fault", "level"], sort=True)[["return_fault", "return_nominal", "weight_change"]]
        .mean()
        .reset_index()
    )
    look = table.set_index(["env", "fault", "level", "controller"])["mean_return"]
    nominal = table[(table.level == "nominal") & (table.controller == "base")].set_index("env")["mean_return"]
    return pd.DataFrame(
        [
            {
                "env": r.env,
                "fault": r.fault,
                "base_fault": look[(r.env, r.fault, r.level, "base")],
                "cerebellar_fault": look[(r.env, r.fault, r.level, "cerebellar")],
                "consolidated_fault": r.return_fault,
                "base_nominal": nominal[r.env],
                "consolidated_nominal": r.return_nominal,
                "weight_change": r.weight_change,
            }
            for r in merged.itertuples()
        ]
    )
