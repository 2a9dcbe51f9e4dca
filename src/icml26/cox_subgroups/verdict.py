"""The spec's three claims, judged from the result tables (means over seeds).

Synth-Counter is judged, as in the paper, by the best volume F1 among each
method's candidates (an oracle selection; the min-EPE selection is reported
beside it). "A clear margin" on test EPE is ours: at least ``EPE_MARGIN`` = 0.05 nats
below Base (the paper's gap is 0.31). "Beats" is a strictly higher mean F1.
Pareto front: no other method has both a lower-or-equal mean rejection
fraction and a lower-or-equal mean test EPE, one of them strictly.

Evidence strength: the synthetic claims on Student's t intervals over the seeds
(replicate datasets) from the tables' means and standard deviations (Welch's
for differences; unpaired, so conservative). The Pareto claim per dataset on
Welch's intervals of DDGroup's differences to every other method on both axes
(:func:`front_bounds`): on the front when each other method is worse on one
axis beyond its interval, off it when one is better on both beyond theirs,
otherwise undecided.
"""

from __future__ import annotations

import pandas as pd

from ..common import intervals
from ..common.claims import INCONCLUSIVE, Claim, Interval, decide

F1_MIN = 0.85
EPE_MARGIN = 0.05
NO_PREMISE = "the paper's own synthetic designs and real datasets: nothing presupposed"


def _stats(row: pd.Series, metric: str) -> tuple[float, float, int]:
    return float(row[f"{metric}_mean"]), float(row[f"{metric}_std"]), int(row["seeds"])


PAPER_NONLINEAR = {
    "base": (0.29, 0.69, 0.54),
    "survival_tree": (0.28, 0.66, 0.59),
    "prim": (0.30, 0.69, 0.54),
    "cox_tree": (0.33, 0.64, 0.60),
    "dg_pl": (0.46, 0.64, 0.61),
    "random": (0.75, 0.56, 0.74),
    "dg_ci": (0.89, 0.39, 0.86),
    "dg_ne": (0.90, 0.29, 0.88),
    "dg": (0.97, 0.38, 0.87),
}
PAPER_COUNTER_F1 = {"base": 0.75, "dg_pl": 0.81, "dg_ci": 0.76, "dg": 0.94}


def _row(summary: pd.DataFrame, dataset: str, method: str) -> pd.Series:
    return summary[(summary["dataset"] == dataset) & (summary["method"] == method)].iloc[0]


def recovers_planted_subgroup(summary: pd.DataFrame) -> Claim:
    dg, base = _row(summary, "nonlinear", "dg"), _row(summary, "nonlinear", "base")
    found = [
        intervals.bounded(intervals.from_summary("dg/f1", *_stats(dg, "f1"), F1_MIN, ">="), 0.0, 1.0),
        intervals.difference_from_summary(
            "dg_minus_base_test_epe", _stats(dg, "test_epe"), _stats(base, "test_epe"), -EPE_MARGIN, "<="
        ),
    ]
    return Claim(
        id="dg_recovers_planted_subgroup",
        statement=f"On Synth-Nonlinear DDGroup recovers the planted box (mean volume F1 >= {F1_MIN}) and its test "
        f"EPE is at least {EPE_MARGIN} below Base's",
        paper_value={
            "dg": {"f1": 0.97, "test_epe": 0.38, "c_index": 0.87},
            "base": {"f1": 0.29, "test_epe": 0.69, "c_index": 0.54},
        },
        measured={
            m: {"f1": float(r.f1_mean), "test_epe": float(r.test_epe_mean), "c_index": float(r.test_c_index_mean)}
            for m, r in (("dg", dg), ("base", base))
        },
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"mean over {int(dg.seeds)} seeds",
        headline=f"DDGroup volume F1 {dg.f1_mean:.2f}, test EPE {dg.test_epe_mean:.2f} "
        f"vs Base {base.test_epe_mean:.2f} "
        f"(needs F1 >= {F1_MIN} and a {EPE_MARGIN} margin; paper: F1 0.97, EPE 0.38 vs 0.69)",
        evidence=["tables/synthetic.csv", "figures/synthetic.png"],
    )


# the practical margin of both Synth-Counter comparisons (criteria rule 2): under half the smallest gap the paper
# reports between DDGroup and a variant there (0.94 - 0.81 = 0.13). Fixed 2026-12-05 with the user-selection claim,
# before its first run; the paper-selection claim took it by the rule the same day, its numbers already seen.
F1_GAP_MARGIN = 0.05


