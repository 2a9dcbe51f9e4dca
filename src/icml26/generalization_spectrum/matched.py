"""Matched memorisation: compare learners at the same D0 accuracy, read off their learning curves.

Each learner is scored on every variant at several checkpoints of its training (its *curve*). Training
longer raises D0 (memorisation) and moves D1-D4; comparing learners at their final checkpoints would
confound how far they learnt with how well it transfers. So the spectrum is read where each learner's D0
pass rate first reaches a common *level*: the highest level every learner reaches (ours; the spec allows
"stopped at equal D0 accuracy, or curves of D_k vs D0"), each D_k interpolated linearly between the two
checkpoints around that crossing. A learner without a training curve (ICL, the base model) has a single
point and is read there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .variants import VARIANTS


def common_level(curves: pd.DataFrame) -> float:
    """The highest D0 pass rate every learner with a curve reaches (its checkpoints' maximum, minimised)."""
    trained = curves.groupby("learner").filter(lambda g: g["checkpoint"].nunique() > 1)
    if trained.empty:
        raise ValueError("no learner has more than one checkpoint: nothing to match")
    return float(trained.groupby("learner")["D0"].max().min())


def reading(curve: pd.DataFrame, level: float) -> dict[int, float]:
    """Where one learner's D0 first reaches ``level``: {checkpoint: weight}, the two checkpoints around the
    crossing weighted for linear interpolation (one checkpoint when it lands on one or the learner has a
    single point; empty when it never gets there)."""
    curve = curve.sort_values("checkpoint")
    checkpoints, d0 = curve["checkpoint"].to_numpy(), curve["D0"].to_numpy()
    if len(curve) == 1:
        return {int(checkpoints[0]): 1.0}
    reached = np.flatnonzero(d0 >= level - 1e-12)
    if not reached.size:
        return {}
    i = int(reached[0])
    if i == 0 or d0[i] == d0[i - 1]:
        return {int(checkpoints[i]): 1.0}
    t = float((level - d0[i - 1]) / (d0[i] - d0[i - 1]))
    return {int(checkpoints[i - 1]): 1 - t, int(checkpoints[i]): t}


def at_level(curve: pd.DataFrame, level: float) -> pd.Series:
    """One learner's pass rates per variant where its D0 first reaches ``level`` (rows: its checkpoints)."""
    columns = [v for v in VARIANTS if v in curve.columns]
    weights = reading(curve, level)
    if not weights:
        return pd.Series(np.nan, index=columns)
    rows = curve.set_index("checkpoint").loc[list(weights), columns].astype(float)
    return rows.mul(pd.Series(weights), axis=0).sum()


def matched(curves: pd.DataFrame) -> tuple[float, pd.DataFrame]:
    """(level, pass rates per learner and variant at that level) from rows (learner, checkpoint, D0..D4)."""
    level = common_level(curves)
    table = pd.DataFrame({learner: at_level(curve, level) for learner, curve in curves.groupby("learner", sort=False)})
    return level, table.T
