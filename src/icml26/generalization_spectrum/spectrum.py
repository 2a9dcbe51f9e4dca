"""The Generalization Spectrum from per-problem scores: gains over the base model per transfer distance,
transfer efficiency ``e_k = g_k / g_0`` and the far-transfer tail.

``scores`` has one row per (learner, seed, variant) with ``correct`` of ``samples`` sampled programs; a
problem's pass@1 is ``correct / samples`` (the unbiased pass@1). The gain of a learner at distance Dk is
its mean pass@1 over the seeds' Dk problems minus the base model's on the same problems (ours: the spec
says "gain over base"); its efficiency at Dk is that gain over its D0 gain (undefined when the D0 gain is
not positive: the learner memorised nothing). The far-transfer tail of a learner is the share of seeds
whose D3 problem it solves more often than the base model does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .variants import VARIANTS


def pass_rates(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean pass@1 per (learner, variant), variants in order D0..D4."""
    rates = scores.assign(pass1=scores["correct"] / scores["samples"])
    table = rates.groupby(["learner", "variant"], sort=False)["pass1"].mean().unstack("variant")
    return table.reindex(columns=[v for v in VARIANTS if v in table.columns])


def gains(scores: pd.DataFrame, base: str = "base") -> pd.DataFrame:
    """g_k per learner (rows) and variant (columns): its mean pass@1 minus the base model's."""
    rates = pass_rates(scores)
    if base not in rates.index:
        raise ValueError(f"scores have no rows of the base model {base!r}")
    return rates.drop(index=base) - rates.loc[base]


def efficiency(gain: pd.DataFrame) -> pd.DataFrame:
    """e_k = g_k / g_0 (NaN where g_0 <= 0)."""
    g0 = gain["D0"].where(gain["D0"] > 0)
    return gain.div(g0, axis=0)


def far_tail(scores: pd.DataFrame, base: str = "base", variant: str = "D3") -> pd.Series:
    """Per learner, the share of seeds whose ``variant`` problem it solves more often than the base."""
    rows = scores[scores["variant"] == variant].assign(pass1=lambda t: t["correct"] / t["samples"])
    wide = rows.pivot_table(index="seed", columns="learner", values="pass1")
    return pd.Series({learner: float(np.mean(wide[learner] > wide[base]))
                      for learner in wide.columns if learner != base}, name=f"{variant}_tail")
