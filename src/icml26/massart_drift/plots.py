"""Figures of the massart_drift pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import BOUND_C, SLOPE_TOL, error_bound

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "excess_vs_drift": ("SLOPE_TOL",),
    "window_vs_drift": ("SLOPE_TOL",),
    "traces": ("BOUND_C", "error_bound"),
}
LABELS = {
    "averaging": "efficient: windowed averaging (RCN)",
    "erm": "inefficient: exact ERM (RCN)",
    "realizable": "realizable: consistent halfspace (η = 0)",
}
COLORS = {"averaging": "C0", "erm": "C3", "realizable": "C2"}


def _reference(ax, x, y0, slope, label, style):
    """The paper's slope through the first point, with the claim's band: slopes within +-SLOPE_TOL of it."""
    ax.plot(x, y0 * (x / x[0]) ** slope, style, color="0.5", lw=1, label=label)
    low, high = (y0 * (x / x[0]) ** (slope + s * SLOPE_TOL) for s in (-1, 1))
    ax.fill_between(x, np.minimum(low, high), np.maximum(low, high), color="0.5", alpha=0.12, lw=0)


def scaling(best: pd.DataFrame, slopes: pd.DataFrame, quantity: str, ylabel: str, refs: list[float]) -> plt.Figure:
    """Seed-averaged best excess (or best window) against Delta, with fitted slopes and reference slopes."""
    fig, ax = plt.subplots(figsize=(5.2, 4))
    for learner, group in best.groupby("learner", sort=True):
        mean = group.groupby("Delta")[quantity].mean()
        lo = group.groupby("Delta")[quantity].min()
        hi = group.groupby("Delta")[quantity].max()
        fit = slopes[(slopes["learner"] == learner) & (slopes["quantity"] == quantity)].iloc[0]
        ax.errorbar(
            mean.index,
            mean,
            yerr=[mean - lo, hi - mean],
            fmt="o-",
            ms=4,
            lw=1.2,
            capsize=2,
            color=COLORS[learner],
            label=f"{LABELS[learner]}: slope {fit.slope:.3f} [{fit.ci_low:.3f}, {fit.ci_high:.3f}]",
        )
    x = np.array(sorted(best["Delta"].unique()))
    anchor = best.groupby("Delta")[quantity].mean().iloc[0]
    for slope, style in zip(refs, ("--", ":")):
        _reference(ax, x, anchor, slope, f"paper's slope {slope:+.3g} (claim: within ±{SLOPE_TOL:g}, shaded)", style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("drift rate Δ")
    ax.set_ylabel(ylabel)
    ax.set_title("points: mean over seeds; bars: min to max over seeds", fontsize=8)
    ax.legend(fontsize=7)
    return fig


def traces(table: pd.DataFrame, eta: float, gamma: float, Delta: float) -> plt.Figure:
    """Error against time on the drifting d-dimensional Massart stream (mean over seeds), with the claim's bound."""
    bound = error_bound(eta, gamma, Delta)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    mean = table.groupby(["learner", "round"])["error"].mean().unstack(0)
    for learner in mean.columns:
        ax.plot(mean.index, mean[learner], lw=1.2, label=learner.replace("_", " "))
    bayes = table.groupby("round")["bayes_error"].mean()
    ax.plot(bayes.index, bayes, color="k", lw=0.8, label="target's own error (Bayes)")
    ax.axhline(eta, color="0.5", ls=":", lw=1, label="η (noise bound)")
    ax.axhline(bound, color="0.3", ls="--", lw=1, label=f"claim: η + C Δ^(1/3)/γ, C = {BOUND_C:g}")
    ax.set_xlabel("round")
    ax.set_ylabel("error against noisy labels")
    ax.set_ylim(0, min(1.0, max(bound, float(mean.max().max())) * 1.1))
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, 0.93))
    return fig