def beats_variants_on_counter(summary: pd.DataFrame) -> Claim:
    """Judged with the paper's Synth-Counter selection: per replicate the best volume F1 among each method's
    candidates (an oracle: it selects with the planted box). The minimum-training-EPE selection, what a user
    without the planted box gets, is measured beside it and does not enter the verdict."""
    methods = ("dg", "dg_ci", "dg_pl", "base")
    rows = {m: _row(summary, "counter", m) for m in methods}
    best = {m: float(r.best_f1_mean) for m, r in rows.items()}
    spread = {m: float(r.best_f1_std) for m, r in rows.items()}
    min_epe = {m: float(r.f1_mean) for m, r in rows.items()}
    seeds = int(rows["dg"].seeds)
    found = [
        intervals.difference_from_summary(
            f"best_f1/dg_minus_{m}", _stats(rows["dg"], "best_f1"), _stats(rows[m], "best_f1"), margin=F1_GAP_MARGIN
        )
        for m in ("dg_ci", "dg_pl")
    ]
    return Claim(
        id="dg_beats_likelihood_and_c_index_variants_on_counter",
        statement="On Synth-Counter DDGroup's mean best-of-candidates volume F1 (the paper's selection) is higher "
        f"than both DG-CI's and DG-PL's, by at least {F1_GAP_MARGIN} (the practical margin)",
        paper_value=PAPER_COUNTER_F1,
        measured={
            "best_f1": best,
            "best_f1_sd": spread,
            "min_training_epe_f1": min_epe,
            "best_f1/dg_minus_dg_ci": found[0].estimate,
            "best_f1/dg_minus_dg_pl": found[1].estimate,
        },
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"mean (sd) over {seeds} replicates of the best volume F1 among each method's candidates: the paper's "
        "selection for this dataset (its §7.1), which uses the planted box to select and so is not available "
        "to a user; min_training_epe_f1 is the region the spec's rule selects without it",
        headline=f"Synth-Counter best-of-candidates F1 (selected with the planted box, as the paper does): "
        f"DDGroup {best['dg']:.2f}, DG-CI {best['dg_ci']:.2f}, DG-PL {best['dg_pl']:.2f}, Base {best['base']:.2f} "
        f"(paper: {PAPER_COUNTER_F1['dg']}, {PAPER_COUNTER_F1['dg_ci']}, {PAPER_COUNTER_F1['dg_pl']}, "
        f"{PAPER_COUNTER_F1['base']}); selected by min training EPE instead: DDGroup {min_epe['dg']:.2f}, "
        f"DG-CI {min_epe['dg_ci']:.2f}, DG-PL {min_epe['dg_pl']:.2f}",
        evidence=["tables/synthetic.csv", "figures/synthetic.png"],
    )


def beats_variants_on_counter_as_a_user_selects(summary: pd.DataFrame) -> Claim:
    """The same comparison with the subgroup a user can select, the minimum-training-EPE candidate (the spec's
    rule, no planted box): added 2026-12-05 (issue 66), before the rerun that judged it, so the claim the paper's
    oracle selection supports is read beside the one a user of the method gets."""
    methods = ("dg", "dg_ci", "dg_pl", "base")
    rows = {m: _row(summary, "counter", m) for m in methods}
    f1 = {m: float(r.f1_mean) for m, r in rows.items()}
    found = [
        intervals.difference_from_summary(
            f"f1/dg_minus_{m}", _stats(rows["dg"], "f1"), _stats(rows[m], "f1"), margin=F1_GAP_MARGIN
        )
        for m in ("dg_ci", "dg_pl")
    ]
    return Claim(
        id="dg_beats_variants_on_counter_as_a_user_selects",
        statement="On Synth-Counter DDGroup's mean volume F1 of the subgroup selected by minimum training EPE (what "
        f"a user without the planted box selects) is higher than both DG-CI's and DG-PL's, by at least "
        f"{F1_GAP_MARGIN} (the practical margin)",
        paper_value=PAPER_COUNTER_F1,
        measured={"f1": f1, "f1/dg_minus_dg_ci": found[0].estimate, "f1/dg_minus_dg_pl": found[1].estimate},
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"mean over {int(rows['dg'].seeds)} replicates; the paper reports only its oracle selection (the best "
        "candidate by F1 against the planted box: claim dg_beats_likelihood_and_c_index_variants_on_counter), so "
        "its numbers are context here, not the same quantity",
        headline=f"Synth-Counter F1 with the min-training-EPE selection: DDGroup {f1['dg']:.2f}, DG-CI "
        f"{f1['dg_ci']:.2f}, DG-PL {f1['dg_pl']:.2f}, Base {f1['base']:.2f} (the paper, oracle selection: "
        f"{PAPER_COUNTER_F1['dg']}, {PAPER_COUNTER_F1['dg_ci']}, {PAPER_COUNTER_F1['dg_pl']}, "
        f"{PAPER_COUNTER_F1['base']})",
        evidence=["tables/synthetic.csv", "figures/synthetic.png"],
    )


