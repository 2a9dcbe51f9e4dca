"""From the audits' scores to the tables: TPR at the operating FPR and AUC per canary type and
architecture, ROC points for the log-log plot, model accuracy, and the truncation ablation."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .canaries import truncations
from .lira import auc, lira_online, roc_points, tpr_at_fpr

ROC_GRID = np.logspace(-4, 0, 41)
RESAMPLES = 500


def tpr_interval(
    member: np.ndarray, stat: np.ndarray, fpr: float, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """95 % percentile bootstrap interval of the TPR at ``fpr``, resampling the audited models (rows) and the
    canaries (columns) together (``common.bootstrap.crossed``): the threshold at an extreme FPR rests on a handful
    of OUT scores, so it is redrawn with them (a Clopper-Pearson interval over the IN pairs alone treats it as fixed
    and is too narrow). The LiRA statistic itself is not refitted per resample."""
    from ..common.bootstrap import crossed

    def tpr(rows: np.ndarray, cols: np.ndarray) -> float:
        labels = member[np.ix_(rows, cols)].ravel()
        if labels.all() or not labels.any():
            return np.nan
        return tpr_at_fpr(labels, stat[np.ix_(rows, cols)].ravel(), fpr)

    return crossed(tpr, member.shape, resamples=resamples, seed=seed)


def per_type(arch: str, scores: np.ndarray, member: np.ndarray, types: np.ndarray, fpr: float) -> tuple[list, list]:
    """Rows of the TPR table and of the ROC table for one architecture."""
    stat = lira_online(scores, member)
    rows, roc = [], []
    for kind in dict.fromkeys(types.tolist()):
        cols = types == kind
        labels, values = member[:, cols].ravel(), stat[:, cols].ravel()
        tpr = tpr_at_fpr(labels, values, fpr)
        n_in, n_out = int(labels.sum()), int((~labels).sum())
        low, high = tpr_interval(member[:, cols], stat[:, cols], fpr)
        low, high = min(low, tpr), max(high, tpr)
        own = scores[:, cols]
        rows.append(
            {
                "architecture": arch,
                "type": kind,
                "tpr": tpr,
                "tpr_low": low,
                "tpr_high": high,
                "tpr_at_1pct": tpr_at_fpr(labels, values, 0.01),
                "auc": auc(labels, values),
                "score_gap": float(own[member[:, cols]].mean() - own[~member[:, cols]].mean()),
                "canaries": int(cols.sum()),
                "n_in": n_in,
                "n_out": n_out,
            }
        )
        roc += [
            {"architecture": arch, "type": kind, "fpr": f, "tpr": t}
            for f, t in zip(ROC_GRID, roc_points(labels, values, ROC_GRID))
        ]
    return rows, roc


def accuracy(arch: str, test_accuracy: np.ndarray, train_accuracy: np.ndarray) -> dict:
    return {
        "architecture": arch,
        "models": len(test_accuracy),
        "test_accuracy": float(test_accuracy.mean()),
        "test_accuracy_sd": float(test_accuracy.std()),
        "train_accuracy": float(train_accuracy.mean()),
    }


def ablation(tpr: pd.DataFrame, target: str, truncation: int, lengths: list[int]) -> pd.DataFrame:
    """TPR and AUC of the optimised canaries on the target architecture against the truncation length."""
    names = {t: k for t, k in truncations(truncation, lengths).items() if t != "unrolled_random"}
    rows = tpr[(tpr["architecture"] == target) & tpr["type"].isin(names)].copy()
    rows.insert(0, "truncation", rows["type"].map(names))
    return rows.sort_values("truncation")[["truncation", "type", "tpr", "tpr_low", "tpr_high", "auc", "score_gap"]]
