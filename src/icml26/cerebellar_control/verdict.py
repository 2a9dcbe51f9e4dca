"""The abstract's claims, judged from the returns table with thresholds fixed in the config.

* moderate faults: the cerebellar controller's mean relative improvement over the frozen policy, averaged
  over the moderate faults, is positive with a seed-bootstrap 95% interval above zero (the paper's "up to"
  number is compared with our best single fault);
* nominal: the controller's nominal return is within ``nominal_tolerance`` of the base policy's;
* severe faults: no severe fault costs the controller a catastrophic drop against the base (at least
  ``catastrophic_drop`` of the base's nominal return); removing meta-adaptation does cause one under at least one
  severe fault (the spec's reading, its own claim since 2026-12-06); the global-gradient residual drops further
  than the cerebellar controller (the abstract's "avoiding destabilizing global policy updates");
* consolidation: the policy with the residual distilled into it keeps a gain under the fault and its nominal return.

Premise (issue 66, fixed before the rerun of 2026-12-05, from the claims' setting, not their numbers): a fault
the controller is judged on must change what it controls, so each of the claim's faults moves the frozen base
policy's return by at least ``FAULT_EFFECT`` (1 %) of its nominal return; a fault that changes nothing (its return
equal to the nominal one) leaves nothing to compensate or to degrade gracefully from, and a claim over it is
"premise not met", whichever way the controller's numbers fall.

Evidence strength: the moderate-fault improvement on its seed-bootstrap interval (five adaptation seeds at quick
scale) above zero; the nominal return on its interval against both edges of the tolerance band; since 2026-12-06
the severe-fault worst drops and the consolidated policy's changes on seed-bootstrap intervals too (until then the
drops were seed means against the 25 % collapse line, judged as measured).
"""

from __future__ import annotations

import pandas as pd

from ..common.claims import Claim, Interval, Premise, decide, premise
from ..common.criteria import POINT
from ..common.tolerance import Tolerance

PAPER_IMPROVEMENT = {"HalfCheetah-v5": 0.66, "Humanoid-v5": 0.53}
NO_PREMISE = "the paper's own setting (a frozen PPO policy on MuJoCo under faults): nothing presupposed"
FAULT_EFFECT = 0.01  # premise: every judged fault moves the base policy's return by >= 1 % of its nominal return


def faults_take_effect(table: pd.DataFrame, level: str) -> Premise:
    """The smallest change, over the faults at ``level``, of the frozen base policy's return relative to its nominal
    return (each environment against its own): a fault that changes nothing cannot test a controller."""
    base = table[table.controller == "base"]
    nominal = base[base.level == "nominal"].set_index("env")["mean_return"]
    faulty = base[base.level == level]
    effects = {
        f"{r.env}/{r.fault}": abs(r.mean_return - nominal[r.env]) / abs(nominal[r.env]) for r in faulty.itertuples()
    }
    weakest = min(effects, key=effects.get)
    return premise(
        f"{level}_faults_change_the_base_return ({weakest} the least)",
        effects[weakest],
        FAULT_EFFECT,
        ">=",
        f"every {level} fault must change what the controller controls: the frozen policy's return moves by at least "
        f"{FAULT_EFFECT:.0%} of its nominal return under it (a fault that changes nothing cannot be compensated)",
    )


# make verify (icml26.common.verify). Which numbers a run gets depends, in the last bits, on the BLAS kernel:
# the forward model is a numpy ridge fit and the frozen policy, the forward model and the controller run
# numpy matrix products (OpenBLAS; torch's MKL is not involved). MuJoCo's dynamics over 1,000-step episodes
# amplify those bits, and because every adaptation seed shares the forward model, the change is systematic,
# not another draw of the seeds' noise: with OPENBLAS_CORETYPE=Sandybridge instead of Haswell (same machine,
# 2026-12-02) the nominal base return moved 4497 -> 4705 and 14 numbers moved beyond one standard error over
# the adaptation seeds, while all three verdicts stayed. So the tolerance is the spread of the whole chaotic
# pipeline: over four draws (base-policy seeds 0, 1, 2 under Haswell and seed 0 under Sandybridge; every
# verdict the same in all four) the largest standard deviation of each kind of number, times 2 sqrt 2 (two
# independent draws of a number differ by less than that with 95 % probability). Issue 22's moves (a
# relative improvement 0.054, the nominal change 0.0015) are far within; verdict flips fail regardless.
_WHY = "2 sqrt 2 x the largest sd over four draws of the chaotic pipeline (base seeds, BLAS kernel)"
TOLERANCES = [
    ("claims/moderate_fault_improvement/measured/*", Tolerance(abs=0.41, why=_WHY + " (sd 0.145)")),
    ("claims/moderate_fault_improvement/details/*", Tolerance(abs=6.9, why=_WHY + " (sd 2.43)")),
    ("claims/nominal_preserved/*", Tolerance(abs=0.039, why=_WHY + " (sd 0.0139)")),
    ("claims/graceful_degradation/*", Tolerance(abs=0.60, why=_WHY + " (sd 0.214)")),
    # the claims of 2026-12-06 (issue 78) read the same kinds of number, not yet drawn four times on their own:
    # a worst drop as graceful_degradation's, a relative return change as the moderate improvement's
    ("claims/meta_adaptation_prevents_collapse/*", Tolerance(abs=0.60, why=_WHY + ": graceful_degradation's")),
    ("claims/avoids_destabilising_global_updates/*", Tolerance(abs=0.60, why=_WHY + ": graceful_degradation's")),
    ("claims/consolidation_adds_robustness/measured/*", Tolerance(abs=0.41, why=_WHY + ": the improvement's")),
    ("claims/consolidation_adds_robustness/details/*", Tolerance(abs=5900.0, why=_WHY + ": metrics/consolidation's")),
    ("metrics/base_policy_nominal_return/*", Tolerance(rel=0.21, why=_WHY + " (sd 7.3 %)")),
    ("metrics/mean_return/*", Tolerance(abs=4400.0, why=_WHY + " (sd 1558)")),
    ("metrics/consolidation/*", Tolerance(abs=5900.0, why=_WHY + " (sd 2071)")),
    ("metrics/forward_model/*/r2_*", Tolerance(abs=0.15, why=_WHY + " (sd 0.054)")),
]


def moderate_improvement(table: pd.DataFrame, overall: dict[str, dict[str, float]]) -> Claim:
    rows = table[(table.level == "moderate") & (table.controller == "cerebellar")]
    per_fault = {f"{r.env}/{r.fault}": round(float(r.relative_to_base), 4) for r in rows.itertuples()}
    found = [
        Interval(
            f"{env}/mean",
            v["mean"],
            v["ci_low"],
            v["ci_high"],
            0.0,
            ">",
            "bootstrap over the adaptation seeds",
            margin=POINT,
        )
        for env, v in overall.items()
    ]
    best = {env: float(group.relative_to_base.max()) for env, group in rows.groupby("env")}
    effects = [faults_take_effect(table, "moderate")]
    return Claim(
        id="moderate_fault_improvement",
        statement="Under moderate faults the residual controller improves the frozen policy's return: mean "
        "relative improvement over the moderate faults > 0 with its 95% seed-bootstrap interval above the practical "
        f"margin {POINT:g} (one point of the relative return)",
        paper_value={env: PAPER_IMPROVEMENT.get(env) for env in overall},
        measured={env: {k: round(v, 4) for k, v in stats.items()} for env, stats in overall.items()},
        comparator=">",
        state=decide(found, premises=effects),
        interval=found,
        premises=effects,
        note="paper values are 'up to' (best fault); our best single moderate fault: "
        + ", ".join(f"{env} {v:+.1%}" for env, v in best.items()),
        headline="; ".join(
            f"{env}: mean {v['mean']:+.1%} [{v['ci_low']:+.1%}, {v['ci_high']:+.1%}] over the moderate "
            f"faults, best fault {best[env]:+.1%} (paper: up to {PAPER_IMPROVEMENT.get(env, 'n/a')})"
            for env, v in overall.items()
        ),
        evidence=["tables/returns.csv", "figures/fault_returns.png", "figures/adaptation.png"],
        details={
            "per_fault_relative_improvement": per_fault,
            "gradient_baseline": {
                f"{r.env}/{r.fault}": round(float(r.relative_to_base), 4)
                for r in table[(table.level == "moderate") & (table.controller == "gradient")].itertuples()
            },
        },
    )


def nominal_preserved(table: pd.DataFrame, tolerance: float) -> Claim:
    rows = table[(table.level == "nominal") & (table.controller == "cerebellar")]
    measured = {r.env: round(float(r.relative_to_base), 4) for r in rows.itertuples()}
    method = "bootstrap over the adaptation seeds"
    found = [
        Interval(
            r.env, float(r.relative_to_base), float(r.relative_ci_low), float(r.relative_ci_high), edge, side, method
        )
        for r in rows.itertuples()
        for edge, side in ((-tolerance, ">="), (tolerance, "<="))
    ]
    return Claim(
        id="nominal_preserved",
        statement=f"Nominal (no-fault) return with the controller on is within {tolerance:.0%} of the base policy's",
        paper_value="within a few %",
        measured=measured,
        comparator="<=",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        headline="; ".join(f"{env}: nominal return {v:+.2%} vs the base" for env, v in measured.items())
        + f" (tolerance {tolerance:.0%}; paper: within a few %)",
        evidence=["tables/returns.csv", "figures/fault_returns.png"],
        details={
            "interval": {
                r.env: [round(float(r.relative_ci_low), 4), round(float(r.relative_ci_high), 4)]
                for r in rows.itertuples()
            }
        },
    )


