"""The figures of prism_moe, each from one or two tables (matplotlib only; no torch)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "delta_m": "the claim compares PRISM with monolithic distillation (both bars with their 95 % intervals; zero is "
    "multi-task training from scratch); no fixed threshold",
    "conflict": "the claim's sign test is against a cosine of 0 (the line drawn); its interval over seeds is in the "
    "claim and tables/conflict.csv",
    "routing": "routing shares per condition; the claims' statistics (mutual information against its permutation "
    "null, the pathway swap) are in tables/specialisation.csv and the claims",
    "specialisation": "MI per seed and block against the permutation null's maximum (|), the claim's chance level; "
    "the claim's normalised-MI threshold SPECIALISED applies to the mean in tables/specialisation.csv",
}

LABELS = {  # every task's metric (tasks.METRICS); a figure draws those of the data set's tasks
    "miou": "mIoU (higher better)",
    "parts_miou": "human parts mIoU (higher better)",
    "depth_rmse": "depth RMSE (lower better)",
    "edge_f1": "edge F1 (higher better)",
    "normal_angle": "normal angle error, deg (lower better)",
    "saliency_maxf": "saliency max F (higher better)",
}


def delta_m(delta: pd.DataFrame) -> plt.Figure:
    """Delta_m per method with its 95 % interval (how it was made is the table's ``interval`` column: with two seeds,
    Student's t over the seeds widened by the test images' bootstrap); zero is the multi-task student from
    scratch."""
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    y = np.arange(len(delta))
    colours = ["tab:red" if m == "prism" else "tab:blue" if m == "dense" else "0.55" for m in delta["method"]]
    ax.barh(y, delta["delta_m"], color=colours)
    ax.errorbar(
        delta["delta_m"],
        y,
        xerr=[delta["delta_m"] - delta["low"], delta["high"] - delta["delta_m"]],
        fmt="none",
        ecolor="k",
        capsize=3,
    )
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y, delta["method"])
    ax.invert_yaxis()
    how = delta["interval"].iloc[0] if "interval" in delta and len(delta) else "95 % interval"
    ax.set_xlabel(f"Delta_m vs multi-task from scratch (%); bars: 95 % interval, {how}")
    ax.set_title("PRISM (red) against monolithic distillation (blue) and the other baselines")
    fig.tight_layout()
    return fig


def task_metrics(metrics: pd.DataFrame) -> plt.Figure:
    """Each task's metric per method, one dot per seed (own pathway)."""
    own = metrics[metrics["pathway"] == "own"]
    methods = list(dict.fromkeys(own["method"]))
    drawn = {metric: label for metric, label in LABELS.items() if metric in own}
    fig, axes = plt.subplots(1, len(drawn), figsize=(3.25 * len(drawn), 3.6), sharey=True, squeeze=False)
    axes = axes[0]
    for ax, (metric, label) in zip(axes, drawn.items()):
        for i, method in enumerate(methods):
            values = own.loc[own["method"] == method, metric]
            ax.scatter(values, np.full(len(values), i), color="tab:red" if method == "prism" else "k", s=18)
        ax.set_title(label, fontsize=9)
    axes[0].set_yticks(range(len(methods)), methods)
    axes[0].invert_yaxis()
    fig.tight_layout()
    return fig


def routing(shares: pd.DataFrame) -> plt.Figure:
    """PRISM's routing (seed with the lowest number): share of each condition's tokens per top-1 expert, per block;
    stage 1 by teacher, stage 2 by task."""
    rows = shares[shares["method"] == "prism"]
    if rows.empty:
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.text(0.5, 0.5, "prism was not run", ha="center")
        ax.axis("off")
        return fig
    rows = rows[rows["seed"] == rows["seed"].min()]
    blocks, stages = sorted(rows["block"].unique()), ["stage1", "stage2"]
    fig, axes = plt.subplots(
        len(stages), len(blocks), figsize=(3.4 * len(blocks) + 1.2, 5.6), squeeze=False, layout="constrained"
    )
    for r, stage in enumerate(stages):
        for c, block in enumerate(blocks):
            part = rows[(rows["stage"] == stage) & (rows["block"] == block)]
            table = part.pivot(index="condition", columns="expert", values="share")
            table = table.loc[list(dict.fromkeys(part["condition"]))]
            ax = axes[r, c]
            image = ax.imshow(table.to_numpy(), vmin=0, vmax=1, cmap="viridis")
            ax.set_xticks(range(table.shape[1]), table.columns)
            ax.set_yticks(range(table.shape[0]), table.index if c == 0 else [])  # one label column per row
            ax.grid(False)
            ax.set_xlabel("expert")
            ax.set_title(f"{'teacher' if stage == 'stage1' else 'task'} x expert, block {block}", fontsize=9)
    fig.colorbar(image, ax=axes, shrink=0.7, label="share of the condition's tokens")
    return fig


def specialisation(table: pd.DataFrame) -> plt.Figure:
    """MI between condition and top-1 expert per method, stage, seed and block, against the permutation null."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), sharey=True)
    for ax, stage in zip(axes, ["stage1", "stage2"]):
        part = table[table["stage"] == stage]
        methods = list(dict.fromkeys(part["method"]))
        for i, method in enumerate(methods):
            rows = part[part["method"] == method]
            ax.scatter(rows["mi_bits"], np.full(len(rows), i), color="tab:red" if method == "prism" else "k", s=18)
            ax.scatter(rows["null_max"], np.full(len(rows), i), marker="|", color="0.5", s=80)
        ax.set_yticks(range(len(methods)), methods)
        ax.set_xscale("symlog", linthresh=1e-3)
        ax.set_xlabel("MI(condition; top-1 expert), bits (| = permutation null max)")
        ax.set_title("stage 1: teacher conditions" if stage == "stage1" else "stage 2: task conditions")
    fig.tight_layout()
    return fig


def conflict(cosines: pd.DataFrame) -> plt.Figure:
    """Cosine between two teachers' distillation gradients on the shared parameters during stage 1."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharey=True)
    for ax, method in zip(axes, ["dense", "prism"]):
        rows = cosines[cosines["method"] == method]
        for pair, part in rows.groupby("pair", sort=True):
            mean = part.groupby("step")["cosine"].mean()
            ax.plot(mean.index, mean.to_numpy(), label=pair)
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xlabel("stage 1 step")
        ax.set_title(f"{method} student (mean over seeds)")
    axes[0].set_ylabel("gradient cosine")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig
