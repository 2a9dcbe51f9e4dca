"""The spec's four claims, judged from the run tables.

The abstract states them without numbers ("establishes new state-of-the-art performance and generates highly
interpretable prompts under a strict budget of API calls"), so the criteria are ours, fixed before any quick run:
- *beats the baselines*: the full method (CRL-BPT, ``e_a = 2``, EMA normalisation) against the best human
  template, random search over the agent's prior and plain REINFORCE, each with the same budget: the 95 %
  bootstrap interval (seeds and test images) of the difference in the best template's test accuracy lies above
  zero for every baseline;
- *readable*: at least ``READABLE`` of the full method's generated templates parse as templates
  (:func:`.grammar.readable`) and every seed's best template does;
- *control variate lowers reward variance*: in every seed of REINFORCE + control variate, the calibrated rewards
  vary less than the raw ones over the same calls (after the EMAs' warm-up steps);
- *curriculum beats fixed weights*: the full method against the same losses at fixed weights, interval above zero.

Intervals: the comparisons on Student's t over the search seeds with the test images' paired variance
(``common.bootstrap``); readability on
Student's t over the seeds' readable fractions (a run drifts into word salad or does not); the variance ratio on
Student's t over the seeds.

Premises (fixed before the rerun that introduced them, 2026-12-03; docs/papers/crl_bpt.md), from the paper's
setting -- a black box whose accuracy depends on the prompt, and room above what cheap search already finds:

- *templates matter*: the black box's best calibration template beats its plain baseline template by at least
  :data:`TEMPLATES_MATTER` (both comparison claims);
- *headroom over random search*: the best calibration template beats random search over the agent's prior by
  at least :data:`HEADROOM` (the baselines claim): where random search already sits at the ceiling, no method can
  beat it by much.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common import intervals
from ..common.claims import INCONCLUSIVE, Claim, Premise, decide, not_evaluated, premise
from ..common.criteria import POINT
from ..common.tolerance import Tolerance

# How far the committed numbers may move on another machine (make verify). Measured at quick scale: one standard
# error over the three search seeds of a method's mean test accuracy is at most 0.055 (+ imitation: one seed kept
# a template naming only the finish), and retraining the black box from seeds 1 and 2 moves the best human
# template's accuracy with a standard deviation of 0.082; the larger bounds a mean, sqrt(2) x it a difference.
# One black box's accuracies are single draws: the templates that pin the colours down (the baseline, the full
# domain) move by at most 0.015 over black-box seeds, the ambiguous ones (era or finish only, the best human)
# by up to 0.18 (how the encoder resolves an ambiguity). Per-seed variance ratios: their largest standard
# deviation over seeds, 0.097; readable fractions: one standard error, 0.27 (a run either drifts into word
# salad or does not). RL on a tiny agent is chaotic, so these are wide: across machines the promise is the
# verdicts.
SPREAD = 0.082
_SEEDS = "spread over search seeds and black-box seeds at quick scale (verdict.py)"
TOLERANCES = [
    ("metrics/test_accuracy/*", Tolerance(abs=SPREAD, why=_SEEDS)),
    ("metrics/normalisation/*", Tolerance(abs=SPREAD, why=_SEEDS)),
    ("metrics/test_accuracy_sd/*", Tolerance(abs=0.095, why="the largest standard deviation over seeds")),
    ("metrics/black_box/baseline", Tolerance(abs=0.02, why="black-box seeds: a template that fixes the colours")),
    ("metrics/black_box/names the domain in full", Tolerance(abs=0.02, why="black-box seeds")),
    ("metrics/black_box/*", Tolerance(abs=0.18, why="black-box seeds: an ambiguous template")),
    ("claims/prompts_readable/measured/readable_fraction", Tolerance(abs=0.27, why=_SEEDS)),
    ("claims/prompts_readable/measured/distinct_readable", Tolerance(rel=0.3, why=_SEEDS)),
    ("claims/control_variate_reduces_variance/measured/*", Tolerance(abs=0.1, why=_SEEDS)),
    ("claims/control_variate_reduces_variance/details/*", Tolerance(abs=0.23, why=_SEEDS)),
    ("claims/*/measured/*", Tolerance(abs=round(SPREAD * 2**0.5, 2), why=_SEEDS + ", sqrt(2) x for a difference")),
]

FULL = "crl_bpt_e2"
BASELINES = ("human_best", "random_search", "reinforce")
FIXED = "cv_imitation_innovation"
CONTROLLED = "reinforce_cv"
VARIANCE_RATIO = 1.0  # var(calibrated) / var(raw) below this: the control variate lowers the variance
READABLE = 0.9  # ours: "highly interpretable" read as at least nine in ten generated templates readable
PAPER_BEATS = "new state of the art under a strict budget of API calls (beats every baseline)"
TEMPLATES_MATTER = 0.1  # ours: the best template beats the plain one by 10 points of accuracy
HEADROOM = 0.05  # ours: 5 points of accuracy left above random search
WHY_TEMPLATES = (
    "prompt search presupposes a black box whose accuracy depends on the template; if the best template barely "
    "beats the plain one, no search can show a difference"
)
WHY_HEADROOM = (
    "beating random search presupposes accuracy left above it; if random search over the agent's prior already "
    "sits at the best template's accuracy, no method can beat it by a measurable margin"
)


def headroom(calibration: pd.DataFrame, accuracy: pd.DataFrame) -> list[Premise]:
    """The two premises: templates matter for the black box; room above random search (its mean over seeds)."""
    best = float(calibration["test_accuracy"].max())
    plain = float(calibration.loc[calibration["kind"] == "baseline", "test_accuracy"].max())
    random = accuracy.loc[accuracy["method"] == "random_search", "test_accuracy"]
    room = best - float(random.mean()) if len(random) else float("nan")
    return [
        premise("best template minus the plain template", best - plain, TEMPLATES_MATTER, ">=", WHY_TEMPLATES),
        premise("best template minus random search", room, HEADROOM, ">=", WHY_HEADROOM),
    ]


def _rows(comparisons: pd.DataFrame, method: str, baselines) -> pd.DataFrame:
    rows = comparisons[(comparisons["method"] == method) & comparisons["baseline"].isin(baselines)]
    return rows.sort_values("baseline")


def _beats(comparisons, method, baselines, premises, *, claim_id, statement, paper_value, lead) -> Claim:
    rows = _rows(comparisons, method, baselines)
    missing = sorted(set(baselines) - set(rows["baseline"]))
    if rows.empty or missing:
        note = f"{method} or {', '.join(missing or baselines)} were not run at this scale"
        return not_evaluated(claim_id, statement, paper_value, note, EVIDENCE_BEATS, premises=premises)
    found = [
        intervals.from_difference(f"{r.method} - {r.baseline}/difference", r, margin=POINT) for r in rows.itertuples()
    ]
    state = decide(found, premises=premises)
    shown = "; ".join(f"vs {r.baseline} {r.difference:+.3f} [{r.low:+.3f}, {r.high:+.3f}]" for r in rows.itertuples())
    seeds = int(found[0].method.split()[2]) if found[0].method.startswith("t over") else 3
    decide_by = (
        "; to decide: "
        + ", ".join(
            f"vs {r.baseline} {i.to_decide(seeds)}" for r, i in zip(rows.itertuples(), found) if i.state == INCONCLUSIVE
        )
        if state == INCONCLUSIVE
        else ""
    )
    headline = f"{lead}, test accuracy of the best template [95 % interval]: {shown}{decide_by}"
    return Claim(
        id=claim_id,
        statement=statement
        + " (95 % interval of the difference in the best template's test accuracy above the practical margin, "
        f"{POINT:g})",
        paper_value=paper_value,
        measured={
            f"{r.method} - {r.baseline}": {"difference": r.difference, "low": r.low, "high": r.high}
            for r in rows.itertuples()
        },
        comparator="all",
        state=state,
        interval=found,
        premises=premises,
        headline=headline,
        evidence=EVIDENCE_BEATS,
    )


EVIDENCE_BEATS = ["tables/comparisons.csv", "tables/accuracy.csv", "figures/accuracy_vs_calls.png"]


def beats_baselines(comparisons: pd.DataFrame, premises: list[Premise]) -> Claim:
    return _beats(
        comparisons,
        FULL,
        BASELINES,
        premises,
        claim_id="crl_bpt_beats_baselines",
        statement="Full CRL-BPT beats the best human template, random search and REINFORCE under the same call budget",
        paper_value=PAPER_BEATS,
        lead="CRL-BPT minus baseline",
    )


def curriculum_beats_fixed(comparisons: pd.DataFrame, premises: list[Premise]) -> Claim:
    return _beats(
        comparisons,
        FULL,
        (FIXED,),
        premises,
        claim_id="curriculum_beats_fixed_weights",
        statement="The curriculum weights beat fixed imitation and innovation weights (same losses, same budget)",
        paper_value="the dynamic curriculum schedule improves over static weighting (ablation)",
        lead="CRL-BPT (curriculum) minus fixed weights",
    )


READABLE_STATEMENT = (
    f"The full method's generated prompts are readable: at least {READABLE:.0%} contain exactly one class slot and "
    "parse as templates, and every seed's best prompt does"
)
PAPER_READABLE = "generates highly interpretable (human-readable) prompts"
VARIANCE_STATEMENT = (
    "Relative reward calibration lowers the reward variance: var(calibrated) / var(raw) over the same calls below 1 "
    f"by the practical margin {POINT:g} (95 % interval over the seeds of REINFORCE + control variate)"
)
PAPER_VARIANCE = "relative reward calibration stabilises training (lower reward variance)"


def _not_run(claim_id: str, statement: str, paper_value: str, method: str, evidence: str) -> Claim:
    return not_evaluated(claim_id, statement, paper_value, f"{method} was not run at this scale", [evidence])


def readable(readability: pd.DataFrame) -> Claim:
    """At least ``READABLE`` of the full method's generated templates readable, and every seed's best one."""
    rows = readability[readability["method"] == FULL].sort_values("seed")
    if rows.empty:
        return _not_run("prompts_readable", READABLE_STATEMENT, PAPER_READABLE, FULL, "tables/readability.csv")
    fraction = float(rows["readable"].sum() / rows["generated"].sum())
    best_ok = bool(rows["best_readable"].all())
    found = [
        # a run drifts into word salad or does not, so the seed is the unit, not the template
        intervals.bounded(
            intervals.over_seeds("readable_fraction_by_seed", rows["readable"] / rows["generated"], READABLE, ">="),
            0.0,
            1.0,
        ),
        intervals.exact(
            "best_readable_share",
            float(rows["best_readable"].mean()),
            1.0,
            ">=",
            "a count over the seeds' best templates",
        ),
    ]
    return Claim(
        id="prompts_readable",
        statement=READABLE_STATEMENT,
        paper_value=PAPER_READABLE,
        measured={
            "readable_fraction": fraction,
            "best_templates_readable": best_ok,
            "distinct_readable": int(rows["distinct_readable"].sum()),
            "best_readable_share": float(rows["best_readable"].mean()),
            "readable_fraction_by_seed": float((rows["readable"] / rows["generated"]).mean()),
        },
        comparator=">=",
        state=decide(found),
        interval=found,
        premises_note="readability is a property of the generated text alone: nothing presupposed",
        headline=(
            f"{fraction:.1%} of {int(rows['generated'].sum())} generated templates readable (need {READABLE:.0%}); "
            f"best templates readable in {int(rows['best_readable'].sum())} of {len(rows)} seeds "
            "(paper: highly interpretable prompts)"
        ),
        evidence=["tables/readability.csv", "figures/readability.png"],
    )


VARIANCE_ID = "control_variate_reduces_variance"
WHY_VARIES = (
    "a control variate lowers a variance that is there: where a seed's raw rewards are constant (every template "
    "invalid, as a random-weight agent in a byte-level tokenizer writes them) var(calibrated) / var(raw) is undefined"
)


WHY_CORRELATED = (
    "the control variate subtracts a multiple of the baseline template's reward, so it can lower the variance only "
    "as far as that reward moves with the sampled ones (a fraction rho^2 at the best alpha): uncorrelated, it has "
    "nothing to remove, and a ratio near 1 says nothing about calibration (fixed 2026-12-05, issue 66, before the "
    "correlation was first measured)"
)


def variance_reduced(variance: pd.DataFrame) -> Claim:
    """In every seed of REINFORCE + control variate, var(R) < var(r) over the same calls."""
    rows = variance[variance["method"] == CONTROLLED].sort_values("seed")
    if rows.empty:
        return _not_run(
            "control_variate_reduces_variance", VARIANCE_STATEMENT, PAPER_VARIANCE, CONTROLLED, "tables/variance.csv"
        )
    ratios = {f"seed {r.seed}": r.ratio for r in rows.itertuples()}
    varies = premise("smallest per-seed variance of the raw rewards", rows["var_reward"].min(), 0.0, ">", WHY_VARIES)
    correlated = premise(
        "smallest per-seed correlation of the raw rewards with the baseline reward",
        rows["reward_baseline_correlation"].min(),
        0.0,
        ">",
        WHY_CORRELATED,
    )
    defined = rows["ratio"][np.isfinite(rows["ratio"])]
    if defined.empty:
        note = "no seed's raw rewards varied, so var(calibrated) / var(raw) is undefined in every seed"
        evidence = ["tables/variance.csv"]
        return not_evaluated(VARIANCE_ID, VARIANCE_STATEMENT, PAPER_VARIANCE, note, evidence, premises=[varies])
    found = [intervals.over_seeds("mean_ratio", defined, VARIANCE_RATIO, "<", margin=POINT)]
    state = decide(found, premises=[varies, correlated])
    return Claim(
        id="control_variate_reduces_variance",
        statement=VARIANCE_STATEMENT,
        paper_value=PAPER_VARIANCE,
        measured={**ratios, "mean_ratio": found[0].estimate},
        comparator="<",
        state=state,
        interval=found,
        premises=[varies, correlated],
        details={
            "alpha_mean": dict(zip(rows["seed"].astype(str), rows["alpha_mean"])),
            "reward_baseline_correlation": dict(zip(rows["seed"].astype(str), rows["reward_baseline_correlation"])),
        },
        headline=(
            "var(calibrated) / var(raw reward) per seed: "
            + ", ".join(f"{r:.3f}" for r in ratios.values())
            + f" (mean alpha {rows['alpha_mean'].mean():.2f}; paper: lower variance)"
            + (f"; to decide: {found[0].to_decide(len(rows))}" if state == INCONCLUSIVE else "")
        ),
        evidence=["tables/variance.csv", "figures/reward_variance.png"],
    )
