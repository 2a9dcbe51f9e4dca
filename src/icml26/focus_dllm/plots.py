"""The paper's figures: accuracy per task and decoder (each seed a dot), how well each selector's retained set
covers the tokens the decoder then decodes (the leftmost-K, random-K and oracle references beside Δ), and the
measured throughput against batch size (drawn by the timing figure job from ``timing/throughput.csv``, with the
machine it was measured on)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..common.intervals import over_seeds
from .verdict import AUROC_CHANCE, PAPER_SPEEDUP, QUALITY_DROP, RHO_NONE, SOLVED

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "quality": ("QUALITY_DROP", "SOLVED"),
    "recall": ("AUROC_CHANCE", "RHO_NONE"),
    "throughput": ("PAPER_SPEEDUP",),
    "depth": "a measured trend beside the throughput claim, not its evidence: FOCUS against dense as depth grows, "
    "with the line where FOCUS breaks even",
}

SELECTOR_COLOURS = {
    "delta": "tab:red",
    "i0": "tab:orange",
    "i1": "tab:purple",
    "minus_delta": "tab:brown",
    "leftmost": "0.3",
    "random": "0.6",
    "oracle": "k",
}


def quality(summary: pd.DataFrame, dense: str) -> plt.Figure:
    """Accuracy per task (left: groups) and over the tasks the claim judges (right: those ``dense`` solves, mean
    accuracy at least ``SOLVED`` over the seeds) per decoder (bars: the mean over seeds; dots: each seed), with the
    quality claim's band: within ``QUALITY_DROP`` of ``dense``. Tasks dense decoding does not solve are shaded on
    the left: reported, not judged."""
    tasks, decoders = sorted(summary["task"].unique()), list(dict.fromkeys(summary["decoder"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), width_ratios=(3, 1), sharey=True)
    width = 0.8 / len(decoders)
    solved_by_dense = summary[summary["decoder"] == dense].groupby("task")["accuracy"].mean()
    solved = sorted(solved_by_dense[solved_by_dense >= SOLVED].index)
    judged = summary[summary["task"].isin(solved)]
    overall = judged.groupby(["decoder", "seed"])["accuracy"].mean()  # every task has the same test count
    for position, task in enumerate(tasks):
        if task not in solved:
            left.axvspan(position - width, position + 0.8, color="0.85", zorder=0)
    for i, decoder in enumerate(decoders):
        rows = summary[summary["decoder"] == decoder]
        x = np.arange(len(tasks)) + i * width
        colour = left.bar(x, rows.groupby("task")["accuracy"].mean().reindex(tasks), width, label=decoder)[0]
        left.scatter(rows["task"].map(dict(zip(tasks, x))), rows["accuracy"], s=9, color="k", zorder=3)
        if len(overall):
            right.bar(i, overall[decoder].mean(), 0.8, color=colour.get_facecolor())
            right.scatter(np.full(len(overall[decoder]), i), overall[decoder], s=9, color="k", zorder=3)
    left.scatter([], [], s=9, color="k", label="one seed")
    left.fill_between([], [], color="0.85", label=f"not judged: dense < {SOLVED:g}")
    if len(overall):
        reference = overall[dense].mean()
        right.axhspan(
            reference - QUALITY_DROP, reference, color="tab:green", alpha=0.25, label=f"claim: within {QUALITY_DROP:g}"
        )
    right.set_xticks(range(len(decoders)), decoders, rotation=35, ha="right", fontsize=8)
    right.set_title(f"solved tasks: {', '.join(solved) or 'none'}\n(claim: against {dense})", fontsize=9)
    right.legend(fontsize=7, loc="lower right")
    left.set_xticks(np.arange(len(tasks)) + 0.4 - width / 2, tasks)
    left.set_ylabel("accuracy (exact or valid)")
    left.set_ylim(0, 1.15)
    left.legend(fontsize=7, ncol=4, loc="upper center")
    fig.tight_layout()
    return fig


def recall(table: pd.DataFrame, auroc: pd.Series, rho: pd.Series) -> plt.Figure:
    """Per alpha: each selector's recall of the decoded tokens within its K, mean over tasks; last panel: the
    importance claim's criterion, per seed AUROC of Δ (above 0.5) and Spearman's rho (above 0), with their t
    intervals over the seeds, on the tasks dense decoding solves (``verdict.importance_statistics``)."""
    alphas = sorted(table["alpha"].unique())
    fig, axes = plt.subplots(1, len(alphas) + 1, figsize=(4 * len(alphas) + 4, 3.6), squeeze=False)
    ax = axes[0][-1]  # the claim's criterion
    for i, (values, threshold, name) in enumerate(
        ((auroc, AUROC_CHANCE, "AUROC of Δ"), (rho, RHO_NONE, "Spearman rho"))
    ):
        ax.scatter(np.full(len(values), i), values, color="k", s=14, zorder=3, label="seeds" if i == 0 else None)
        if len(values):
            found = over_seeds(name, values, threshold, ">")
            low, high = max(found.low, -1.0), min(found.high, 1.0)  # an infinite bound (one seed) drawn to the axis
            ax.errorbar(
                i + 0.15,
                found.estimate,
                yerr=[[found.estimate - low], [high - found.estimate]],
                fmt="o",
                color="tab:blue",
                capsize=3,
                label="mean, 95 % t interval" if i == 0 else None,
            )
        ax.plot(
            [i - 0.3, i + 0.3],
            [threshold, threshold],
            color="tab:red",
            linestyle="--",
            label="claim: above" if i == 0 else None,
        )
    ax.set_xticks([0, 1], [f"AUROC of Δ\n(> {AUROC_CHANCE:g})", f"Spearman rho\n(> {RHO_NONE:g})"], fontsize=8)
    ax.set_ylim(-1.0, 1.0)
    ax.set_title("importance claim, solved tasks", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    for axis, alpha in zip(axes[0], alphas):
        mean = table[table["alpha"] == alpha].groupby("selector")["recall"].mean()
        selectors = [s for s in SELECTOR_COLOURS if s in mean.index]
        axis.bar(range(len(selectors)), mean[selectors], color=[SELECTOR_COLOURS[s] for s in selectors])
        axis.set_xticks(range(len(selectors)), selectors, rotation=35, ha="right", fontsize=8)
        axis.set_title(f"alpha = {alpha:g}", fontsize=9)
        axis.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("recall of decoded tokens in the retained set")
    for axis in axes[0][1:-1]:
        axis.sharey(axes[0][0])
    fig.tight_layout()
    return fig


def throughput(table: pd.DataFrame, dense: str, focus: str, machine: str) -> plt.Figure:
    """Generated tokens per second against batch size for every measured decoder (left) and each other decoder's
    ratio to ``dense`` (right, with the claim's line at 1, the point ``focus`` is judged at and the paper's best
    ratio), measured on ``machine``."""
    sizes = sorted(table["batch"].unique())
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    at = table.pivot(index="batch", columns="decoder", values="tokens_per_s")
    for decoder in dict.fromkeys(table["decoder"]):
        line = left.plot(at.index, at[decoder], marker="o", label=decoder)[0]
        if decoder != dense:
            ratio = at[decoder] / at[dense]
            right.plot(ratio.index, ratio, marker="o", color=line.get_color(), label=f"{decoder} / {dense}")
    judged = float(at.loc[sizes[-1], focus] / at.loc[sizes[-1], dense])
    right.scatter([sizes[-1]], [judged], s=160, facecolors="none", edgecolors="k", zorder=3, label=f"judged: {focus}")
    right.axhline(1.0, color="k", linestyle="--", linewidth=1, label="claim: above 1")
    right.axhline(PAPER_SPEEDUP, color="tab:green", linestyle=":", linewidth=1, label="paper: up to 3.52x")
    left.set_ylabel("generated tokens per second")
    right.set_ylabel("throughput ratio to dense")
    right.set_ylim(0, PAPER_SPEEDUP * 1.1)
    for axis in (left, right):
        axis.set_xscale("log", base=2)
        axis.set_xticks(sizes, [str(size) for size in sizes])
        axis.minorticks_off()
        axis.set_xlabel("batch size (sequences)")
        axis.legend(fontsize=7)
    fig.suptitle(f"measured on {machine}", fontsize=8)
    fig.tight_layout()
    return fig


def depth(table: pd.DataFrame, machine: str) -> plt.Figure:
    """FOCUS against dense as depth grows: the tokens/s ratio (left, with the break-even line at 1) and the real rows
    through the network per generated token (right), on random weights decoding one token per step (forced
    eviction, a line over depth) and on the trained model (its own depth, a marked point), measured on
    ``machine``."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    at = table.pivot_table(index=["setting", "layers"], columns="decoder", values=["tokens_per_s", "rows_per_token"])
    for setting, style in (("forced eviction", {"marker": "o"}), ("trained", {"marker": "*", "markersize": 12})):
        if setting not in at.index.get_level_values("setting"):
            continue
        part = at.loc[setting]
        ratio = part[("tokens_per_s", "focus")] / part[("tokens_per_s", "dense")]
        left.plot(part.index, ratio, color="tab:red", label=f"FOCUS / dense, {setting}", **style)
        for decoder, colour in (("dense", "0.3"), ("focus", "tab:red")):
            right.plot(
                part.index, part[("rows_per_token", decoder)], color=colour, label=f"{decoder}, {setting}", **style
            )
    left.axhline(1.0, color="k", linestyle="--", linewidth=1, label="break-even")
    left.set_ylabel("throughput ratio FOCUS / dense")
    right.set_ylabel("rows through the network per generated token")
    layers = sorted(table["layers"].unique())
    for axis in (left, right):
        axis.set_xticks(layers, [str(n) for n in layers])
        axis.set_xlabel("layers")
        axis.legend(fontsize=7)
    fig.suptitle(f"measured on {machine}", fontsize=8)
    fig.tight_layout()
    return fig
