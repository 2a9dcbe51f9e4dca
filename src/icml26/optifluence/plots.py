"""Figures of the optifluence pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .canaries import BASE_TYPES as TYPE_ORDER
from .verdict import CONVERGED, PAPER_TPR, convergence

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "roc": ("PAPER_TPR",),
    "transfer": ("PAPER_TPR",),
    "convergence": ("CONVERGED",),
}

STYLE = {
    "random_in": ("C7", ":"),
    "mislabeled": ("C1", "--"),
    "ood": ("C4", "--"),
    "ifinit": ("C2", "-."),
    "unrolled_random": ("C0", "-"),
    "optifluence": ("C3", "-"),
}


def _types(table: pd.DataFrame) -> list[str]:
    return [t for t in TYPE_ORDER if t in set(table["type"])]


def roc(points: pd.DataFrame, tpr: pd.DataFrame, target: str, fpr: float) -> plt.Figure:
    """Log-log ROC of LiRA per canary type on the target architecture, chance diagonal and the operating
    FPR marked, with the paper's CIFAR-10 OptiFluence TPR for reference."""
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    grid = np.logspace(-4, 0, 50)
    ax.plot(grid, grid, color="0.6", lw=0.8, label="chance")
    for kind in _types(points):
        rows = points[(points["architecture"] == target) & (points["type"] == kind)]
        at = tpr[(tpr["architecture"] == target) & (tpr["type"] == kind)]["tpr"].iloc[0]
        color, ls = STYLE[kind]
        ax.plot(rows["fpr"], np.maximum(rows["tpr"], 1e-4), color=color, ls=ls, label=f"{kind} ({at:.3f})")
    ax.axvline(fpr, color="k", lw=0.8, ls=":")
    ax.plot([fpr], [PAPER_TPR], "k*", ms=9, label=f"paper: OptiFluence, CIFAR-10 ({PAPER_TPR:.3f})")
    ax.set(
        xscale="log",
        yscale="log",
        xlim=(1e-4, 1),
        ylim=(1e-4, 1.05),
        xlabel="false positive rate",
        ylabel="true positive rate",
        title=f"LiRA on {target} (TPR at {fpr:.1%} FPR in brackets)",
    )
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def transfer(tpr: pd.DataFrame, accuracy: pd.DataFrame, architectures: list[str], fpr: float) -> plt.Figure:
    """TPR at the operating FPR with 95 % bootstrap intervals (over models and canaries), per canary type and
    architecture (the first is the one the canaries were optimised on)."""
    kinds = _types(tpr)
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    width = 0.8 / len(architectures)
    acc = accuracy.set_index("architecture")["test_accuracy"]
    for i, arch in enumerate(architectures):
        rows = tpr[tpr["architecture"] == arch].set_index("type").reindex(kinds)
        err = np.vstack([rows["tpr"] - rows["tpr_low"], rows["tpr_high"] - rows["tpr"]])
        ax.bar(
            np.arange(len(kinds)) + i * width,
            rows["tpr"],
            width,
            yerr=err,
            capsize=2,
            color=f"C{i}",
            label=f"{arch}{' (optimised on)' if i == 0 else ''}, test acc. {acc[arch]:.2f}",
        )
    ax.axhline(PAPER_TPR, color="k", ls="--", lw=1, label="paper: OptiFluence on CIFAR-10")
    ax.set_xticks(np.arange(len(kinds)) + 0.4 - width / 2, kinds, fontsize=8)
    ax.set(
        ylabel=f"TPR at {fpr:.1%} FPR",
        ylim=(0, 1.3),
        yticks=np.linspace(0, 1, 6),
        title="canaries across architectures",
    )
    ax.legend(fontsize=7, loc="upper right", ncol=2)
    fig.tight_layout()
    return fig


def ablation(table: pd.DataFrame, traces: pd.DataFrame, fpr: float) -> plt.Figure:
    """Left: TPR at the operating FPR against the truncation length k. Right: the optimisation objective
    (mean phi_IN - phi_OUT over the set) per outer step for every optimised type."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    err = np.vstack([table["tpr"] - table["tpr_low"], table["tpr_high"] - table["tpr"]])
    left.errorbar(table["truncation"], table["tpr"], yerr=err, fmt="o-", color="C3", capsize=3)
    left.set(
        xscale="log",
        xlabel="truncation length k (unrolled training steps)",
        ylabel=f"TPR at {fpr:.1%} FPR",
        ylim=(0, 1.05),
        title="truncated backpropagation",
    )
    left.set_xticks(table["truncation"], [str(k) for k in table["truncation"]])
    left.minorticks_off()
    for (kind, k), rows in traces.groupby(["type", "truncation"], sort=False):
        right.plot(rows["step"], rows["gap_mean"], label=f"{kind} (k = {k})")
    right.set(xlabel="outer step", ylabel="mean phi_IN - phi_OUT", title="canary objective")
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig


def convergence_curve(traces: pd.DataFrame) -> plt.Figure:
    """The objective against outer steps per optimised type; for ``optifluence`` the two windows the convergence
    premise compares, their means, and the relative change against the tolerance :data:`CONVERGED`."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    spare = iter(["C5", "C8", "C9", "C6", "C1"])  # the ablation's types, in colours no base type uses
    for (kind, k), rows in traces.groupby(["type", "truncation"], sort=False):
        color = STYLE[kind][0] if kind in STYLE else next(spare, None)
        ax.plot(
            rows["step"],
            rows["gap_mean"],
            color=color,
            lw=1.4 if kind == "optifluence" else 0.8,
            label=f"{kind} (k = {k})",
        )
    own = traces[traces["type"] == "optifluence"].sort_values("step")
    m = convergence(own)
    steps = own["step"].to_numpy()
    for first, last, mean, shade in (
        (steps[-2 * m["window"]], steps[-m["window"] - 1], m["quarter_before"], "0.9"),
        (steps[-m["window"]], steps[-1], m["last_quarter"], "0.8"),
    ):
        ax.axvspan(first - 0.5, last + 0.5, color=shade, zorder=0)
        ax.hlines(mean, first - 0.5, last + 0.5, color="k", lw=1.2)
    met = "met" if m["relative_change"] < CONVERGED else "not met"
    ax.set(
        xlabel="outer step",
        ylabel="mean phi_IN - phi_OUT",
        title=f"optifluence: last quarter {m['relative_change']:+.1%} over the one before "
        f"(converged below {CONVERGED:.0%}: {met})",
    )
    ax.title.set_fontsize(9)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig
