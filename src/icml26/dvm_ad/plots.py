"""Figures of the dvm_ad pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .tables import MAIN


def average_rank(board: pd.DataFrame) -> plt.Figure:
    """Average rank per method (lower is better), mean AUROC written beside each bar."""
    board = board.sort_values("average_rank", ascending=False)
    fig, ax = plt.subplots(figsize=(6, 0.32 * len(board) + 1.2))
    colors = ["C3" if m == MAIN else "C0" for m in board["method"]]
    ax.barh(board["method"], board["average_rank"], color=colors)
    for y, (rank, auroc) in enumerate(zip(board["average_rank"], board["mean_auroc"])):
        ax.text(rank + 0.1, y, f"{rank:.2f}  (AUROC {100 * auroc:.1f} %)", va="center", fontsize=7)
    ax.set_xlabel("average rank over datasets (1 = best)")
    ax.set_xlim(0, board["average_rank"].max() * 1.45)
    ax.set_title(f"ADBench tabular: {int(board['datasets'].max())} datasets")
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
