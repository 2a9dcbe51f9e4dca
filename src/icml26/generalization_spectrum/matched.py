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


def at_level(curve: pd.DataFrame, level: float) -> pd.Series:
    """One learner's pass rates per variant where its D0 first reaches ``level`` (rows: checkpoints in
    training order; a single row is returned as it is)."""
    curve = curve.sort_values("checkpoint")
    columns = [v for v in VARIANTS if v in curve.columns]
    if len(curve) == 1:
        return curve.iloc[0][columns].astype(float)
    d0 = curve["D0"].to_numpy()
    reached = np.flatnonzero(d0 >= level - 1e-12)
    if not reached.size:
        return pd.Series(np.nan, index=columns)
    i = int(reached[0])
    if i == 0 or d0[i] == d0[i - 1]:
        return curve.iloc[i][columns].astype(float)
    t = (level - d0[i - 1]) / (d0[i] - d0[i - 1])
    return (curve.iloc[i - 1][columns] * (1 - t) + curve.iloc[i][columns] * t).astype(float)


def matched(curves: pd.DataFrame) -> tuple[float, pd.DataFrame]:
    """(level, pass rates per learner and variant at that level) from rows (learner, checkpoint, D0..D4)."""
    level = common_level(curves)
    table = pd.DataFrame({learner: at_level(curve, level) for learner, curve in curves.groupby("learner", sort=False)})
    return level, table.T
