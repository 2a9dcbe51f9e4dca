"""The figures of netdiff, each from one table (matplotlib only; no torch); :func:`inference` draws a measured
one (``timing/``), with the machine it was measured on."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import to_rgba

from .calibration import BANDS
from .verdict import FRACTION, TARGET_SHARE

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "calibration": ("BANDS",),
    "counts": "the claim compares NetDiff's count errors with the ablations' (every model drawn per N); no fixed "
    "threshold",
    "partial": ("FRACTION",),
    "shares": ("TARGET_SHARE",),
    "inference": "the constant-time band is the config's `criteria.flat` (the figure and the timing verdict take the "
    "same key)",
}

COLOURS = {"netdiff": "tab:red", "graph_transformer": "tab:blue", "no_aux": "tab:purple"}


def calibration(table: pd.DataFrame, channel: dict) -> plt.Figure:
    """Each heuristic's share of the target per setting (sector count, side lobe), one panel per N, with the
    spec's bands shaded; admissible settings are starred and the configured one (``channel``) is boxed."""
    nodes = sorted(table["nodes"].unique())
    fig, axes = plt.subplots(1, len(nodes), figsize=(4.2 * len(nodes), 3.6), sharey=True, squeeze=False)
    for ax, n in zip(axes[0], nodes):
        rows = table[table["nodes"] == n].reset_index(drop=True)
        x = np.arange(len(rows))
        for k, (name, colour) in enumerate(zip(BANDS, ("tab:orange", "tab:green", "0.5"))):
            ax.bar(x + (k - 1) * 0.27, rows[name], width=0.27, color=colour, label=name)
        ax.axhspan(*BANDS["greedy"], color="tab:green", alpha=0.1)
        ax.axhline(BANDS["omnidirectional"][1], color="0.5", ls=":", lw=1)
        labels = [f"K={r.sectors}\n{r.side_db:g} dB" + (" *" if r.admissible else "") for r in rows.itertuples()]
        ax.set_xticks(x, labels, fontsize=7)
        chosen = (rows["sectors"] == channel["sectors"]) & (rows["side_db"] == channel["side_db"])
        for i in np.flatnonzero(chosen.to_numpy()):
            ax.axvspan(i - 0.45, i + 0.45, fill=False, edgecolor="k", lw=1.2, label="configured")
        ax.set_title(f"N = {n}")
    axes[0][0].set_ylabel("share of the target's throughput")
    axes[0][0].legend(fontsize=7, loc="lower left")
    fig.suptitle("Calibration: heuristics should reach 75-90 % (shaded), omni < 40 % (dotted); * admissible, box: used")
    fig.tight_layout()
    return fig


def shares(results: pd.DataFrame) -> plt.Figure:
    """Mean share of the target's throughput per method (repaired and raw samples), per test N, with its 95 %
    interval (how each was made, the table's ``interval`` column, printed under the panels); the paper's 95 %
    line."""
    nodes = sorted(results["nodes"].unique())
    fig, axes = plt.subplots(1, len(nodes), figsize=(5.5 * len(nodes), 3.8), sharex=True, squeeze=False)
    for ax, n in zip(axes[0], nodes):
        rows = results[(results["nodes"] == n) & (results["method"] != "target")].sort_values("share")
        y = np.arange(len(rows))
        colours = [
            to_rgba(COLOURS.get(m.removesuffix("_raw"), "0.55"), 0.45 if m.endswith("_raw") else 1)
            for m in rows["method"]
        ]
        ax.barh(y, rows["share"], color=colours)
        ax.errorbar(
            rows["share"],
            y,
            xerr=[rows["share"] - rows["low"], rows["high"] - rows["share"]],
            fmt="none",
            ecolor="k",
            capsize=2,
        )
        ax.axvline(1, color="k", lw=0.8)
        ax.axvline(TARGET_SHARE, color="tab:red", ls="--", lw=1, label="paper: 95 % of target")
        ax.set_yticks(y, [f"{m} ({c:.0%} conn.)" for m, c in zip(rows["method"], rows["connected"])], fontsize=7)
        ax.set_title(f"test N = {n}")
        ax.set_xlabel("share of the target's throughput (95 % intervals: below)", fontsize=9)
    axes[0][0].legend(fontsize=7, loc="lower right")
    fig.suptitle("NetDiff (red) against its ablations and the heuristics; _raw: before repair (infeasible)")
    how = sorted(set(results["interval"])) if "interval" in results else ["95 % interval"]
    fig.tight_layout(rect=(0, 0.04 * len(how), 1, 1))
    fig.text(0.01, 0.01, "intervals: " + "; ".join(how), fontsize=6, va="bottom")
    return fig


def counts(table: pd.DataFrame) -> plt.Figure:
    """Absolute error of the raw samples' density and sector usage against the target, per model and N."""
    names = list(dict.fromkeys(table["count"]))
    fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 3.4), squeeze=False)
    for ax, count in zip(axes[0], names):
        rows = table[table["count"] == count]
        nodes = sorted(rows["nodes"].unique())
        models = list(dict.fromkeys(rows["model"]))
        for k, model in enumerate(models):
            values = [rows[(rows["model"] == model) & (rows["nodes"] == n)]["error"].iloc[0] for n in nodes]
            x = np.arange(len(nodes)) + (k - (len(models) - 1) / 2) * 0.8 / len(models)
            ax.bar(x, values, width=0.8 / len(models), color=COLOURS.get(model, "0.5"), label=model)
        ax.set_xticks(range(len(nodes)), [f"N = {n}" for n in nodes])
        ax.set_title(f"{count}: |raw sample - target|")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("ACAM ablation: global-count error (lower is closer to the target's counts)")
    fig.tight_layout()
    return fig


def partial(table: pd.DataFrame, near: float) -> plt.Figure:
    """Share of the target and link churn per restart step; the last step is full diffusion from noise. The
    claim's test is drawn: a restart at or left of the dashed line (a quarter of the steps) inside the shaded band
    (within ``near`` of full diffusion)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    full = table.iloc[-1]
    left.plot(table["restart"], table["share"], "o-", color="tab:red")
    left.axhline(full["share"], color="k", ls=":", lw=1, label=f"full diffusion ({int(full['restart'])} steps)")
    left.axhspan(full["share"] - near, full["share"], color="tab:green", alpha=0.12, label=f"within {near}")
    left.axvline(FRACTION * full["restart"], color="k", ls="--", lw=0.8, label="a quarter of the steps")
    left.set_ylim(min(table["share"].min(), full["share"] - near) - 0.01, max(table["share"].max(), 1.0) + 0.005)
    left.set_xlabel("restart step k (denoising steps)")
    left.set_ylabel("share of the frame's target")
    left.legend(fontsize=7, loc="lower right")
    right.plot(table["restart"], table["churn"], "o-", color="tab:blue")
    right.set_xlabel("restart step k")
    right.set_ylabel("link churn vs previous frame")
    for ax in (left, right):
        ax.set_xscale("log")
    fig.suptitle("Partial diffusion over mobility traces: quality and churn against steps")
    fig.tight_layout()
    return fig


def milp(table: pd.DataFrame) -> plt.Figure:
    """The target and greedy against the exact MILP per N: surrogate objective and true throughput ratios."""
    fig, ax = plt.subplots(figsize=(6, 3.4))
    x = np.arange(len(table))
    series = {
        "target, surrogate / MILP optimum": ("target_surrogate_ratio", "tab:red", 1.0),
        "greedy, surrogate / MILP optimum": ("greedy_surrogate_ratio", "tab:orange", 1.0),
        "target, throughput / MILP solution's": ("throughput_ratio", "tab:red", 0.45),
        "greedy, throughput / MILP solution's": ("greedy_throughput_ratio", "tab:orange", 0.45),
    }
    for k, (label, (column, colour, alpha)) in enumerate(series.items()):
        ax.bar(x + (k - 1.5) * 0.2, table[column], width=0.2, color=colour, alpha=alpha, label=label)
    ax.axhline(1, color="k", lw=0.8)
    ax.set_xticks(x, [f"N = {n}" for n in table["nodes"]])
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Target check: the MILP's interference-free optimum bounds the surrogate")
    fig.tight_layout()
    return fig


def inference(table: pd.DataFrame, flat: float, machine: str) -> plt.Figure:
    """Seconds per instance against N for every timed method (log scale; the trained models solid, NetDiff on
    top, the target black, the heuristics grey), with the claim's band for NetDiff: from its time at the smallest
    N to ``flat`` times that (the constant-time claim holds inside it); right: each model's milliseconds per
    denoiser call (the call count is the same at every N)."""
    fig, (ax, right) = plt.subplots(1, 2, figsize=(11.5, 4.6), gridspec_kw={"width_ratios": [3, 2]})
    others = iter(zip(("0.3", "0.45", "0.6", "0.75"), ("s", "^", "v", "x")))
    for method, rows in table.groupby("method", sort=True):
        if method in COLOURS:
            style = {"color": COLOURS[method], "marker": "o", "lw": 2.5 if method == "netdiff" else 1.2}
        elif method == "target":
            style = {"color": "k", "marker": "D", "ls": "--", "lw": 1}
        else:
            colour, marker = next(others, ("0.5", "."))
            style = {"color": colour, "marker": marker, "ls": ":", "lw": 1}
        ax.plot(rows["nodes"], rows["seconds"], label=method, zorder=4 if method == "netdiff" else 3, **style)
    netdiff = table[table["method"] == "netdiff"].sort_values("nodes")
    if len(netdiff):
        low, smallest = float(netdiff["seconds"].iloc[0]), int(netdiff["nodes"].iloc[0])
        ax.axhspan(
            low, flat * low, color="tab:red", alpha=0.12, label=f"claim: NetDiff within {flat:g}x of N={smallest}"
        )
    ax.set_yscale("log")
    ax.set_xticks(sorted(table["nodes"].unique()))
    ax.set_xlabel("nodes N")
    ax.set_ylabel("seconds per instance")
    ax.set_title(f"measured on {machine}", fontsize=8)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4)
    models = table[table["denoiser_calls"] > 0]
    for method, rows in models.groupby("method", sort=True):
        calls = int(rows["denoiser_calls"].iloc[0])
        right.plot(
            rows["nodes"],
            1000 * rows["seconds"] / rows["denoiser_calls"],
            marker="o",
            color=COLOURS.get(method, "0.5"),
            lw=2.5 if method == "netdiff" else 1.2,
            label=f"{method} ({calls} calls at every N)",
        )
    right.set_xticks(sorted(table["nodes"].unique()))
    right.set_ylim(bottom=0)
    right.set_xlabel("nodes N")
    right.set_ylabel("ms per denoiser call (repair included)")
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig
