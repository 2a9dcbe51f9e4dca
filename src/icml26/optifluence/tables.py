"""From the audits' scores to the tables: TPR at the operating FPR and AUC per canary type and
architecture, ROC points for the log-log plot, model accuracy, and the truncation ablation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .canaries import truncations
from .lira import auc, clopper_pearson, lira_online, roc_points, tpr_at_fpr

ROC_GRID = np.logspace(-4, 0, 41)


def per_type(arch: str, scores: np.ndarray, member: np.ndarray, types: np.ndarray, fpr: float) -> tuple[list, list]:
    """Rows of the TPR table and of the ROC table for one architecture."""
    stat = lira_online(scores, member)
    rows, roc = [], []
    for kind in dict.fromkeys(types.tolist()):
        cols = types == kind
        labels, values = member[:, cols].ravel(), stat[:, cols].ravel()
        tpr = tpr_at_fpr(labels, values, fpr)
        n_in, n_out = int(labels.sum()), int((~labels).sum())
        low, high = clopper_pearson(math.floor(tpr * n_in + 1e-9), n_in)
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
