"""Figures of the coins pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import MOST, correct_specs, undecided_on_correct

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "kill_rate": ("MOST",),
    "levels": ("correct_specs", "undecided_on_correct"),
}


def kill_rates(table: pd.DataFrame) -> plt.Figure:
    """Per mutation operator, what each method concludes about the judged mutants: killed (a refuted
    obligation), left unknown, or judged correct; test-based obligations (left bar of each pair) beside
    the equivalence proof with the gold spec (right bar). Above each pair: judged mutants and the
    accidental equivalents left out."""
    rows = table.reset_index(drop=True)
    x = np.arange(len(rows))
    tests = {
        "killed": rows["kill_rate"],
        "unknown": rows["unknown"] / rows["judged"],
        "judged correct": rows["survived_correct"] / rows["judged"],
    }
    equivalence = {
        "killed": rows["equivalence_kill_rate"],
        "unknown": rows["equivalence_unknown_rate"],
        "judged correct": 1 - rows["equivalence_kill_rate"] - rows["equivalence_unknown_rate"],
    }
    colours = {"killed": "C0", "unknown": "0.75", "judged correct": "C3"}
    fig, ax = plt.subplots(figsize=(max(6.0, 0.75 * len(rows) + 2.5), 3.8))
    for offset, shares, hatch in ((-0.2, tests, ""), (0.2, equivalence, "//")):
        bottom = np.zeros(len(rows))
        for part, share in shares.items():
            values = share.fillna(0).to_numpy()
            ax.bar(
                x + offset,
                values,
                0.38,
                bottom=bottom,
                color=colours[part],
                hatch=hatch,
                edgecolor="white",
                label=f"{part} ({'tests' if offset < 0 else 'equivalence proof'})",
            )
            bottom += values
    for i, r in rows.iterrows():
        ax.text(i, 1.03, f"n={r.judged}\n+{r.accidental_equivalents} eq.", ha="center", va="bottom", fontsize=6.5)
    ax.axhline(MOST, color="k", lw=0.8, ls=":", label="half (the claim's 'most')")
    ax.set_xticks(x, rows["operator"], rotation=35, ha="right")
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("share of judged mutants")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def levels(table: pd.DataFrame, specs: pd.DataFrame) -> plt.Figure:
    """Mean obligation score and verdict shares against the number of mutation operators applied; right, the
    complexity claim's statistic: the correct specs each method leaves undecided and their difference with its
    interval against the claim's 0."""
    fig, (left, right, claim) = plt.subplots(1, 3, figsize=(12.5, 3.2), gridspec_kw={"width_ratios": [3, 3, 2]})
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
    correct, found = correct_specs(specs), undecided_on_correct(specs)
    shares = [(correct["verdict"] == "unknown").mean(), (correct["equivalence_verdict"] == "unknown").mean()]
    claim.bar([0, 1], shares, color=["C0", "C3"], width=0.6)
    claim.errorbar(
        [2], [found.estimate], yerr=[[found.estimate - found.low], [found.high - found.estimate]], fmt="o", color="k"
    )
    claim.axhline(found.threshold, color="k", lw=0.8, ls="--", label="claim: difference above 0")
    claim.set_xticks([0, 1, 2], ["tests", "equivalence", "difference\n(95 % bootstrap)"], fontsize=7)
    claim.set_ylim(min(-0.02, found.low - 0.02), max(max(shares), found.high) + 0.03)  # the claim's 0 above the axis
    claim.set_ylabel(f"share of the {len(correct)} correct specs undecided")
    claim.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig
