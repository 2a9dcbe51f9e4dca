"""Figures: leaderboards, sensitivity vs false alarms, per-subject spread, ranks, the gap, an EEG page."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import montage

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "leaderboard": "our leaderboard beside the published one; published_entries_vary compares its best "
    "and median entries (no threshold beyond zero and the margin)",
    "gap": "the band is the config's `gap_min` (the figure and the verdict take the same key)",
    "ranks": "the claim compares the algorithm with the best F1 with the most consistent one (ranks per subject and "
    "their bootstrap drawn); no fixed threshold",
    "subject_f1": "F1 per subject and algorithm, the spread behind the consistency claim; no fixed threshold",
    "published_datasets": "the published leaderboard per dataset; the claim checks its top entry against the paper's "
    "numbers (PAPER_TOP, within PUBLISHED_TOL) in the claim",
}


def leaderboards(ours: pd.DataFrame, published: pd.DataFrame) -> plt.Figure:
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.25 * max(len(published), len(ours)) + 1.5))
    for ax, table, name, title in (
        (axes[0], ours, "algorithm", "Simulated corpus, held-out subjects"),
        (axes[1], published, "algorithm", "Published SzCORE 2025 (65 subjects)"),
    ):
        t = table.iloc[::-1]
        y = np.arange(len(t))
        ax.barh(
            y,
            t["event_f1"].fillna(0),
            xerr=t["event_f1_std"].fillna(0),
            color="tab:blue",
            alpha=0.8,
            error_kw={"elinewidth": 0.6, "alpha": 0.5},
            label="mean of per-subject F1",
        )
        ax.plot(t["event_f1_from_means"], y, "k|", markersize=8, label="F1 of mean sens. and prec.")
        ax.set_yticks(y, t[name], fontsize=7)
        ax.set_xlim(0, 1)
        ax.set_xlabel("event F1 (SzCORE)")
        ax.set_title(title)
    axes[1].legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    return fig


def sensitivity_vs_fp(ours: pd.DataFrame, published: pd.DataFrame) -> plt.Figure:
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, table, title in (
        (axes[0], ours, "Simulated corpus, held-out subjects"),
        (axes[1], published, "Published SzCORE 2025"),
    ):
        fp = table["event_fp_per_day" if "event_fp_per_day" in table else "event_fpRate"].clip(lower=0.1)
        ax.scatter(fp, table["event_sensitivity"], s=18, color="tab:red")
        for x, y, label in zip(fp, table["event_sensitivity"], table["algorithm"]):
            ax.annotate(label, (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_xlabel("false alarms per day (log; 0 shown at 0.1)")
        ax.set_title(title)
    axes[0].set_ylabel("event sensitivity")
    axes[0].set_ylim(-0.02, 1.05)
    fig.tight_layout()
    return fig


def subject_f1(subjects: pd.DataFrame) -> plt.Figure:
    part = subjects[(subjects["protocol"] == "heldout") & (subjects["scoring"] == "event") & (subjects["ref_true"] > 0)]
    order = part.groupby("algorithm")["f1"].mean().sort_values(ascending=False).index.tolist()
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(order)), 4))
    data = [part.loc[part["algorithm"] == a, "f1"].to_numpy() for a in order]
    ax.boxplot(data, showmeans=True)
    rng = np.random.default_rng(0)
    for i, values in enumerate(data, start=1):
        ax.scatter(i + rng.uniform(-0.15, 0.15, len(values)), values, s=6, color="k", alpha=0.5)
    ax.set_xticks(range(1, len(order) + 1), order, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("per-subject event F1 (held-out)")
    ax.set_ylim(-0.05, 1.05)
    fig.tight_layout()
    return fig


def ranks(f1: pd.DataFrame, bootstrap: pd.DataFrame) -> plt.Figure:
    order = bootstrap.sort_values(["position_median", "algorithm"])["algorithm"].tolist()
    r = f1[order].rank(axis=1, ascending=False, method="average")
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.22 * len(r) + 2.5), gridspec_kw={"width_ratios": [3, 2]})
    im = axes[0].imshow(r.to_numpy(), aspect="auto", cmap="viridis_r")
    axes[0].set_xticks(range(len(order)), order, rotation=45, ha="right", fontsize=7)
    axes[0].set_yticks(range(len(r)), [f"sub-{s}" for s in r.index], fontsize=6)
    axes[0].set_title("rank per subject (1 = best event F1)")
    axes[0].grid(False)
    fig.colorbar(im, ax=axes[0], label="rank")
    b = bootstrap.set_index("algorithm").loc[order[::-1]]
    y = np.arange(len(b))
    axes[1].errorbar(
        b["position_median"],
        y,
        xerr=[b["position_median"] - b["position_low"], b["position_high"] - b["position_median"]],
        fmt="o",
        ms=4,
    )
    for yi, p in zip(y, b["p_first"]):
        axes[1].annotate(f"P(1st) = {p:.2f}", (len(b) + 0.3, yi), fontsize=6, va="center")
    axes[1].set_yticks(y, b.index, fontsize=7)
    axes[1].set_xlim(0.5, len(b) + 3)
    axes[1].set_xlabel("leaderboard position, 95 % bootstrap interval over subjects")
    fig.tight_layout()
    return fig


def gap(table: pd.DataFrame, gap_min: float) -> plt.Figure:
    """Held-out against within-subject F1 per algorithm; the claim holds for points in the shaded band
    (held-out at least ``gap_min`` below within). The detectors lie close together, so each gets its own marker
    and a legend entry with its gap rather than a label beside its point (labels fell on top of each other)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="no gap")
    ax.fill_between(
        [gap_min, 1],
        [0, 0],
        [0, 1 - gap_min],
        color="tab:green",
        alpha=0.12,
        label=f"claim: held-out >= {gap_min:g} below within",
    )
    markers = "osD^vP*Xh<>p"
    for i, r in enumerate(table.sort_values("algorithm").itertuples()):
        ax.scatter(
            r.within_f1,
            r.heldout_f1,
            marker=markers[i % len(markers)],
            color=f"C{i % 10}",
            s=36,
            zorder=3,
            label=f"{r.algorithm} (gap {r.within_f1 - r.heldout_f1:+.3f})",
        )
    ax.set_xlabel("within-subject F1 (leave-one-run-out, 'self-reported')")
    ax.set_ylabel("held-out-subject F1")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    fig.tight_layout()
    return fig


