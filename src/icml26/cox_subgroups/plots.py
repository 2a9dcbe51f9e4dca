"""Figures of the cox_subgroups pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import EPE_MARGIN, F1_MIN, PAPER_COUNTER_F1, PAPER_NONLINEAR

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "synthetic": ("EPE_MARGIN", "F1_MIN", "PAPER_COUNTER_F1", "PAPER_NONLINEAR"),
    "pareto": "the claim is membership of the EPE-vs-rejection Pareto front, a comparison between methods (every "
    "method's point drawn with its spread over seeds); no fixed threshold",
}

LABELS = {
    "base": "Base",
    "random": "Random",
    "survival_tree": "Survival tree",
    "cox_tree": "Cox tree",
    "prim": "PRIM",
    "dg": "DDGroup",
    "dg_ci": "DG-CI",
    "dg_pl": "DG-PL",
    "dg_ne": "DG-NE",
}


def _by_method(summary: pd.DataFrame, dataset: str) -> tuple[pd.DataFrame, list[str], np.ndarray]:
    """One dataset's rows indexed by method in LABELS order, that order, and the bar positions."""
    g = summary[summary["dataset"] == dataset].set_index("method")
    order = [m for m in LABELS if m in g.index]
    return g.reindex(order), order, np.arange(len(order))


def synthetic(summary: pd.DataFrame) -> plt.Figure:
    """Synth-Nonlinear: mean F1 and test EPE (+- one sd over seeds) per method, paper values as crosses, and the
    first claim's bars (DDGroup's F1 >= F1_MIN, its EPE at least EPE_MARGIN below Base's). Synth-Counter: the
    paper's best-of-candidates F1 (the claim) beside the min-training-EPE selection's F1."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    g, order, x = _by_method(summary, "nonlinear")
    for ax, metric in zip(axes[:2], ("f1", "test_epe")):
        ax.bar(x, g[f"{metric}_mean"], yerr=g[f"{metric}_std"], color="C0", alpha=0.8, capsize=2, label="measured")
        k = 0 if metric == "f1" else 1
        ax.plot(x, [PAPER_NONLINEAR.get(m, (np.nan,) * 3)[k] for m in order], "rx", ms=8, label="paper")
        if metric == "f1":
            ax.axhline(F1_MIN, color="k", ls="--", lw=0.8, label=f"claim: DDGroup F1 >= {F1_MIN}")
            ax.set_ylim(0, 1.4)
            ax.legend(fontsize=8, loc="upper left", ncol=2)
        elif "base" in order:
            ax.axhline(
                g.loc["base", "test_epe_mean"] - EPE_MARGIN,
                color="k",
                ls="--",
                lw=0.8,
                label=f"claim: DDGroup below Base - {EPE_MARGIN}",
            )
            ax.set_ylim(0, 1.0)
            ax.legend(fontsize=8, loc="upper right")
        ax.set_ylabel("volume F1" if metric == "f1" else "test EPE (nats)")
        ax.set_xticks(x, [LABELS[m] for m in order], rotation=45, ha="right")
        ax.set_title("Synth-Nonlinear: " + ("volume F1" if metric == "f1" else "test EPE"), fontsize=10)
    ax = axes[2]
    g, order, x = _by_method(summary, "counter")
    ax.bar(
        x - 0.2,
        g["best_f1_mean"],
        0.4,
        yerr=g["best_f1_std"],
        color="C0",
        alpha=0.8,
        capsize=2,
        label="best of candidates (paper's selection; the claim)",
    )
    ax.bar(
        x + 0.2,
        g["f1_mean"],
        0.4,
        yerr=g["f1_std"],
        color="C7",
        alpha=0.8,
        capsize=2,
        label="min training EPE (no planted box)",
    )
    ax.plot(x - 0.2, [PAPER_COUNTER_F1.get(m, np.nan) for m in order], "rx", ms=8, label="paper")
    ax.set_ylim(0, 1.3)
    ax.set_ylabel("volume F1")
    ax.set_xticks(x, [LABELS[m] for m in order], rotation=45, ha="right")
    ax.set_title(f"Synth-Counter: volume F1 ({int(g['seeds'].max())} replicates)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    for ax in axes:
        ax.grid(alpha=0.3, axis="y", lw=0.5)
    return fig


def pareto(real: pd.DataFrame) -> plt.Figure:
    """Mean test EPE against mean rejected fraction per method and real dataset; the claim is that DDGroup (star)
    lies on the Pareto front (lower EPE at no lower rejection), drawn as a grey line through its filled members."""
    datasets = sorted(real["dataset"].unique())
    fig, axes = plt.subplots(1, len(datasets), figsize=(3.6 * len(datasets), 3.6), squeeze=False)
    for ax, dataset in zip(axes[0], datasets):
        g = real[real["dataset"] == dataset]
        front = g[g["pareto"].astype(bool)].sort_values("rejection_mean")
        ax.plot(
            front["rejection_mean"], front["test_epe_mean"], color="0.6", lw=1, zorder=0, label="Pareto front (filled)"
        )
        for i, r in enumerate(g.itertuples()):
            ax.scatter(
                r.rejection_mean,
                r.test_epe_mean,
                s=60 if r.method == "dg" else 30,
                marker="*" if r.method == "dg" else "o",
                color=f"C{list(LABELS).index(r.method)}",
                facecolors=None if r.pareto else "none",
                label=LABELS[r.method],
            )
        ax.set_xlabel("rejected fraction (test)")
        ax.set_ylabel("test EPE")
        ax.set_title(dataset, fontsize=10)
        ax.grid(alpha=0.3, lw=0.5)
    axes[0][0].legend(fontsize=6)
    return fig


def kaplan_meier(curves: pd.DataFrame, tests: pd.DataFrame) -> plt.Figure:
    """Per real dataset and case: held-out Kaplan-Meier curves of the selected subgroup and its complement with
    95 % bands, sizes in the legend, the log-rank p-value in the title."""
    names = list(tests["dataset"])
    columns = min(4, len(names))
    rows = -(-len(names) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.8 * columns, 3.6 * rows), squeeze=False, layout="constrained")
    for ax, test in zip(axes.flat, tests.itertuples()):
        for i, group in enumerate(("subgroup", "complement")):
            curve = curves[(curves["dataset"] == test.dataset) & (curves["group"] == group)]
            if curve.empty:
                continue
            n, events = getattr(test, f"n_{group}"), getattr(test, f"events_{group}")
            ax.step(curve["time"], curve["survival"], where="post", color=f"C{i}", label=f"{group} ({events}/{n})")
            ax.fill_between(
                curve["time"], curve["lower_95"], curve["upper_95"], step="post", color=f"C{i}", alpha=0.2, lw=0
            )
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(f"time ({test.time_unit})")
        ax.set_ylabel("survival (held-out rows)")
        ax.set_title(f"{test.dataset}\n{LABELS[test.method]} subgroup, log-rank p = {test.logrank_p:.2g}", fontsize=9)
        ax.legend(fontsize=7, title="events/rows", title_fontsize=7)
        ax.grid(alpha=0.3, lw=0.5)
    for ax in list(axes.flat)[len(names) :]:
        ax.set_visible(False)
    return fig