SEED_BOOTSTRAP = "bootstrap over the adaptation seeds (each fault's seeds resampled, paired by seed)"


def _interval(statistic: str, stats: dict[str, float], threshold: float, side: str, margin=None) -> Interval:
    return Interval(
        statistic, stats["mean"], stats["ci_low"], stats["ci_high"], threshold, side, SEED_BOOTSTRAP, margin=margin
    )


def _rounded(stats: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in stats.items()}


def _severe_drops(table: pd.DataFrame, controller: str) -> dict[str, float]:
    rows = table[(table.level == "severe") & (table.controller == controller)]
    return {f"{r.env}/{r.fault}": round(float(r.drop_vs_base_of_nominal), 4) for r in rows.itertuples()}


def graceful_degradation(table: pd.DataFrame, drops: dict, catastrophic_drop: float) -> Claim:
    """The abstract's 'graceful degradation under severe shifts': the worst drop below the base over the severe
    faults (``analysis.worst_drops``) stays under the collapse line on its seed-bootstrap interval. Until
    2026-12-06 the claim also required a collapse without meta-adaptation, a conjunct of the spec; that is
    :func:`meta_adaptation_prevents_collapse` now (results/quick/verdict_changes.yaml)."""
    worst = drops["cerebellar"]
    effects = [faults_take_effect(table, "severe")]
    found = [_interval("cerebellar_worst_drop", worst, catastrophic_drop, "<")]
    return Claim(
        id="graceful_degradation",
        statement="Under severe faults the controller degrades gracefully: its worst drop below the base, over the "
        f"severe faults, stays under {catastrophic_drop:.0%} of the base's nominal return (a collapse), with its 95% "
        "seed-bootstrap interval below that line",
        paper_value="graceful degradation under severe shifts",
        measured={"cerebellar_worst_drop": _rounded(worst)},
        comparator="<",
        state=decide(found, premises=effects),
        interval=found,
        premises=effects,
        headline=f"worst severe-fault drop {worst['mean']:.1%} [{worst['ci_low']:.1%}, {worst['ci_high']:.1%}] with "
        f"the controller (a collapse is >= {catastrophic_drop:.0%}; paper: graceful degradation)",
        evidence=["tables/returns.csv", "figures/fault_returns.png"],
        details={"cerebellar_drop": _severe_drops(table, "cerebellar")},
    )


def meta_adaptation_prevents_collapse(table: pd.DataFrame, drops: dict, catastrophic_drop: float) -> Claim:
    """The spec's reading of the meta-adaptation's role: without it (gain and plasticity fixed at 1) some severe
    fault makes the controller collapse (worst drop at or above the collapse line, on its interval)."""
    worst = drops["no_meta"]
    effects = [faults_take_effect(table, "severe")]
    found = [_interval("no_meta_worst_drop", worst, catastrophic_drop, ">=")]
    return Claim(
        id="meta_adaptation_prevents_collapse",
        statement="Ablating meta-adaptation (gain and plasticity fixed at 1) makes the controller collapse under some "
        f"severe fault: its worst drop below the base reaches {catastrophic_drop:.0%} of the base's nominal return, "
        "with its 95% seed-bootstrap interval at or above that line",
        paper_value="meta-adaptation preserves nominal behaviour and suppresses unnecessary intervention (spec: a "
        "collapse without it)",
        measured={"no_meta_worst_drop": _rounded(worst)},
        comparator=">=",
        state=decide(found, premises=effects),
        interval=found,
        premises=effects,
        headline=f"worst severe-fault drop without meta-adaptation {worst['mean']:.1%} [{worst['ci_low']:.1%}, "
        f"{worst['ci_high']:.1%}] (a collapse is >= {catastrophic_drop:.0%}; spec: a collapse)",
        evidence=["tables/returns.csv", "figures/fault_returns.png"],
        details={"no_meta_drop": _severe_drops(table, "no_meta")},
    )


def avoids_destabilising_global_updates(table: pd.DataFrame, drops: dict, moderate: dict[str, dict]) -> Claim:
    """The abstract's 'avoiding destabilizing global policy updates', against the global-gradient residual (one
    signed weight matrix updated every step by the same error, no gate, traces or meta-adaptation): under severe
    faults its worst drop exceeds the cerebellar controller's (paired). ``moderate``: controller -> its mean relative
    improvement over the moderate faults (``analysis.mean_improvement``), reported beside it, not judged."""
    gap = drops["gradient-cerebellar"]
    effects = [faults_take_effect(table, "severe")]
    found = [_interval("gradient_minus_cerebellar_worst_drop", gap, 0.0, ">", margin=POINT)]
    return Claim(
        id="avoids_destabilising_global_updates",
        statement="Local plasticity destabilises less than a global update: under severe faults the global-gradient "
        "residual's worst drop below the base exceeds the cerebellar controller's (95% paired seed-bootstrap "
        f"interval of the difference above the practical margin {POINT:g}, one point of the base's nominal return)",
        paper_value="fast, localized correction while avoiding destabilizing global policy updates",
        measured={
            "gradient_minus_cerebellar_worst_drop": _rounded(gap),
            "gradient_worst_drop": round(drops["gradient"]["mean"], 4),
            "cerebellar_worst_drop": round(drops["cerebellar"]["mean"], 4),
        },
        comparator=">",
        state=decide(found, premises=effects),
        interval=found,
        premises=effects,
        headline=f"worst severe-fault drop: global gradient {drops['gradient']['mean']:.1%} vs cerebellar "
        f"{drops['cerebellar']['mean']:.1%}, difference {gap['mean']:+.1%} [{gap['ci_low']:+.1%}, "
        f"{gap['ci_high']:+.1%}]; mean improvement under moderate faults: gradient "
        f"{moderate['gradient']['mean']:+.1%} vs cerebellar {moderate['cerebellar']['mean']:+.1%} (not judged)",
        evidence=["tables/returns.csv", "figures/fault_returns.png"],
        details={
            "gradient_drop": _severe_drops(table, "gradient"),
            "moderate_mean_improvement": {c: _rounded(v) for c, v in moderate.items()},
        },
    )


def consolidation_adds_robustness(effects: dict, consolidated: pd.DataFrame, tolerance: float) -> Claim:
    """The abstract's 'complementary robustness from consolidating persistent residual corrections into policy
    parameters' (``analysis.consolidation_effects``): the consolidated policy, residual removed, keeps a gain over
    the frozen base under the fault it adapted to, and loses at most ``tolerance`` of the nominal return."""
    gain, nominal = effects["fault_gain"], effects["nominal_change"]
    found = [
        _interval("consolidated_fault_gain", gain, 0.0, ">", margin=POINT),
        _interval("consolidated_nominal_change", nominal, -tolerance, ">="),
    ]
    return Claim(
        id="consolidation_adds_robustness",
        statement="Consolidating the adapted residual into the policy (then removing the residual) adds robustness "
        "at no nominal cost: over the moderate faults, the consolidated policy's mean relative change against the "
        f"frozen base under the fault is > 0 (practical margin {POINT:g}) and its nominal return is within "
        f"{tolerance:.0%} of the base's (95% paired seed-bootstrap intervals)",
        paper_value="complementary robustness from consolidating persistent residual corrections",
        measured={"consolidated_fault_gain": _rounded(gain), "consolidated_nominal_change": _rounded(nominal)},
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        headline=f"consolidated policy vs the frozen base: {gain['mean']:+.1%} [{gain['ci_low']:+.1%}, "
        f"{gain['ci_high']:+.1%}] under the fault, {nominal['mean']:+.1%} [{nominal['ci_low']:+.1%}, "
        f"{nominal['ci_high']:+.1%}] on the nominal plant (tolerance {tolerance:.0%}; paper: complementary robustness)",
        evidence=["tables/consolidation.csv", "figures/consolidation.png"],
        details={
            f"{r.env}/{r.fault}": {
                "consolidated_fault": round(float(r.consolidated_fault), 3),
                "base_fault": round(float(r.base_fault), 3),
                "consolidated_nominal": round(float(r.consolidated_nominal), 3),
            }
            for r in consolidated.itertuples()
        },
    )


def metrics(table: pd.DataFrame, consolidation: pd.DataFrame, forward: dict, base_returns: dict) -> dict:
    def pick(level: str) -> dict:
        return {
            f"{r.env}/{r.fault}/{r.controller}": round(float(r.mean_return), 3)
            for r in table[table.level == level].itertuples()
        }

    return {
        "base_policy_nominal_return": base_returns,
        "forward_model": forward,
        "mean_return": {"nominal": pick("nominal"), "moderate": pick("moderate"), "severe": pick("severe")},
        "consolidation": {
            f"{r.env}/{r.fault}": {
                "consolidated_fault": round(float(r.consolidated_fault), 3),
                "consolidated_nominal": round(float(r.consolidated_nominal), 3),
            }
            for r in consolidation.itertuples()
        },
    }