def pareto_front(points: pd.DataFrame) -> pd.Series:
    """Whether each (rejection, test_epe) point is undominated within its dataset."""
    flags = []
    for _, r in points.iterrows():
        others = points[(points["dataset"] == r.dataset) & (points["method"] != r.method)]
        dominated = (
            (others["rejection_mean"] <= r.rejection_mean)
            & (others["test_epe_mean"] <= r.test_epe_mean)
            & ((others["rejection_mean"] < r.rejection_mean) | (others["test_epe_mean"] < r.test_epe_mean))
        )
        flags.append(not bool(dominated.any()))
    return pd.Series(flags, index=points.index)


def front_bounds(real: pd.DataFrame, dataset: str) -> tuple[float, float]:
    """Bounds on the indicator "DDGroup is on the front" of one dataset under the seeds' noise: (1, 1) if every
    other method is worse than DDGroup on one axis (mean test EPE or mean rejection) beyond Welch's 95 % interval,
    (0, 0) if some method is better on both beyond theirs, else (0, 1). The point verdict lies between them."""
    rows = real[real["dataset"] == dataset].set_index("method")
    dg, beaten, dominated = rows.loc["dg"], True, False
    for method, other in rows.drop(index="dg").iterrows():
        better_for_dg, worse_for_dg = [], []
        for metric in ("test_epe", "rejection"):
            d = intervals.difference_from_summary(metric, _stats(dg, metric), _stats(other, metric), 0.0, "<")
            better_for_dg.append(d.high < 0)  # DDGroup lower (better) beyond the interval
            worse_for_dg.append(d.low > 0)
        beaten &= any(better_for_dg)
        dominated |= all(worse_for_dg)
    return (0.0, 0.0) if dominated else (1.0, 1.0) if beaten else (0.0, 1.0)


def on_pareto_front(real: pd.DataFrame) -> Claim:
    dg = real[real["method"] == "dg"].set_index("dataset")
    on = {d: bool(r.pareto) for d, r in dg.iterrows()}
    found = []
    for d, v in on.items():
        low, high = front_bounds(real, d)
        found.append(
            Interval(
                f"{d}/on_front",
                float(v),
                min(low, float(v)),
                max(high, float(v)),
                1.0,
                ">=",
                f"Welch t over {int(dg.loc[d, 'seeds'])} seeds on both axes against every other method",
            )
        )
    measured = {
        d: {"on_front": on[d], "rejection": float(r.rejection_mean), "test_epe": float(r.test_epe_mean)}
        for d, r in dg.iterrows()
    }
    return Claim(
        id="dg_on_epe_rejection_pareto_front",
        statement="On every real dataset DDGroup's selected subgroup is on the Pareto front of mean test EPE vs "
        "mean rejected fraction among all methods",
        paper_value="DG on the EPE-vs-rejection Pareto front",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"{sum(on.values())} of {len(on)} datasets on the front by the seed means; decided beyond the seeds' "
        f"noise on {sum(i.state != INCONCLUSIVE for i in found)}",
        headline=f"DDGroup on the EPE-vs-rejection Pareto front by the seed means on {sum(on.values())} of "
        f"{len(on)} real datasets"
        + (f" (off on {', '.join(d for d, v in on.items() if not v)})" if not all(on.values()) else "")
        + f"; beyond {int(dg['seeds'].min())} seeds' noise decided on "
        f"{sum(i.state != INCONCLUSIVE for i in found)} of {len(found)}" + " (paper: on the front)",
        evidence=["tables/real.csv", "figures/pareto.png"],
    )
