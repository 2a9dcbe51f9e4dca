"""Figures of the coins pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


def kill_rates(table: pd.DataFrame) -> plt.Figure:
    """Kill rate per mutation operator: test-based obligations beside the equivalence proof, with the
    accidental equivalents that random testing found printed over each pair."""
    rows = table.reset_index(drop=True)
    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(rows) + 2), 3.6))
    ax.bar(x - 0.2, rows["kill_rate"], 0.4, color="C0", label="test-based obligations (Coins)")
    ax.bar(x + 0.2, rows["equivalence_kill_rate"], 0.4, color="C3", label="equivalence proof with the gold spec")
    for i, r in rows.iterrows():
        ax.text(i, 1.03, f"n={r.judged}\n+{r.accidental_equivalents} eq.", ha="center", va="bottom", fontsize=6.5)
    ax.axhline(0.5, color="0.5", lw=0.8, ls=":", label="half the mutants (the claim's 'most')")
    ax.set_xticks(x, rows["operator"], rotation=35, ha="right")
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("share of mutants killed")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def levels(table: pd.DataFrame) -> plt.Figure:
    """Mean obligation score and verdict shares against the number of mutation operators applied."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.2))
    left.plot(table["level"], table["mean_score"], "o-", color="C0", label="share of obligations proved")
    left.plot(table["level"], table["correct"], "s--", color="C2", label="verdict correct (tests)")
    left.plot(table["level"], table["equivalence_correct"], "^:", color="C3", label="verdict correct (equivalence)")
    left.set_xlabel("mutation level (0 = gold and equivalent rewrites)")
    left.set_ylabel("share")
    left.set_xticks(table["level"])
    left.set_ylim(-0.05, 1.05)
    left.legend(fontsize=7)
    width = 0.35
    x = table["level"].to_numpy()
    right.bar(x - width / 2, table["unknown"], width, color="C0", label="unknown (tests)")
    right.bar(x + width / 2, table["equivalence_unknown"], width, color="C3", label="unknown (equivalence)")
    right.set_xticks(x)
    right.set_xlabel("mutation level")
    right.set_ylabel("share of specs left undecided")
    right.set_ylim(0, 1.05)
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig
