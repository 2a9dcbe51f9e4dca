"""The paper's figures: accuracy per task and decoder, and how well each selector's retained set covers the
tokens the decoder then decodes (the leftmost-K, random-K and oracle references beside Δ). Throughput against
batch size is a measured table (``timing/throughput.csv``), not drawn: the figure job draws from deterministic
tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

SELECTOR_COLOURS = {
    "delta": "tab:red",
    "i0": "tab:orange",
    "i1": "tab:purple",
    "minus_delta": "tab:brown",
    "leftmost": "0.3",
    "random": "0.6",
    "oracle": "k",
}


def quality(summary: pd.DataFrame) -> plt.Figure:
    """Accuracy per task (groups) and decoder (bars)."""
    tasks, decoders = sorted(summary["task"].unique()), list(dict.fromkeys(summary["decoder"]))
    fig, axis = plt.subplots(figsize=(8, 3.8))
    width = 0.8 / len(decoders)
    for i, decoder in enumerate(decoders):
        rows = summary[summary["decoder"] == decoder].set_index("task").reindex(tasks)
        axis.bar(np.arange(len(tasks)) + i * width, rows["accuracy"], width, label=decoder)
    axis.set_xticks(np.arange(len(tasks)) + 0.4 - width / 2, tasks)
    axis.set_ylabel("accuracy (exact or valid)")
    axis.set_ylim(0, 1.05)
    axis.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    return fig


def recall(table: pd.DataFrame) -> plt.Figure:
    """Per alpha: each selector's recall of the decoded tokens within its K, mean over tasks."""
    alphas = sorted(table["alpha"].unique())
    fig, axes = plt.subplots(1, len(alphas), figsize=(4 * len(alphas), 3.6), squeeze=False, sharey=True)
    for axis, alpha in zip(axes[0], alphas):
        mean = table[table["alpha"] == alpha].groupby("selector")["recall"].mean()
        selectors = [s for s in SELECTOR_COLOURS if s in mean.index]
        axis.bar(range(len(selectors)), mean[selectors], color=[SELECTOR_COLOURS[s] for s in selectors])
        axis.set_xticks(range(len(selectors)), selectors, rotation=35, ha="right", fontsize=8)
        axis.set_title(f"alpha = {alpha:g}", fontsize=9)
        axis.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("recall of decoded tokens in the retained set")
    fig.tight_layout()
    return fig
