"""Figures of the dvm_ad pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .tables import MAIN
from .verdict import PAPER_AVERAGE_RANK, PAPER_BASELINES, PAPER_EMBEDDING_AUROC, PAPER_EMBEDDING_RANK

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "average_rank": ("PAPER_AVERAGE_RANK", "PAPER_BASELINES"),
    "ablation": "the claim compares keep modes and reference points with each other (every cell drawn); no fixed "
    "threshold",
    "embedding": ("PAPER_EMBEDDING_RANK", "PAPER_EMBEDDING_AUROC"),
    "anomaly_types": "the claim compares DVM-AD's rank with every baseline's on each type (every method drawn, the "
    "best baseline's rank marked); the paper gives no rank per type to draw",
}


def average_rank(board: pd.DataFrame, per_seed: pd.DataFrame) -> plt.Figure:
    """Average rank per method (lower is better) with each seed's rank as a dot and their range as a line;
    mean AUROC beside each bar, and on how many datasets where a method failed on some (no AUROC there, as ADBench
    records it); the paper's DVM-AD rank marked (it ranks among more baselines)."""

    board = board.sort_values("average_rank", ascending=False).reset_index(drop=True)
    every = int(board["datasets"].max())
    fig, ax = plt.subplots(figsize=(6.4, 0.34 * len(board) + 1.4))
    colors = ["C3" if m == MAIN else "C0" for m in board["method"]]
    ax.barh(board["method"], board["average_rank"], color=colors, alpha=0.75)
    seeds = per_seed["seed"].nunique()
    for y, row in board.iterrows():
        ranks = per_seed.loc[per_seed["method"] == row.method, "average_rank"]
        ax.plot([ranks.min(), ranks.max()], [y, y], color="k", lw=1)
        ax.plot(ranks, [y] * len(ranks), "k.", ms=4, label=f"each seed (n = {seeds})" if y == 0 else None)
        ax.text(
            1.0,
            y,
            f"{row.average_rank:.2f} (AUROC {100 * row.mean_auroc:.1f} %"
            + (f"; on {row.datasets} of {every})" if row.datasets < every else ")"),
            va="center",
            ha="right",
            fontsize=7,
            transform=ax.get_yaxis_transform(),
        )
    main_y = int(board.index[board["method"] == MAIN][0])
    ax.plot(
        PAPER_AVERAGE_RANK,
        main_y,
        marker="*",
        color="C1",
        ms=12,
        ls="none",
        zorder=5,
        label=f"paper: DVM-AD {PAPER_AVERAGE_RANK} (among {PAPER_BASELINES + 1} methods)",
    )
    ax.set_xlabel("average rank over datasets (1 = best)")
    ax.set_xlim(0, max(board["average_rank"].max(), per_seed["average_rank"].max(), PAPER_AVERAGE_RANK) * 1.6)
    ax.set_title(f"ADBench tabular: {every} datasets")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12 - 1.2 / fig.get_figheight()), ncol=2)
    fig.tight_layout()
    return fig


def ablation(table: pd.DataFrame) -> plt.Figure:
    """Mean AUROC of every keep mode x reference point."""
    wide = table.pivot(index="keep", columns="reference", values="mean_auroc")
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    image = ax.imshow(100 * wide.values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(wide.shape[1]), wide.columns)
    ax.set_yticks(range(wide.shape[0]), wide.index)
    ax.grid(False)
    for (i, j), value in np.ndenumerate(100 * wide.values):
        ax.text(j, i, f"{value:.1f}", ha="center", va="center", color="w", fontsize=8)
    ax.set_xlabel("reference point")
    ax.set_ylabel("kept directions")
    fig.colorbar(image, ax=ax, label="mean AUROC (%)")
    return fig


def anomaly_types(board: pd.DataFrame) -> plt.Figure:
    """One panel per anomaly type: every method's average rank (lower is better), DVM-AD in red, the best
    baseline's rank as a dashed line (DVM-AD is top-ranked on a type when its bar ends left of it)."""
    if board.empty:
        return _not_run("anomaly types not run at this scale\n(type_datasets is empty in this config)")
    kinds = list(dict.fromkeys(board["type"]))
    methods = board[board["type"] == kinds[0]].sort_values("average_rank", ascending=False)["method"].tolist()
    fig, axes = plt.subplots(1, len(kinds), figsize=(2.6 * len(kinds) + 1.2, 0.3 * len(methods) + 1.4), sharey=True,
                             squeeze=False)  # fmt: skip
    for ax, kind in zip(axes[0], kinds, strict=True):
        rows = board[board["type"] == kind].set_index("method").reindex(methods)
        ax.barh(methods, rows["average_rank"], color=["C3" if m == MAIN else "C0" for m in methods], alpha=0.75)
        best = rows.drop(index=MAIN)["average_rank"].min()
        ax.axvline(best, color="k", ls="--", lw=1, label="best baseline")
        ax.set_title(f"{kind} ({int(rows['datasets'].max())} datasets)", fontsize=9)
        ax.set_xlabel("average rank (1 = best)")
    axes[0][0].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def _not_run(text: str) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(5, 1.6))
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center")
    return fig


def embedding(board: pd.DataFrame) -> plt.Figure:
    """Average rank per method over the embedding benchmarks (lower is better), mean AUROC beside each bar, the
    paper's DVM-AD rank and AUROC marked (it ranks among more baselines)."""
    if board.empty:
        return _not_run("no embedding benchmark run at this scale\n(embedding_benchmarks is empty in this config)")
    board = board.sort_values("average_rank", ascending=False).reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(6.4, 0.34 * len(board) + 1.4))
    ax.barh(board["method"], board["average_rank"], color=["C3" if m == MAIN else "C0" for m in board["method"]],
            alpha=0.75)  # fmt: skip
    for y, row in board.iterrows():
        ax.text(1.0, y, f"{row.average_rank:.2f} (AUROC {100 * row.mean_auroc:.1f} %)", va="center", ha="right",
                fontsize=7, transform=ax.get_yaxis_transform())  # fmt: skip
    main_y = int(board.index[board["method"] == MAIN][0])
    ax.plot(PAPER_EMBEDDING_RANK, main_y, marker="*", color="C1", ms=12, ls="none", zorder=5,
            label=f"paper: DVM-AD rank {PAPER_EMBEDDING_RANK}, AUROC {PAPER_EMBEDDING_AUROC} %")  # fmt: skip
    ax.set_xlabel("average rank over the embedding benchmarks (1 = best)")
    ax.set_xlim(0, max(board["average_rank"].max(), PAPER_EMBEDDING_RANK) * 1.6)
    ax.set_title(f"ADBench CV / NLP embeddings: {int(board['datasets'].max())} benchmarks")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig
