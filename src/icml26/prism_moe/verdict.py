"""The spec's claims, judged from the tables.

The paper states them without numbers on our scenes (its own are PASCAL-Context and NYUD-v2 with DINOv2, CLIP and
SAM teachers), so the criteria are ours, fixed before the first quick run:
- *the teachers conflict* (the premise, checked first): in the second half of stage 1 of the monolithic
  student, the gradients of at least one pair of teachers' distillation losses on the shared parameters have a
  negative mean cosine: Student's t interval over the seeds, Bonferroni-adjusted for the three pairs, below the
  practical margin -0.02 (holds); every pair's above it does not hold; otherwise inconclusive;
- *PRISM beats monolithic distillation*: the 95 % bootstrap interval (seeds and test images) of Delta_m(PRISM)
  minus Delta_m(dense multi-teacher distillation) lies above the practical margin, one point;
- *experts specialise by teacher*: in stage 1, in every seed and MoE block, the mutual information between a
  token's teacher condition and its top-1 expert exceeds every one of the permutation null's draws, and its
  mean normalised MI is at least ``SPECIALISED`` (ours: a tenth of the condition's entropy);
- *recomposition assembles task-specific pathways*: the same in stage 2 with the task condition (the swap test
  is reported beside it, not counted: below).

Intervals: with fewer than five seeds a bootstrap over seeds has few distinct resamples, so Delta_m and its
differences are Student's t over the seeds widened by the test images' bootstrap variance (``rules.tables``);
specialisation on Student's t over the seed x block cases of the normalised MI, the permutation test's count exact.

Premises of *PRISM beats monolithic distillation* (docs/papers/prism_moe.md): the teachers conflict (the first
claim holds: without conflict there is no negative transfer for PRISM to reduce; fixed 2026-12-03, session 18) and
every teacher is useful (fixed 2026-12-03, session 20, before the rerun with three seeds and 400 labelled scenes;
it was "at least one"): a student distilled from that teacher alone beats the student trained from scratch on the
tasks the teacher's objective teaches (``methods.KNOWS``; Delta_m over those tasks above zero, seed means).

*Task-specific pathways* no longer counts the swap test (each task read from another task's pathway loses
Delta_m): any trained routed model fails it, since its task heads were trained on their own pathways, so it tells
nothing about how the router assembled them (issue 52). The number stays in the claim's details.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

from ..common import intervals
from ..common.claims import HOLDS, Claim, Interval, Premise, decide, not_evaluated, premise
from ..common.criteria import DELTA_M_POINT, SIGNED_POINT
from ..common.tolerance import Tolerance
from .methods import KNOWS, OBJECTIVES, REFERENCE
from .metrics import delta_m
from .tasks import METRICS

SPECIALISED = 0.1  # ours: mean NMI of at least a tenth of the condition entropy counts as "well above chance"
PRISM, DENSE, SWAPPED = "prism", "dense", "prism_swapped"
PAPER_DELTA = "PRISM beats monolithic multi-teacher distillation (negative transfer reduced), new state of the art"
PAPER_TEACHER = "experts specialise in distinct representational subspaces per teacher (teacher-conditional router)"
PAPER_TASK = "the router assembles the experts into tailored computational pathways for downstream tasks"
PAPER_CONFLICT = "feature conflicts between vision foundation models cause negative transfer in monolithic distillation"

# How far the committed numbers may move on another machine (make verify): one seed's standard deviation, the
# largest over the quick seeds among the methods (2026-12-03 run, three seeds for the claims' methods, one for the
# two baselines, so a one-seed number must fit too): Delta_m 2.5 points; mIoU 0.011, depth RMSE 0.007, edge F1
# 0.017, normal angle 0.12 degrees; sqrt(2) x for a difference. Reading tasks from another task's pathway is far
# more variable (Delta_m -12, -24 and -50 in the three seeds). Routing: the NMI's and MI's standard deviation over
# seeds (0.10, 0.17 bits); gradient cosines: their largest standard deviation over seeds (0.052). Students this
# small, trained for 1,000 steps, differ by seed as much as by method: across machines the promise is the verdicts.
SPREAD = 2.5  # Delta_m points
_SEEDS = "spread over the quick seeds (verdict.py)"
TOLERANCES = [
    ("metrics/delta_m/prism_swapped", Tolerance(abs=25.0, why=_SEEDS + ": another task's pathway")),
    ("metrics/metrics/prism_swapped/*", Tolerance(rel=0.5, why=_SEEDS + ": another task's pathway")),
    ("metrics/delta_m/*", Tolerance(abs=SPREAD, why=_SEEDS)),
    ("metrics/metrics/*/miou", Tolerance(abs=0.011, why=_SEEDS)),
    ("metrics/metrics/*/depth_rmse", Tolerance(abs=0.007, why=_SEEDS)),
    ("metrics/metrics/*/edge_f1", Tolerance(abs=0.017, why=_SEEDS)),
    ("metrics/metrics/*/normal_angle", Tolerance(abs=0.12, why=_SEEDS)),
    ("metrics/specialisation_nmi/*", Tolerance(abs=0.10, why=_SEEDS)),
    ("claims/teachers_conflict/*", Tolerance(abs=0.052, why=_SEEDS)),
    (
        "claims/prism_beats_dense_distillation/measured/*",
        Tolerance(abs=round(SPREAD * 2**0.5, 1), why=_SEEDS + ", sqrt(2) x"),
    ),
    ("claims/prism_beats_dense_distillation/details/*", Tolerance(abs=SPREAD, why=_SEEDS)),
    ("claims/*/measured/mean_nmi", Tolerance(abs=0.10, why=_SEEDS)),
    ("claims/*/measured/mean_mi_bits", Tolerance(abs=0.17, why=_SEEDS)),
    ("claims/*/details/swap_*", Tolerance(abs=25.0, why=_SEEDS + ": another task's pathway")),
    ("claims/*/details/null_max_bits", Tolerance(abs=0.001, why="permutation draws")),
]


WHY_CONFLICT = "PRISM reduces negative transfer between conflicting teachers: without conflict there is none to reduce"
WHY_USEFUL = (
    "combining teachers presupposes that each has knowledge to pass on: a teacher whose student alone loses to "
    "training from scratch on the very tasks its objective teaches adds noise, not a view to reconcile"
)
NO_PREMISE = "a property of the trained router and its tables: nothing presupposed beyond training"


def known(teacher: str, delta: pd.DataFrame) -> tuple[str, ...]:
    """The tasks of the data set (the metrics ``delta`` has) that ``teacher``'s objective teaches."""
    return tuple(t for t in KNOWS[teacher] if METRICS[t] in delta)


def usefulness(delta: pd.DataFrame) -> dict[str, float]:
    """Delta_m of each single-teacher student against scratch over the tasks its teacher knows (seed means of the
    metrics; NaN where that student or scratch was not run)."""
    means = delta.set_index("method")
    metrics = [m for m in METRICS.values() if m in delta]
    found = {}
    for teacher in OBJECTIVES:
        single = f"single_{teacher}"
        if single not in means.index or REFERENCE not in means.index:
            found[teacher] = float("nan")
            continue
        own, reference = (means.loc[m, metrics].astype(float).to_dict() for m in (single, REFERENCE))
        found[teacher] = float(delta_m(own, reference, known(teacher, delta)))
    return found


def premises(conflict: Claim, delta: pd.DataFrame) -> list[Premise]:
    """The premises of the distillation claim: the teachers conflict, and each teacher alone beats scratch on
    the tasks it knows."""
    useful = usefulness(delta)
    return [
        Premise(
            "teachers conflict (claim teachers_conflict holds)",
            conflict.state,
            HOLDS,
            "==",
            conflict.state == HOLDS,
            WHY_CONFLICT,
        ),
        *(
            premise(
                f"{teacher} teacher useful: its single-teacher student's Delta_m against scratch on "
                f"{', '.join(known(teacher, delta))}",
                value,
                0.0,
                ">",
                WHY_USEFUL,
            )
            for teacher, value in useful.items()
        ),
    ]


