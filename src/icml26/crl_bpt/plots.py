"""The paper's figures: best-prompt test accuracy against calls spent (the spec's main figure) and per method,
reward variance with and without the control variate, and how many generated templates are readable. Each shows
what the claims compare against: the baselines in grey, the baseline template and the template that names the
target domain in full as dashed lines."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import READABLE, VARIANCE_RATIO

LABELS = {
    "human_best": "best human template",
    "random_search": "random search (prior)",
    "reinforce": "REINFORCE",
    "reinforce_cv": "+ control variate",
    "cv_imitation": "+ imitation",
    "cv_imitation_innovation": "+ innovation (fixed weights)",
    "crl_bpt_e1": "CRL-BPT e_a=1",
    "crl_bpt_e2": "CRL-BPT e_a=2",
    "crl_bpt_e4": "CRL-BPT e_a=4",
    "crl_bpt_e2_per_step": "CRL-BPT e_a=2, per-step norm",
}
COLOURS = {
    "human_best": "0.6",
    "random_search": "0.45",
    "reinforce": "0.3",
    "reinforce_cv": "tab:cyan",
    "cv_imitation": "tab:green",
    "cv_imitation_innovation": "tab:olive",
    "crl_bpt_e1": "tab:orange",
    "crl_bpt_e2": "tab:red",
    "crl_bpt_e4": "tab:purple",
    "crl_bpt_e2_per_step": "tab:brown",
}
# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "accuracy_vs_calls": "its claims compare methods with each other (every method's curve, with the human and "
    "domain-naming templates as reference lines from tables/calibration.csv): no fixed threshold to draw",
    "readability": ("READABLE",),
    "reward_variance": ("VARIANCE_RATIO",),
}
REFERENCES = {"baseline": ("baseline template", ":"), "names the domain in full": ("template naming the domain", "--")}


def _ordered(methods) -> list[str]:
    return [m for m in LABELS if m in set(methods)]


def _references(axis, calibration: pd.DataFrame, horizontal: bool = True) -> None:
    for kind, (label, style) in REFERENCES.items():
        value = calibration.loc[calibration["kind"] == kind, "test_accuracy"]
        if len(value):
            axis.axhline(
                float(value.max()), color="k", linestyle=style, linewidth=1, label=f"{label} ({value.max():.2f})"
            )


def accuracy_vs_calls(curves: pd.DataFrame, calibration: pd.DataFrame) -> plt.Figure:
    """Mean over seeds of the best template's test accuracy against black-box calls spent."""
    fig, axis = plt.subplots(figsize=(9.5, 4.5), layout="constrained")
    for method in _ordered(curves["method"]):
        mean = curves[curves["method"] == method].groupby("calls")["test_accuracy"].mean()
        axis.plot(
            mean.index,
            mean.to_numpy(),
            color=COLOURS[method],
            label=LABELS[method],
            linewidth=2.2 if method == "crl_bpt_e2" else 1.2,
        )
    _references(axis, calibration)
    axis.set_xlabel("black-box calls spent")
    axis.set_ylabel("test accuracy of the best template so far")
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the curves, never over them
    return fig


def accuracy(table: pd.DataFrame, calibration: pd.DataFrame) -> plt.Figure:
    """Final best template's test accuracy per method: mean (bar) and each seed (dot)."""
    methods = _ordered(table["method"])
    fig, axis = plt.subplots(figsize=(8, 4))
    x = np.arange(len(methods))
    axis.bar(
        x,
        [table.loc[table["method"] == m, "test_accuracy"].mean() for m in methods],
        color=[COLOURS[m] for m in methods],
    )
    for i, m in enumerate(methods):
        seeds = table.loc[table["method"] == m, "test_accuracy"].to_numpy()
        axis.plot(np.full(len(seeds), i), seeds, "k.", markersize=5)
    _references(axis, calibration)
    axis.set_xticks(x, [LABELS[m] for m in methods], rotation=35, ha="right", fontsize=8)
    axis.set_ylabel("test accuracy of the best template")
    axis.legend(fontsize=7)
    fig.tight_layout()
    return fig


def reward_variance(calls: pd.DataFrame, variance: pd.DataFrame, window: int = 10) -> plt.Figure:
    """Left: the variance of the rewards within windows of ``window`` steps, mean over seeds: raw and calibrated
    in REINFORCE + control variate, raw in plain REINFORCE. Right: per run with the control variate, the ratio
    var(calibrated) / var(raw) over the same calls (the claim's measurement; below 1: lower)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 2]})
    agents = calls[calls["role"] == "sample"].assign(window=lambda f: f["step"] // window)
    series = [
        ("reinforce", "reward", "REINFORCE: raw reward", "0.3", "-"),
        ("reinforce_cv", "reward", "+ CV: raw reward", "tab:cyan", "--"),
        ("reinforce_cv", "calibrated", "+ CV: calibrated reward", "tab:cyan", "-"),
    ]
    for method, column, label, colour, style in series:
        rows = agents[agents["method"] == method]
        if rows.empty or column not in rows or rows[column].isna().all():
            continue
        grouped = rows.groupby(["seed", "window"])[column]
        per = grouped.var()[grouped.count() >= window].groupby("window").mean()  # full windows only
        left.plot(per.index * window, per.to_numpy(), color=colour, linestyle=style, label=label)
    left.set_xlabel("RL step")
    left.set_ylabel(f"reward variance within {window} steps")
    left.legend(fontsize=8)
    methods = _ordered(variance["method"])
    for i, method in enumerate(methods):
        ratios = variance.loc[variance["method"] == method, "ratio"].to_numpy()
        right.plot(np.full(len(ratios), i), ratios, "o", color=COLOURS[method], markersize=5)
    right.axhline(VARIANCE_RATIO, color="k", linestyle="--", linewidth=1, label="claim: below 1 (lower variance)")
    right.legend(fontsize=8)
    right.set_xticks(np.arange(len(methods)), [LABELS[m] for m in methods], rotation=35, ha="right", fontsize=8)
    right.set_ylabel("var(calibrated) / var(raw), per seed")
    fig.tight_layout()
    return fig


def readability(table: pd.DataFrame) -> plt.Figure:
    """Per method: distinct readable templates generated (bar, mean over seeds) and the readable fraction."""
    methods = _ordered(table["method"])
    per = table.groupby("method")[["distinct_readable", "readable", "generated"]].sum()
    seeds = table.groupby("method")["seed"].nunique()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    x = np.arange(len(methods))
    left.bar(x, [per.loc[m, "distinct_readable"] / seeds[m] for m in methods], color=[COLOURS[m] for m in methods])
    left.set_ylabel("distinct readable templates per run")
    right.bar(
        x, [per.loc[m, "readable"] / per.loc[m, "generated"] for m in methods], color=[COLOURS[m] for m in methods]
    )
    right.axhline(READABLE, color="k", linestyle="--", linewidth=1, label=f"claim threshold {READABLE:g}")
    right.set_ylabel("fraction of generated templates readable")
    right.set_ylim(0, 1.02)
    right.legend(fontsize=8)
    for axis in (left, right):
        axis.set_xticks(x, [LABELS[m] for m in methods], rotation=35, ha="right", fontsize=8)
    fig.tight_layout()
    return fig