def eeg_excerpt(x: np.ndarray, fs: float, event: tuple[float, float], seconds: float, title: str) -> plt.Figure:
    start = max(0.0, event[0] - seconds / 3)
    i0, i1 = int(start * fs), int(min(x.shape[1], (start + seconds) * fs))
    t = np.arange(i0, i1) / fs
    spacing = 4 * np.median(np.std(x[:, i0:i1], axis=1))
    fig, ax = plt.subplots(figsize=(10, 6))
    for c, name in enumerate(montage.CHANNELS):
        ax.plot(t, x[c, i0:i1] - c * spacing, lw=0.4, color="k")
    ax.axvspan(event[0], min(event[1], t[-1]), color="tab:red", alpha=0.12, label="annotated seizure")
    ax.set_yticks(-np.arange(len(montage.CHANNELS)) * spacing, montage.CHANNELS, fontsize=7)
    ax.set_xlabel("time (s)")
    ax.set_title(f"{title} (simulated, read back from EDF; {spacing:.0f} uV between traces)")
    ax.grid(False)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig


def published_datasets(datasets: pd.DataFrame) -> plt.Figure:
    wide = datasets.pivot(index="container", columns="dataset", values="event_f1")
    wide = wide.loc[wide.mean(axis=1).sort_values(ascending=False).index]
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(wide) + 1.5))
    im = ax.imshow(wide.to_numpy(dtype=float), aspect="auto", cmap="magma", vmin=0, vmax=1)
    ax.set_xticks(range(wide.shape[1]), wide.columns)
    ax.set_yticks(range(len(wide)), [c[:40] for c in wide.index], fontsize=6)
    for i in range(wide.shape[0]):
        for j in range(wide.shape[1]):
            v = wide.iat[i, j]
            ax.text(
                j,
                i,
                "n/a" if pd.isna(v) else f"{v:.2f}",
                ha="center",
                va="center",
                fontsize=6,
                color="w" if pd.isna(v) or v < 0.5 else "k",
            )
    ax.grid(False)
    ax.set_title("Published per-dataset event F1 (SzCORE results.json)")
    fig.colorbar(im, ax=ax, label="event F1")
    fig.tight_layout()
    return fig
