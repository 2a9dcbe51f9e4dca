"""Figures of the complex_mcp pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .summary import AGENT_ORDER
from .verdict import PAPER_CONTEXT

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "agents": ("PAPER_CONTEXT",),
    "saturation": "the claim compares the retrieval agent with the oracle that names its tools (drawn as the line it "
    "falls away from); its threshold is a drop between the smallest and largest tool counts, stated in the claim",
    "failures": "the claims compare agents with the oracle at each failure rate (all curves drawn); no fixed threshold",
}

HUMAN = PAPER_CONTEXT["human_success"]


def agents(by_level: pd.DataFrame, status: pd.DataFrame) -> plt.Figure:
    """Success per agent and level (paper's human and best-LLM levels marked), and calls per episode by status."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    names = [a for a in AGENT_ORDER if a in set(by_level["agent"])]
    levels = [lv for lv in ("1", "2", "3", "all") if lv in set(by_level["level"].astype(str))]
    width = 0.8 / len(levels)
    for i, level in enumerate(levels):
        rows = by_level[by_level["level"].astype(str) == level].set_index("agent").reindex(names)
        left.bar(
            np.arange(len(names)) + i * width,
            rows["success"],
            width,
            label=f"level {level}",
            color="0.35" if level == "all" else f"C{i}",
        )
    left.axhline(HUMAN, color="k", ls="--", lw=1, label=f"paper: humans {HUMAN:.0%}")
    left.axhline(0.6, color="C3", ls=":", lw=1, label="paper: best LLM < 60 %")
    left.set_xticks(np.arange(len(names)) + 0.4 - width / 2, names, fontsize=8)
    left.set_ylabel("success rate")
    left.set_ylim(0, 1.05)
    left.legend(fontsize=7, ncol=3, loc="upper right")
    left.set_title("scripted agents, one bottleneck each")
    status = status.set_index("agent").reindex(names)
    bottom = np.zeros(len(names))
    for kind, color in (("ok", "C2"), ("failed", "C1"), ("error", "C3")):
        right.bar(names, status[kind], bottom=bottom, color=color, label=kind)
        bottom += status[kind].to_numpy()
    right.set_ylabel("tool calls per episode")
    right.tick_params(axis="x", labelsize=8, rotation=20)
    right.legend(fontsize=7)
    right.set_title("tool-call status")
    fig.tight_layout()
    return fig


def saturation(table: pd.DataFrame, by_level: pd.DataFrame) -> plt.Figure:
    """Retrieval agent success against the tools exposed, with the oracle (which never retrieves) for reference."""
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    ax.plot(table["tools_shown"], table["success"], "o-", label="retrieval agent (BM25, top-ranked tool)")
    ax.plot(table["tools_shown"], table["completion"], "s--", color="C0", alpha=0.6, label="its completion")
    oracle = by_level[(by_level["agent"] == "oracle") & (by_level["level"].astype(str) == "all")]["success"]
    if len(oracle):
        ax.axhline(float(oracle.iloc[0]), color="k", lw=1, label="oracle (names its tools)")
    ax.set_xscale("log")
    return _success_figure(fig, ax, "tools exposed to the agent (gold + distractors)", "tool retrieval saturation")


def failures(table: pd.DataFrame) -> plt.Figure:
    """Success against the network failure rate for the oracle, no-retry and skip-verification agents."""
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    for i, (agent, rows) in enumerate(table.groupby("agent", sort=False)):
        ax.plot(rows["failure_rate"], rows["success"], "o-", color=f"C{i}", label=agent)
    return _success_figure(fig, ax, "network failure rate per call", "recovering from failures (strategic defeatism)")


def _success_figure(fig: plt.Figure, ax: plt.Axes, xlabel: str, title: str) -> plt.Figure:
    ax.set_xlabel(xlabel)
    ax.set_ylabel("success rate")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7)
    ax.set_title(title)
    fig.tight_layout()
    return fig
