"""The paper's figures: final single-turn accuracy per method (the GRPO baselines the claims compare against
in grey) and the learning curves of single-turn and second-turn accuracy."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import runs

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "accuracy": "the claims compare each method with the single- and multi-turn GRPO baselines (drawn beside it, per "
    "seed and mean); no fixed threshold",
}

LABELS = {
    "grpo_single": "GRPO single-turn",
    "grpo_multi": "GRPO multi-turn",
    "sd": "RLTF-SD",
    "fm": "RLTF-FM",
    "sd_fm": "SD + FM",
    "sd_turn2_baseline": "SD, turn-2 baseline",
    "sd_importance": "SD, full IS ratio",
}
COLOURS = {
    "grpo_single": "0.55",
    "grpo_multi": "0.3",
    "sd": "tab:red",
    "fm": "tab:blue",
    "sd_fm": "tab:purple",
    "sd_turn2_baseline": "tab:orange",
    "sd_importance": "tab:brown",
}


FM_COLOURS = ("tab:cyan", "tab:blue", "navy")  # FM's runs, by increasing loss weight


def _ordered(run_names) -> list[str]:
    """Runs in :data:`LABELS`' method order, FM's by increasing weight."""
    return sorted(set(run_names), key=lambda r: (list(LABELS).index(runs.parse(r)[0]), runs.fm_weight(r) or 0))


def _label(run: str) -> str:
    weight = runs.fm_weight(run)
    return LABELS[runs.parse(run)[0]] + (f", λ={weight:g}" if weight is not None else "")


def _colours(run_names) -> dict[str, str]:
    fm = [r for r in _ordered(run_names) if runs.is_fm(r)]
    return {r: FM_COLOURS[min(fm.index(r), len(FM_COLOURS) - 1)] if r in fm else COLOURS[r] for r in run_names}


def accuracy(table: pd.DataFrame, comparisons: pd.DataFrame) -> plt.Figure:
    """Per task: mean single-turn sampled pass@1 per method (bar), each seed (dot); in the title, SD's and FM's
    difference from the better GRPO baseline with its 95 % interval."""
    tasks = sorted(table["task"].unique())
    fig, axes = plt.subplots(1, len(tasks), figsize=(5.2 * len(tasks), 3.8), squeeze=False)
    for axis, task in zip(axes[0], tasks):
        rows = table[table["task"] == task]
        methods = _ordered(rows["method"])
        colours = _colours(methods)
        x = np.arange(len(methods))
        means = [rows.loc[rows["method"] == m, "sampled"].mean() for m in methods]
        axis.bar(x, means, color=[colours[m] for m in methods])
        for i, m in enumerate(methods):
            seeds = rows.loc[rows["method"] == m, "sampled"].to_numpy()
            axis.plot(np.full(len(seeds), i), seeds, "k.", markersize=4)
        notes = []
        for method in ["sd", *[m for m in methods if runs.is_fm(m)]]:
            found = comparisons[
                (comparisons["task"] == task)
                & (comparisons["metric"] == "sampled")
                & (comparisons["method"] == method)
                & comparisons["baseline"].isin(["grpo_single", "grpo_multi"])
            ]
            if len(found):
                worst = found.loc[found["difference"].idxmin()]
                notes.append(
                    f"{_label(method)} - {LABELS[worst['baseline']]}: {worst['difference']:+.3f} "
                    f"[{worst['low']:+.3f}, {worst['high']:+.3f}] ({100 * worst['confidence']:g} %)"
                )
        axis.set_title(f"{task}\n" + "\n".join(notes), fontsize=8)
        axis.set_xticks(x, [_label(m) for m in methods], rotation=35, ha="right", fontsize=8)
        axis.set_ylabel("single-turn pass@1 (sampled)")
    fig.tight_layout()
    return fig


def curves(table: pd.DataFrame) -> plt.Figure:
    """Rows: tasks; left, single-turn sampled pass@1 (the test-time metric); right, the second turn's greedy
    accuracy with feedback (a training diagnostic). Mean over seeds."""
    tasks = sorted(table["task"].unique())
    fig, axes = plt.subplots(len(tasks), 2, figsize=(10, 3.2 * len(tasks)), squeeze=False)
    for row, task in zip(axes, tasks):
        rows = table[table["task"] == task]
        colours = _colours(rows["method"].unique())
        for method in _ordered(rows["method"]):
            mean = rows[rows["method"] == method].groupby("step")[["sampled", "second_turn"]].mean()
            style = {"color": colours[method], "label": _label(method)}
            row[0].plot(mean.index, mean["sampled"], **style)
            row[1].plot(mean.index, mean["second_turn"], **style)
        row[0].set_title(f"{task}: single-turn pass@1 (sampled, no feedback)", fontsize=9)
        row[1].set_title(f"{task}: second-turn accuracy (greedy, with feedback)", fontsize=9)
        for axis in row:
            axis.set_xlabel("RL step")
            axis.set_ylim(-0.02, 1.02)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return fig
