"""The Generalization Spectrum from per-problem scores: gains over the base model per transfer distance,
transfer efficiency ``e_k = g_k / g_0`` and the far-transfer tail.

Scores have one row per (learner, checkpoint, seed, variant) with ``correct`` of ``samples`` sampled
programs; a problem's pass@1 is ``correct / samples`` (the unbiased pass@1). :func:`curves` averages them
per checkpoint, and :func:`matched_problems` reads every problem's pass@1 where its learner's D0 curve
reaches the matched level (:mod:`.matched`), which the functions below take. The gain of a learner at distance Dk is
its mean pass@1 over the seeds' Dk problems minus the base model's on the same problems (ours: the spec
says "gain over base"); its efficiency at Dk is that gain over its D0 gain (undefined when the D0 gain is
not positive: the learner memorised nothing). The far-transfer tail of a learner is the share of seeds
whose D3 problem it solves more often than the base model does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .matched import reading
from .variants import VARIANTS


def curves(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean pass@1 per (learner, checkpoint) and variant: rows (learner, checkpoint, D0..D4)."""
    rates = scores.assign(pass1=scores["correct"] / scores["samples"])
    table = rates.groupby(["learner", "checkpoint", "variant"], sort=False)["pass1"].mean().unstack("variant")
    return table.reindex(columns=[v for v in VARIANTS if v in table.columns]).reset_index()


def matched_problems(scores: pd.DataFrame, curve: pd.DataFrame, level: float) -> pd.DataFrame:
    """Rows (learner, seed, variant, pass1): each problem's pass@1 interpolated with the weights at which
    its learner's mean D0 reaches ``level``; a learner that never reaches it is left out."""
    parts = []
    for learner, own in curve.groupby("learner", sort=False):
        weights = pd.Series(reading(own, level), name="weight")
        if weights.empty:
            continue
        rows = scores[scores["learner"] == learner].join(weights, on="checkpoint", how="inner")
        rows = rows.assign(pass1=rows["correct"] / rows["samples"] * rows["weight"])
        parts.append(rows.groupby(["learner", "seed", "variant"], sort=False)["pass1"].sum().reset_index())
    return pd.concat(parts, ignore_index=True)


def pass_rates(problems: pd.DataFrame) -> pd.DataFrame:
    """Mean pass@1 per (learner, variant), variants in order D0..D4 (``problems``: rows with ``pass1``)."""
    table = problems.groupby(["learner", "variant"], sort=False)["pass1"].mean().unstack("variant")
    return table.reindex(columns=[v for v in VARIANTS if v in table.columns])


def gains(problems: pd.DataFrame, base: str = "base") -> pd.DataFrame:
    """g_k per learner (rows) and variant (columns): its mean pass@1 minus the base model's."""
    rates = pass_rates(problems)
    if base not in rates.index:
        raise ValueError(f"scores have no rows of the base model {base!r}")
    return rates.drop(index=base) - rates.loc[base]


def efficiency(gain: pd.DataFrame) -> pd.DataFrame:
    """e_k = g_k / g_0 (NaN where g_0 <= 0)."""
    g0 = gain["D0"].where(gain["D0"] > 0)
    return gain.div(g0, axis=0)


def far_tail(problems: pd.DataFrame, base: str = "base", variant: str = "D3") -> pd.Series:
    """Per learner, the share of seeds whose ``variant`` problem it solves more often than the base."""
    wide = problems[problems["variant"] == variant].pivot_table(index="seed", columns="learner", values="pass1")
    return pd.Series(
        {learner: float(np.mean(wide[learner] > wide[base])) for learner in wide.columns if learner != base},
        name=f"{variant}_tail",
    )


def table(problems: pd.DataFrame, level: float, base: str = "base") -> pd.DataFrame:
    """One row per learner: ``pass_Dk``, ``gain_Dk``, ``e_Dk`` and ``level``, from the matched problems
    (:func:`matched_problems` at ``level``)."""
    rates, gain = pass_rates(problems), gains(problems, base)
    rows = pd.concat([rates.add_prefix("pass_"), gain.add_prefix("gain_"), efficiency(gain).add_prefix("e_")], axis=1)
    return rows.rename_axis("learner").reset_index().assign(level=level)


def pass_at_k(scores: pd.DataFrame, curve: pd.DataFrame, level: float, ks: list[int]) -> pd.DataFrame:
    """Mean unbiased pass@k per learner and variant at the first checkpoint where the learner's D0 reaches
    ``level`` (no interpolation: pass@k needs whole samples); rows (learner, checkpoint, variant, k, pass_at_k)."""
    from .passk import pass_at_k as estimate

    rows = []
    for learner, own in curve.groupby("learner", sort=False):
        weights = reading(own, level)
        if not weights:
            continue
        checkpoint = max(weights)
        chosen = scores[(scores["learner"] == learner) & (scores["checkpoint"] == checkpoint)]
        for variant, group in chosen.groupby("variant"):
            for k in ks:
                values = [estimate(int(n), int(c), k) for n, c in zip(group["samples"], group["correct"])]
                rows.append(
                    {
                        "learner": learner,
                        "checkpoint": checkpoint,
                        "variant": variant,
                        "k": k,
                        "pass_at_k": float(np.mean(values)),
                    }
                )
    return pd.DataFrame(rows)
