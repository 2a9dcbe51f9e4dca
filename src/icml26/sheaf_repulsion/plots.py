"""Figures of the sheaf_repulsion pipeline, drawn from the result tables only; each shows what its claim
compares against (chance IoU, the validity thresholds, the minimal circuit's accuracy less the tolerance)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import pair_ratios, runs

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "iou": "the claim compares OASR's pairwise IoU with independent seeds' and with the pairs' chance IoU: each "
    "panel titles the mean IoU and chance IoU, the pairs' mean ratio of the two that the claim judges and the "
    "config's limit on it (`criteria`: near_chance, high), "
    "and crosses the runs whose circuit fails the validity `criteria` (the verdict takes the same keys)",
    "discovery": "the runs' curves against the config's validity `criteria` (faithful accuracy, sparse density), the "
    "full model's logit difference and the step the completeness term starts; the late change the verdict reports "
    "is read off the same table",
}

METHODS = ("oasr", "independent", "eap", "acdc")
LABEL = {"oasr": "OASR", "independent": "independent seeds", "eap": "attribution patching", "acdc": "ACDC-lite"}


def _matrix(overlap: pd.DataFrame, method: str) -> np.ndarray:
    matrix = np.eye(runs(overlap, method))
    for row in overlap[overlap["method"] == method].itertuples():
        matrix[row.run_a, row.run_b] = matrix[row.run_b, row.run_a] = row.iou
    return matrix


def iou_heatmaps(overlap: pd.DataFrame, circuits: pd.DataFrame, criteria: dict) -> plt.Figure:
    """Pairwise IoU of the circuits of OASR and of independent seeds. Each panel's title carries what the claim
    judges: the mean IoU and mean chance IoU over its pairs, the mean over pairs of each pair's IoU over its chance IoU
    (the claim's statistic, ``verdict.pair_ratios``), and the limit the claim sets on it (OASR at most
    ``near_chance`` x chance, independent seeds at least ``high`` x chance); the runs whose
    circuit is not valid (faithful, sparse and complete: the circuits table's ``valid``) are marked with a cross."""
    limits = {"oasr": ("<=", criteria["near_chance"]), "independent": (">=", criteria["high"])}
    methods = [m for m in ("oasr", "independent") if m in set(overlap["method"])]
    fig, axes = plt.subplots(1, len(methods), figsize=(4.6 * len(methods), 4.6), squeeze=False)
    for ax, method in zip(axes[0], methods):
        matrix = _matrix(overlap, method)
        image = ax.imshow(matrix, vmin=0, vmax=1, cmap="viridis")
        for (i, j), value in np.ndenumerate(matrix):
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7, color="w" if value < 0.6 else "k")
        rows = overlap[overlap["method"] == method]
        mean, chance = rows["iou"].mean(), rows["chance_iou"].mean()
        ratio = pair_ratios(overlap, method)["ratio"].mean()
        own = circuits[circuits["method"] == method].set_index("run")
        ok = own["valid"].reindex(range(len(matrix)), fill_value=False)
        labels = [f"{run}" if ok[run] else f"{run} \u2717" for run in range(len(matrix))]
        ax.set(xlabel="run", ylabel="run", xticks=range(len(matrix)), yticks=range(len(matrix)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_yticklabels(labels, fontsize=7)
        side, limit = limits[method]
        ax.set_title(
            f"{LABEL[method]}: {int(ok.sum())}/{len(matrix)} valid (\u2717: not)\nmean IoU {mean:.3f}, chance "
            f"{chance:.3f}\nIoU / chance over pairs {ratio:.2f}x (claim: {side} {limit:g}x)",
            fontsize=8,
        )
        ax.grid(False)
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="IoU")
    return fig


def iou_by_circuits(overlap: pd.DataFrame) -> plt.Figure:
    """Mean pairwise IoU among the first k circuits, per method, beside the same pairs' mean chance IoU."""
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for color, method in zip(("C3", "C0"), ("oasr", "independent")):
        rows = overlap[overlap["method"] == method]
        ks = range(2, runs(overlap, method) + 1)
        among = [rows[(rows["run_a"] < k) & (rows["run_b"] < k)] for k in ks]
        ax.plot(list(ks), [r["iou"].mean() for r in among], "o-", color=color, label=LABEL[method])
        ax.plot(list(ks), [r["chance_iou"].mean() for r in among], ":", color=color, label=f"{LABEL[method]}: chance")
    ax.set(
        xlabel="number of circuits k",
        ylabel="mean pairwise IoU",
        ylim=(0, 1),
        title="Overlap among the first k circuits",
    )
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def circuits(table: pd.DataFrame, criteria: dict) -> plt.Figure:
    """Each circuit's density against its accuracy alone, per method, with the validity thresholds."""
    fig, ax = plt.subplots(figsize=(5, 3.8))
    for method, marker in zip(METHODS, "os^D"):
        rows = table[table["method"] == method]
        if not rows.empty:
            ax.scatter(rows["density"], rows["accuracy"], marker=marker, label=LABEL[method], alpha=0.8)
    ax.axhline(
        criteria["faithful"], color="k", lw=0.8, ls="--", label=f"faithful: accuracy >= {criteria['faithful']:g}"
    )
    ax.axvline(criteria["sparse"], color="k", lw=0.8, ls=":", label=f"sparse: density <= {criteria['sparse']:g}")
    ax.axhline(0.5, color="0.6", lw=0.8, label="chance")
    ax.set(
        xlabel="density (share of edges kept)",
        ylabel="IO-over-S accuracy of the circuit alone",
        ylim=(0, 1.02),
        title="Circuits found by each method",
    )
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def minimal(table: pd.DataFrame, criteria: dict) -> plt.Figure:
    """The minimal circuit's accuracy, and the best accuracy of a circuit of its size without each edge."""
    fig, ax = plt.subplots(figsize=(5, 3.4))
    if table.empty:
        ax.text(0.5, 0.5, "no closed circuit of the searched size", ha="center", va="center", transform=ax.transAxes)
    else:
        accuracy = float(table["accuracy"].iloc[0])
        ax.bar(range(len(table)), table["best_without"], color="C0", label="best circuit without the edge")
        ax.axhline(accuracy, color="C3", label=f"minimal circuit ({accuracy:.3f})")
        ax.axhline(
            accuracy - criteria["tolerance"],
            color="C3",
            ls="--",
            lw=0.8,
            label=f"dispensable above ({accuracy - criteria['tolerance']:.3f})",
        )
        ax.set_xticks(range(len(table)), table["edge"], rotation=20, fontsize=7)
    ax.axhline(criteria["faithful"], color="k", lw=0.8, ls=":", label=f"faithful ({criteria['faithful']:g})")
    ax.axhline(0.5, color="0.6", lw=0.8, label="chance")
    ax.set(
        ylabel="IO-over-S accuracy",
        ylim=(0, 1.25),
        yticks=np.linspace(0, 1, 6),
        title="Indispensability of the minimal circuit's edges",
    )
    ax.legend(fontsize=7, loc="upper right", ncol=2)
    fig.tight_layout()
    return fig


def discovery(curve: pd.DataFrame, criteria: dict, complete_from: float) -> plt.Figure:
    """Each run's circuit along its discovery (accuracy alone, faithfulness, density), per method, with the
    validity thresholds and the step the completeness term starts: flat ends mean the runs converged."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), sharex=True)
    end = int(curve["step"].max())
    for color, method in zip(("C3", "C0"), ("oasr", "independent")):
        for run, rows in curve[curve["method"] == method].groupby("run"):
            label = LABEL[method] if run == 0 else None
            for ax, column in zip(axes, ("accuracy", "faithfulness", "density")):
                ax.plot(rows["step"], rows[column], color=color, alpha=0.8, lw=1, label=label)
    axes[0].axhline(criteria["faithful"], color="k", lw=0.8, ls="--", label=f"faithful ({criteria['faithful']:g})")
    axes[0].axhline(0.5, color="0.6", lw=0.8, label="chance")
    axes[1].axhline(1.0, color="0.6", lw=0.8, label="the full model")
    axes[2].axhline(criteria["sparse"], color="k", lw=0.8, ls=":", label=f"sparse ({criteria['sparse']:g})")
    titles = ("IO-over-S accuracy alone", "logit difference / the model's", "density (share of edges)")
    for ax, title in zip(axes, titles):
        ax.axvline(complete_from * end, color="0.4", lw=0.8, ls="-.", label="completeness term on")
        ax.set(xlabel="discovery step", title=title)
        ax.legend(fontsize=6)
    axes[0].set_ylim(0, 1.02)
    fig.tight_layout()
    return fig
