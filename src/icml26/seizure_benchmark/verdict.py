"""The spec's three claims and the abstract's variability claim, judged from the result tables.

- "Far below": every learned algorithm's held-out-subject event F1 is at least ``GAP_MIN`` (config
  ``verdict.gap_min``, default 0.10 F1) below its within-subject (leave-one-run-out) F1. Ours: the
  paper gives no number for the gap.
- "Most consistently ranked": the best (lowest) mean per-subject rank among subjects with seizures.
  The claim holds when the algorithm with the best aggregate F1 (the leaderboard's: mean of
  per-subject F1 over the subjects where it is defined) is not that algorithm.
- Published numbers: the paper's text reports the top event F1 as 32 % (sensitivity 37 %, precision
  29 %). Both aggregation variants are computed from ``challenge_results.json`` for the top entry; the
  claim holds if either is within ``PUBLISHED_TOL`` of 0.32.
- "Significant performance variability among state-of-the-art approaches" (issue 78, 2026-12-06): the best
  published entry's event F1 minus the median entry's, on Welch's interval from the published per-subject means
  and standard deviations over the ``PUBLISHED_SUBJECTS`` evaluation subjects.

Evidence strength: the gap on a Student's t interval over the subjects of each detector's per-subject
within-minus-held-out event F1 (paired: the same subject under both protocols), against ``gap_min``; the ranking
claim on a percentile bootstrap over the subjects with seizures of the best-F1 algorithm's mean rank minus the
best mean rank among the others (above zero: another algorithm ranks more consistently); the published numbers
are read from a file (deterministic).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common import intervals
from ..common.claims import DETERMINISTIC, Claim, decide
from ..common.criteria import POINT, rank_point
from ..common.tolerance import Tolerance

PAPER_TOP = {"f1": 0.32, "sensitivity": 0.37, "precision": 0.29}
PUBLISHED_SUBJECTS = 65  # the challenge's evaluation set, over which challenge_results.json's means and sds are taken
PUBLISHED_TOL = 0.01
NO_PREMISE = "detectors scored on a simulated corpus under the challenge's rules: nothing presupposed"

# make verify (icml26.common.verify): on another machine the fitted detectors' probabilities differ in the last
# bits (BLAS), an event boundary moves and a subject's F1 with it. Each number may move by one standard error
# over the subjects it is a mean over (quick run, 2026-12-02, tables/per_subject.csv): mean event or sample F1,
# precision, sensitivity over 20-24 subjects, largest over the learned detectors 0.070 (random_forest_raw's
# sample F1; logistic regression's event F1 0.069); a within-minus-held-out gap sqrt(2) times that; the rank
# statistics' bootstrap standard errors over the 20 subjects with seizures: mean rank 0.42 (logistic
# regression; 0.26-0.53 over the ten), Kendall's tau 0.047, Kendall's W 0.078; false positives per day
# relative, 0.76 of the mean (random forest). Seen across two AMD machines (issue 22): logistic regression's
# held-out F1 0.0054, tau 0.032. The published leaderboard is read from a file: its numbers get none.
F1_SE = 0.07
_WHY = "one standard error over the subjects of the quick run's mean"
TOLERANCES = [
    (
        "claims/heldout_far_below_within/measured/*/gap",
        Tolerance(abs=round(F1_SE * 2**0.5, 2), why=_WHY + " (x sqrt 2)"),
    ),
    ("claims/heldout_far_below_within/measured/*", Tolerance(abs=F1_SE, why=_WHY)),
    ("claims/best_f1_not_most_consistent/measured/its_aggregate_f1", Tolerance(abs=F1_SE, why=_WHY)),
    ("claims/best_f1_not_most_consistent/measured/*rank*", Tolerance(abs=0.42, why=_WHY + " rank (bootstrap)")),
    ("*/kendall_tau", Tolerance(abs=0.047, why="bootstrap standard error over the subjects with seizures")),
    ("*/kendall_w", Tolerance(abs=0.078, why="bootstrap standard error over the subjects with seizures")),
    ("metrics/heldout_event/*/fp_per_day", Tolerance(rel=0.76, why=_WHY + ", relative to it")),
    ("metrics/heldout_event/*", Tolerance(abs=F1_SE, why=_WHY)),
    ("metrics/heldout_sample_f1/*", Tolerance(abs=F1_SE, why=_WHY)),
    ("metrics/within_minus_heldout_f1/*", Tolerance(abs=round(F1_SE * 2**0.5, 2), why=_WHY + " (x sqrt 2)")),
]


def _number(value, digits: int = 2) -> str:
    return "n/a" if value is None or pd.isna(value) else f"{value:.{digits}f}"


def _paired_gaps(per_subject: pd.DataFrame, algorithm: str) -> pd.Series:
    """Per subject: within-subject minus held-out event F1 of one detector (subjects where both are defined)."""
    rows = per_subject[(per_subject["algorithm"] == algorithm) & (per_subject["scoring"] == "event")]
    wide = rows.pivot_table(index="subject", columns="protocol", values="f1")
    return (wide["within"] - wide["heldout"]).dropna()


def heldout_below_within(
    gap: pd.DataFrame, gap_min: float, runs: int = 2, folds: int = 4, *, per_subject: pd.DataFrame
) -> Claim:
    measured = {
        r.algorithm: {"within_f1": float(r.within_f1), "heldout_f1": float(r.heldout_f1), "gap": float(r.f1_gap)}
        for r in gap.itertuples()
    }
    found = [
        intervals.over_seeds(f"{a}/paired_gap", _paired_gaps(per_subject, a), gap_min, ">=", unit="subjects")
        for a in gap["algorithm"]
    ]
    for i in found:
        measured[i.statistic.split("/")[0]]["paired_gap"] = i.estimate
    return Claim(
        id="heldout_far_below_within",
        statement=f"For every learned detector, held-out-subject event F1 is at least {gap_min} below its "
        "within-subject (self-reported style) F1",
        paper_value="self-reported efficacies well above hold-out performance (no single number given)",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"within = leave-one-run-out (test subjects seen in training, {runs - 1}/{runs} of the recordings "
        f"in training); held-out = {folds} subject-grouped folds ({folds - 1}/{folds} of the subjects in "
        "training); F1 = mean over subjects of per-subject event F1 (SzCORE rules); simulated corpus",
        headline="within minus held-out event F1: "
        + ", ".join(f"{a} {m['gap']:+.3f}" for a, m in measured.items())
        + f" (needs >= {gap_min} for every detector; paper: self-reported well above held-out, no number)",
        evidence=["tables/gap.csv", "figures/gap.png"],
    )


def best_not_most_consistent(stability: pd.DataFrame, concordance: dict, f1: pd.DataFrame) -> Claim:
    """``f1``: held-out event F1, subjects with seizures x algorithms (the ranks' source)."""
    from .ranking import subject_ranks

    best_f1 = stability.sort_values(["aggregate_f1", "algorithm"], ascending=[False, True]).iloc[0]
    best_rank = stability.sort_values(["mean_rank", "algorithm"], ascending=[True, True]).iloc[0]
    lowest_iqr = stability.sort_values(["rank_iqr", "mean_rank"], ascending=[True, True]).iloc[0]
    ranks = subject_ranks(f1)
    others = [c for c in ranks.columns if c != best_f1.algorithm]
    found = [
        intervals.over_items(
            "rank_gap_to_best_other",
            [ranks[best_f1.algorithm].to_numpy(float), *(ranks[c].to_numpy(float) for c in others)],
            0.0,
            ">",
            function=lambda own, *rest: float(own.mean() - min(r.mean() for r in rest)),
            margin=rank_point(len(ranks.columns)),
            unit="subjects with seizures",
        )
    ]
    return Claim(
        id="best_f1_not_most_consistent",
        statement="The algorithm with the best aggregate event F1 is not the one with the best mean per-subject rank "
        "(95 % bootstrap interval over the subjects of its mean rank minus the best other's above the practical "
        f"margin, {rank_point(len(ranks.columns)):g} rank)",
        paper_value="the highest-F1 algorithms did not achieve the most consistent ranking across subjects",
        measured={
            "best_aggregate_f1": str(best_f1.algorithm),
            "its_aggregate_f1": float(best_f1.aggregate_f1),
            "its_mean_rank": float(best_f1.mean_rank),
            "best_mean_rank": str(best_rank.algorithm),
            "best_mean_rank_value": float(best_rank.mean_rank),
            "kendall_w": concordance["kendall_w"],
            "kendall_tau": concordance["kendall_tau"],
            "rank_gap_to_best_other": found[0].estimate,
        },
        comparator="none",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"held-out protocol, {concordance['subjects']} subjects with seizures; the lowest rank IQR "
        f"belongs to {lowest_iqr.algorithm} ({lowest_iqr.rank_iqr:g})",
        headline=f"best aggregate F1: {best_f1.algorithm} "
        f"({best_f1.aggregate_f1:.3f}, mean rank {best_f1.mean_rank:.2f}); "
        f"best mean rank: {best_rank.algorithm} ({best_rank.mean_rank:.2f}); Kendall's W "
        f"{_number(concordance['kendall_w'])} (paper: the highest-F1 algorithms were not the most consistent)",
        evidence=["tables/rank_stability.csv", "tables/per_subject.csv", "figures/ranks.png", "figures/subject_f1.png"],
    )


def published_top_f1(published: pd.DataFrame) -> Claim:
    top = published.iloc[0]
    variants = {"mean_of_subject_f1": float(top.event_f1), "f1_of_mean_sens_prec": float(top.event_f1_from_means)}
    matches = [k for k, v in variants.items() if abs(v - PAPER_TOP["f1"]) <= PUBLISHED_TOL]
    s, p = PAPER_TOP["sensitivity"], PAPER_TOP["precision"]
    return Claim(
        id="published_top_event_f1",
        statement=f"The top entry's event F1 in the published results is {PAPER_TOP['f1']} (within "
        f"{PUBLISHED_TOL}) under one of the two aggregations",
        paper_value=PAPER_TOP,
        measured={
            "entry": str(top.algorithm),
            **variants,
            "sensitivity": float(top.event_sensitivity),
            "precision": float(top.event_precision),
            "matching_variants": matches,
        },
        comparator="<=",
        state=decide(exact=bool(matches)),
        interval=DETERMINISTIC,
        premises_note="numbers read from the published results file: nothing presupposed",
        note=f"the paper's own numbers satisfy the harmonic-mean form (2*{s}*{p}/({s}+{p}) = "
        f"{2 * s * p / (s + p):.3f}); the JSON's sensitivity matches the paper's but its precision "
        f"({top.event_precision:.3f}) does not",
        headline=f"{top.algorithm}: mean of per-subject F1 {variants['mean_of_subject_f1']:.3f}, "
        "F1 of mean sensitivity "
        f"and precision {variants['f1_of_mean_sens_prec']:.3f}; sensitivity {top.event_sensitivity:.3f}, "
        f"precision {top.event_precision:.3f} (paper: F1 {PAPER_TOP['f1']}, S {s}, P {p})",
        evidence=["tables/published_leaderboard.csv", "figures/published_datasets.png"],
    )


def published_entries_vary(published: pd.DataFrame, subjects: int = PUBLISHED_SUBJECTS) -> Claim:
    """The best published entry against the median one (by event F1, among the entries that report one): their
    difference on Welch's interval from the per-subject means and standard deviations (unpaired: the per-subject
    results are not published, and ignoring the pairing widens the interval when entries' F1 correlate)."""
    ranked = published.dropna(subset=["event_f1", "event_f1_std"]).sort_values("event_f1", ascending=False)
    top, median = ranked.iloc[0], ranked.iloc[len(ranked) // 2]
    found = intervals.difference_from_summary(
        "top_minus_median_event_f1",
        (float(top.event_f1), float(top.event_f1_std), subjects),
        (float(median.event_f1), float(median.event_f1_std), subjects),
        margin=POINT,
        unit="subjects",
    )
    return Claim(
        id="published_entries_vary",
        statement="The published entries' performance varies significantly: the best entry's per-subject mean event F1 "
        f"exceeds the median entry's (95 % Welch interval over the {subjects} evaluation subjects, from the published "
        f"means and standard deviations, above the practical margin {POINT:g})",
        paper_value="significant performance variability among state-of-the-art approaches",
        measured={
            "top_minus_median_event_f1": round(found.estimate, 4),
            "top": {"entry": str(top.algorithm), "event_f1": round(float(top.event_f1), 4)},
            "median": {"entry": str(median.algorithm), "event_f1": round(float(median.event_f1), 4)},
            "entries": len(ranked),
        },
        comparator=">",
        state=decide([found]),
        interval=[found],
        premises_note="numbers read from the published results file: nothing presupposed",
        headline=f"best entry {top.algorithm} {top.event_f1:.3f} vs median entry {median.algorithm} "
        f"{median.event_f1:.3f} of {len(ranked)}: difference {found.estimate:+.3f} "
        f"[{found.low:+.3f}, {found.high:+.3f}] (paper: significant variability)",
        evidence=["tables/published_leaderboard.csv", "figures/leaderboard.png"],
    )


def metrics(board: pd.DataFrame, gap: pd.DataFrame, concordance: dict, published: pd.DataFrame) -> dict:
    def clean(v):
        return None if pd.isna(v) else float(v)

    return {
        "heldout_event": {
            r.algorithm: {
                k: clean(getattr(r, f"event_{k}"))
                for k in ("f1", "f1_std", "sensitivity", "precision", "fp_per_day", "f1_from_means")
            }
            for r in board.itertuples()
        },
        "heldout_sample_f1": {r.algorithm: clean(r.sample_f1) for r in board.itertuples()},
        "within_minus_heldout_f1": {r.algorithm: clean(r.f1_gap) for r in gap.itertuples()},
        "ranking": concordance,
        "published_top": {
            "entry": str(published.iloc[0].algorithm),
            "f1": clean(published.iloc[0].event_f1),
            "f1_from_means": clean(published.iloc[0].event_f1_from_means),
            "entries": int(len(published)),
            "median_f1": clean(np.nanmedian(published["event_f1"])),
        },
    }
