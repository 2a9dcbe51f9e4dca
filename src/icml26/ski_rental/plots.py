"""Figures of the ski_rental pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "pareto": "the claims compare methods' consistency and robustness with each other (every method's sweep and "
    "point drawn, the optimal threshold starred); their exact checks (LP game value, the R constraint) are in "
    "tables/oracles.csv and the claims",
    "error_sweep": "consistency and robustness against the prediction error for each method; the claim compares Clamp "
    "with the point-prediction baselines (all drawn)",
}

STYLE = {
    "clamp": dict(color="C0", marker="o", label="Clamp Policy (λ sweep)"),
    "robust_randomized": dict(color="C3", marker="s", label="robust randomized (R sweep)"),
    "purohit_det_median": dict(color="C1", marker="^", label="Purohit det., median (λ sweep)"),
    "purohit_rand_median": dict(color="C2", marker="v", label="Purohit rand., median (λ sweep)"),
    # single points: large, hollow (Karlin, buy at B) or filled (x*), drawn on top, so none hides another
    "optimal_threshold": dict(color="k", marker="*", ms=13, zorder=6, label="optimal threshold x*(p̂)"),
    "karlin": dict(color="C4", marker="D", ms=10, mfc="none", mew=1.8, zorder=5, label="Karlin (randomized)"),
    "buy_at_B": dict(color="C5", marker="s", ms=14, mfc="none", mew=1.8, zorder=4, label="buy at B"),
}
SWEEP = dict(ms=3.5, lw=1, alpha=0.85)
ROBUSTNESS_SHOWN = 6.0  # the x-axis ends here; a point beyond it is drawn at the edge with its value


def _grid(n_panels: int, ncols: int = 4):
    """A grid with one spare panel at the end for the legend."""
    nrows = -(-(n_panels + 1) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(2.9 * ncols, 2.6 * nrows), squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n_panels:]:
        ax.axis("off")
    return fig, flat[:n_panels], flat[n_panels]


def pareto(table: pd.DataFrame, B: int) -> plt.Figure:
    """Consistency against robustness for every family at buy cost ``B``."""
    data = table[table["B"] == B]
    families = list(dict.fromkeys(data["family"]))
    fig, axes, legend_ax = _grid(len(families))
    for ax, family in zip(axes, families):
        rows = data[data["family"] == family]
        for method, style in STYLE.items():
            sub = rows[rows["method"] == method].sort_values("robustness")
            if "ms" not in style:  # a sweep: a line, which runs off the axis where it must
                ax.plot(sub["robustness"], sub["consistency"], **{**SWEEP, **style})
                continue
            ax.plot(sub["robustness"].clip(upper=ROBUSTNESS_SHOWN), sub["consistency"], **{"lw": 0, **style})
            for r in sub[sub["robustness"] > ROBUSTNESS_SHOWN].itertuples():  # a point off the axis (x* that never
                # buys): drawn at the edge, its value named
                ax.annotate(
                    f"→ {r.robustness:.3g}",
                    (ROBUSTNESS_SHOWN, r.consistency),
                    xytext=(-4, 7),
                    textcoords="offset points",
                    ha="right",
                    fontsize=7,
                    color=style["color"],
                )
        ax.set_title(family)
        ax.set_xlim(1.45, ROBUSTNESS_SHOWN + 0.15)
        ax.margins(y=0.1)
        ax.set_xlabel("robustness (worst-case ratio)")
        ax.set_ylabel("consistency (ECR at p = p̂)")
    legend_ax.legend(*axes[0].get_legend_handles_labels(), loc="center", fontsize=8)
    fig.suptitle(f"Consistency vs robustness, B = {B} (lower-left is better)")
    fig.tight_layout()
    return fig


AXIS = {"shift": "shift of the truth (units of B)", "mixture": "weight ε of the wrong component"}


def error_curves(table: pd.DataFrame, B: int, lam: float, R: float) -> plt.Figure:
    """ECR relative to the optimum as the truth drifts from the prediction, per family."""
    data = table[table["B"] == B]
    families = list(dict.fromkeys(data["family"]))
    kinds = list(dict.fromkeys(data["perturbation"]))
    chosen = [
        ("clamp", lam, f"Clamp λ={lam:g}"),
        ("optimal_threshold", np.nan, "x*(p̂), unclamped"),
        ("robust_randomized", R, f"robust randomized R={R:g}"),
        ("purohit_det_median", lam, f"Purohit det. median λ={lam:g}"),
        ("karlin", np.nan, "Karlin"),
        ("buy_at_B", np.nan, "buy at B"),
    ]
    fig, axes = plt.subplots(
        len(kinds), len(families), figsize=(2.3 * len(families), 2.4 * len(kinds)), squeeze=False, sharey=True
    )
    for i, kind in enumerate(kinds):
        for j, family in enumerate(families):
            ax = axes[i][j]
            rows = data[(data["family"] == family) & (data["perturbation"] == kind)]
            for method, param, label in chosen:
                sel = rows["method"] == method
                sel &= rows["param"].isna() if np.isnan(param) else np.isclose(rows["param"], param)
                sub = rows[sel].sort_values("magnitude")
                claimed = method == "clamp"  # the claim's method: drawn on top, where other lines coincide with it
                ax.plot(
                    sub["magnitude"],
                    sub["ecr_over_opt"],
                    marker="o",
                    ms=3.5 if claimed else 2.5,
                    lw=2.0 if claimed else 1,
                    ls="-" if claimed else "--",
                    zorder=3 if claimed else 2,
                    label=label,
                    color=STYLE[method]["color"],
                )
            if i == 0:
                ax.set_title(family)
            ax.set_xlabel(AXIS[kind])
        axes[i][0].set_ylabel("ECR / optimal ECR")
    fig.legend(
        *axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=len(chosen), bbox_to_anchor=(0.5, -0.04)
    )
    fig.suptitle(f"Expected competitive ratio when the prediction is wrong, B = {B} (1 = optimal)")
    fig.tight_layout()
    return fig
