"""Figures of the manifold_microscope pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import TOLERANCE

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "estimator_accuracy": ("TOLERANCE",),
    "bound_scaling": "the claim judges each fitted slope (in every panel's legend) against the band of the two "
    "envelopes' log-log slopes, the rates drawn as dashed lines; the band's ends are in tables/bound_scaling.csv "
    "(genovese_exponent, upper_slope) and the claim",
    "vae_layers": "the claim's statistic, the rank correlation of each quantity with depth, is computed from these "
    "curves and stated with its threshold in the claim; the curves are drawn, not the correlation",
}
QUANTITIES = ["curvature", "total_curvature", "volume", "reach"]


def estimator_accuracy(table: pd.DataFrame) -> plt.Figure:
    """Relative error against the number of points: grid finite differences vs random-sample baselines."""
    toys = sorted(table["toy"].unique())
    fig, axes = plt.subplots(1, len(toys), figsize=(4.2 * len(toys), 3.8), squeeze=False, sharey=True)
    for ax, toy in zip(axes[0], toys):
        g = table[table["toy"] == toy]
        for i, quantity in enumerate(QUANTITIES):
            for estimator, style in (("finite_difference", "o-"), ("local_pca", "s--")):
                h = g[(g["quantity"] == quantity) & (g["estimator"] == estimator)].sort_values("points")
                if len(h):
                    ax.plot(
                        h["points"],
                        h["relative_error"].clip(lower=1e-16),
                        style,
                        ms=3.5,
                        color=f"C{i}",
                        label=f"{quantity} ({'grid FD' if estimator == 'finite_difference' else 'local PCA'})",
                    )
        ax.axhline(TOLERANCE, color="0.4", ls=":", lw=1, label=f"claim: FD error ≤ {TOLERANCE:g}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("points")
        ax.set_title(toy, fontsize=10)
        ax.grid(alpha=0.3, which="both", lw=0.5)
    axes[0][0].set_ylabel("relative error")
    handles, labels = [], []
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    axes[0][-1].legend(handles, labels, fontsize=6)
    return fig


def class_curvature(
    curvature: pd.DataFrame,
    key: str = "shape",
    title: str = "dSprites-style slices (procedurally rendered): rotation x position",
) -> plt.Figure:
    """Distribution of scalar curvature (unit total volume) over each class's slice."""
    shapes = list(dict.fromkeys(curvature[key]))
    fig, ax = plt.subplots(figsize=(max(5.5, 0.45 * len(shapes)), 4))
    regular = curvature.dropna(subset=["scalar_curvature"])  # degenerate points are NaN
    data = [regular.loc[regular[key] == s, "scalar_curvature"].to_numpy() for s in shapes]
    ax.violinplot(data, showmedians=True)
    ax.set_xticks(np.arange(1, len(shapes) + 1), shapes, rotation=0 if len(shapes) < 8 else 60)
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_ylabel("scalar curvature (unit total volume)")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3, axis="y", lw=0.5)
    return fig


def bound_scaling(errors: pd.DataFrame, table: pd.DataFrame) -> plt.Figure:
    """Hausdorff error against n per toy (runs and means) with the fitted Genovese envelopes."""
    from .bounds import RATES

    toys = sorted(errors["toy"].unique())
    cols = min(4, len(toys))
    rows = -(-len(toys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.6 * rows), squeeze=False)
    for ax in axes.ravel()[len(toys) :]:
        ax.set_visible(False)
    for ax, toy in zip(axes.ravel(), toys):
        g = errors[errors["toy"] == toy]
        fit = table[table["toy"] == toy].iloc[0]
        n = np.array(sorted(g["n"].unique()), dtype=float)
        ax.plot(g["n"], g["error"], ".", color="0.6", ms=4, label="runs")
        ax.plot(n, g.groupby("n")["error"].mean().to_numpy(), "o-", color="C0", label=f"mean (slope {fit.slope:.2f})")
        ax.plot(
            n,
            fit.lower_constant * RATES["genovese_lower"](n, fit.d),
            "--",
            color="C2",
            label="lower envelope n^(-2/(2+d))",
        )
        ax.plot(
            n,
            fit.upper_constant * RATES["genovese_upper"](n, fit.d),
            "--",
            color="C3",
            label="upper envelope (log n/n)^(2/(2+d))",
        )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("samples n")
        ax.set_title(f"{toy} (d = {int(fit.d)})", fontsize=10)
        ax.grid(alpha=0.3, which="both", lw=0.5)
    axes[0][0].set_ylabel("one-sided Hausdorff error")
    axes[0][0].legend(fontsize=6)
    return fig


def vae_layers(table: pd.DataFrame) -> plt.Figure:
    """Layer-evolution curves: curvature and reach of each layer's map, one line per checkpoint."""
    mean = (
        table.groupby(["iteration", "depth", "layer"], sort=True)[
            ["abs_curvature_median", "median_reach_unit_volume", "volume"]
        ]
        .mean()
        .reset_index()
    )
    layers = mean.drop_duplicates("depth").sort_values("depth")["layer"].tolist()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    panels = (
        ("abs_curvature_median", "median |scalar curvature| (unit volume)", True),
        ("median_reach_unit_volume", "median reach (unit volume)", True),
        ("volume", "total volume (raw)", True),
    )
    colours = plt.cm.viridis(np.linspace(0, 0.9, mean["iteration"].nunique()))
    for ax, (column, label, log) in zip(axes, panels):
        for colour, (it, part) in zip(colours, mean.groupby("iteration", sort=True)):
            ax.plot(part["depth"], part[column], "o-", color=colour, label=f"iteration {it}")
        ax.set_xticks(range(len(layers)), layers, rotation=40, ha="right")
        ax.set_ylabel(label)
        if log:
            ax.set_yscale("log")
    axes[0].legend(fontsize=7)
    fig.suptitle("beta-VAE: geometry of each layer's map of the dSprites-style slices (mean over shapes)")
    fig.tight_layout()
    return fig