def _pair_interval(pair: str, seed_means: pd.Series, pairs: int) -> Interval:
    """Student's t interval over the seeds of one pair's mean cosine, Bonferroni-adjusted for ``pairs`` pairs."""
    values = seed_means.to_numpy(float)
    level = 1 - 0.05 / pairs
    mean = float(values.mean())
    if len(values) < 2:
        low, high = -float("inf"), float("inf")
    else:
        half = float(stats.t.ppf((1 + level) / 2, len(values) - 1) * values.std(ddof=1) / len(values) ** 0.5)
        low, high = mean - half, mean + half
    dof = len(values) - 1 if len(values) > 1 else None
    method = f"t over {len(values)} seeds, Bonferroni over {pairs} pairs"
    return Interval(pair, mean, low, high, 0.0, "<", method, level, margin=SIGNED_POINT, dof=dof)


def _comparison(comparisons: pd.DataFrame, a: str, b: str):
    rows = comparisons[(comparisons["method"] == a) & (comparisons["baseline"] == b)]
    return None if rows.empty else rows.iloc[0]


def teachers_conflict(conflict: pd.DataFrame) -> Claim:
    statement = (
        "The teachers conflict: in the second half of stage 1 of the monolithic (dense) student, the gradients of at "
        "least one pair of teachers' distillation losses have a negative mean cosine (Student's t over the seeds, "
        f"Bonferroni over the pairs, below -{SIGNED_POINT:g}, the practical margin)"
    )
    evidence = ["tables/conflict.csv", "figures/conflict.png"]
    rows = conflict[(conflict["method"] == DENSE) & (conflict["phase"] == "second half")]
    if rows.empty:
        return not_evaluated("teachers_conflict", statement, PAPER_CONFLICT, "dense was not run", evidence, ">")
    worst = rows.groupby("pair")["mean"].max()
    means = rows.groupby("pair")["mean"].mean()
    by_pair = {pair: _pair_interval(pair, g["mean"], rows["pair"].nunique()) for pair, g in rows.groupby("pair")}
    # any pair conflicting is enough: the deciding interval is one below zero if there is one, else one that
    # straddles, else (all above) the lowest
    ranked = sorted(by_pair.values(), key=lambda i: ({"holds": 0, "inconclusive": 1}.get(i.state, 2), i.estimate))
    found = [ranked[0]]
    return Claim(
        id="teachers_conflict",
        statement=statement,
        paper_value=PAPER_CONFLICT,
        measured={pair: float(v) for pair, v in means.items()},
        comparator="<",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        details={
            "highest_seed_mean": {pair: float(v) for pair, v in worst.items()},
            "interval_by_pair": {pair: [i.low, i.high] for pair, i in by_pair.items()},
        },
        headline="mean gradient cosine between teachers (second half of stage 1, dense student): "
        + ", ".join(f"{pair} {i.estimate:+.3f} [{i.low:+.3f}, {i.high:+.3f}]" for pair, i in by_pair.items())
        + f" (a conflict needs an interval below -{SIGNED_POINT:g})",
        evidence=evidence,
    )


def prism_beats_dense(comparisons: pd.DataFrame, delta: pd.DataFrame, premised: list[Premise]) -> Claim:
    statement = (
        "PRISM beats monolithic multi-teacher distillation on the multi-task Delta_m (95 % interval of the "
        f"difference above the practical margin, {DELTA_M_POINT:g} point; Delta_m against the multi-task student "
        "from scratch)"
    )
    evidence = ["tables/comparisons.csv", "tables/delta_m.csv", "figures/delta_m.png"]
    row = _comparison(comparisons, PRISM, DENSE)
    if row is None:
        note = "prism or dense was not run"
        return not_evaluated("prism_beats_dense_distillation", statement, PAPER_DELTA, note, evidence, ">")
    by = delta.set_index("method")["delta_m"]
    singles = {m: float(v) for m, v in by.items() if m.startswith("single_")}
    found = [intervals.from_difference("difference", row, margin=DELTA_M_POINT)]
    return Claim(
        id="prism_beats_dense_distillation",
        statement=statement,
        paper_value=PAPER_DELTA,
        measured={"difference": float(row.difference), "low": float(row.low), "high": float(row.high)},
        comparator=">",
        state=decide(found, premises=premised),
        interval=found,
        premises=premised,
        details={
            "delta_m": {m: float(v) for m, v in by.items()},
            "best_single_teacher": max(singles.values(), default=None),
        },
        headline=(
            f"Delta_m PRISM {by[PRISM]:+.2f} % vs dense distillation {by[DENSE]:+.2f} %: difference "
            f"{row.difference:+.2f} [{row.low:+.2f}, {row.high:+.2f}] points (paper: PRISM ahead)"
        ),
        evidence=evidence,
    )


def _specialised(rows: pd.DataFrame) -> tuple[list[Interval], float, int]:
    """The permutation test's count (exact) and Student's t over the seed x block cases of the normalised MI."""
    above = int((rows["mi_bits"] > rows["null_max"]).sum())
    found = [
        intervals.exact("above_null_share", above / len(rows), 1.0, ">=", "exact permutation test per case"),
        intervals.bounded(
            intervals.over_seeds("mean_nmi", rows["nmi"], SPECIALISED, ">=", unit="seed x block cases"), 0, 1
        ),
    ]
    return found, found[1].estimate, above


def experts_specialise(specialisation: pd.DataFrame) -> Claim:
    statement = (
        f"In stage 1 the experts specialise by teacher: MI(teacher; top-1 expert) above every permutation-null draw "
        f"in every seed and block, mean normalised MI >= {SPECIALISED}"
    )
    evidence = ["tables/specialisation.csv", "tables/routing.csv", "figures/routing.png", "figures/specialisation.png"]
    rows = specialisation[(specialisation["method"] == PRISM) & (specialisation["stage"] == "stage1")]
    if rows.empty:
        return not_evaluated(
            "experts_specialise_by_teacher", statement, PAPER_TEACHER, "prism was not run", evidence, ">"
        )
    found, nmi, above = _specialised(rows)
    return Claim(
        id="experts_specialise_by_teacher",
        statement=statement,
        paper_value=PAPER_TEACHER,
        measured={
            "mean_nmi": nmi,
            "mean_mi_bits": float(rows["mi_bits"].mean()),
            "above_null": f"{above} of {len(rows)}",
            "above_null_share": above / len(rows),
        },
        comparator=">=",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        details={"null_max_bits": float(rows["null_max"].max())},
        headline=(
            f"stage 1 MI(teacher; expert) {rows['mi_bits'].mean():.3f} bits (normalised {nmi:.3f}, need "
            f"{SPECIALISED}); above the permutation null's maximum ({rows['null_max'].max():.4f} bits) in {above} of "
            f"{len(rows)} seed x block cases"
        ),
        evidence=evidence,
    )


def task_pathways(specialisation: pd.DataFrame, comparisons: pd.DataFrame) -> Claim:
    statement = (
        "In stage 2 the router assembles task-specific pathways: MI(task; top-1 expert) above every permutation-null "
        f"draw in every seed and block with mean normalised MI >= {SPECIALISED}"
    )
    evidence = ["tables/specialisation.csv", "tables/comparisons.csv", "figures/routing.png"]
    rows = specialisation[(specialisation["method"] == PRISM) & (specialisation["stage"] == "stage2")]
    swap = _comparison(comparisons, PRISM, SWAPPED)
    if rows.empty or swap is None:
        return not_evaluated("task_specific_pathways", statement, PAPER_TASK, "prism was not run", evidence, ">")
    found, nmi, above = _specialised(rows)
    return Claim(
        id="task_specific_pathways",
        statement=statement,
        paper_value=PAPER_TASK,
        measured={"mean_nmi": nmi, "above_null": f"{above} of {len(rows)}", "above_null_share": above / len(rows)},
        comparator=">=",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="not counted: reading each task from another task's pathway (details, swap_*) -- any trained routed "
        "model loses there, its heads having been trained on their own pathways, so it cannot show the router "
        "assembling them",
        details={"swap_loss": float(swap.difference), "swap_low": float(swap.low), "swap_high": float(swap.high)},
        headline=(
            f"stage 2 normalised MI(task; expert) {nmi:.3f} (need {SPECIALISED}), above the null in {above} of "
            f"{len(rows)} seed x block cases (the swap test, {swap.difference:+.2f} Delta_m points, is not counted: "
            "any routed model fails it)"
        ),
        evidence=evidence,
    )
