"""Tables and claims from hand-made returns with known answers."""

import numpy as np
import pandas as pd
import pytest

from icml26.cerebellar_control import analysis, verdict


def returns_frame(scores: dict[tuple[str, str, str], list[float]]) -> pd.DataFrame:
    """{(fault, level, controller): per-seed returns} -> per-episode rows (two equal episodes per seed)."""
    rows = []
    for (fault, level, controller), values in scores.items():
        for seed, value in enumerate(values):
            for episode in range(2):
                rows.append(
                    {
                        "env": "E",
                        "fault": fault,
                        "level": level,
                        "value": 1.0,
                        "controller": controller,
                        "seed": seed,
                        "episode": episode,
                        "return": value,
                    }
                )
    return pd.DataFrame(rows)


BASE = [100.0, 110.0, 90.0]
FRAME = returns_frame(
    {
        ("nominal", "nominal", "base"): [1000.0, 1000.0, 1000.0],
        ("nominal", "nominal", "cerebellar"): [990.0, 1000.0, 980.0],
        ("nominal", "nominal", "no_meta"): [900.0, 900.0, 900.0],
        ("gain", "moderate", "base"): BASE,
        ("gain", "moderate", "cerebellar"): [150.0, 165.0, 135.0],
        ("gain", "moderate", "no_meta"): [100.0, 110.0, 90.0],
        ("gain", "severe", "base"): [500.0, 500.0, 500.0],
        ("gain", "severe", "cerebellar"): [450.0, 450.0, 450.0],
        ("gain", "severe", "no_meta"): [200.0, 200.0, 200.0],
    }
)


def test_summary_relative_change_and_drop_are_exact():
    table = analysis.summary(FRAME, resamples=200).set_index(["fault", "level", "controller"])
    assert table.loc[("gain", "moderate", "cerebellar"), "relative_to_base"] == pytest.approx(0.5)
    assert table.loc[("gain", "moderate", "no_meta"), "relative_to_base"] == pytest.approx(0.0)
    assert table.loc[("gain", "severe", "no_meta"), "drop_vs_base_of_nominal"] == pytest.approx(0.3)
    assert table.loc[("nominal", "nominal", "cerebellar"), "relative_to_base"] == pytest.approx(-0.01)
    row = table.loc[("gain", "moderate", "cerebellar")]
    assert row.relative_ci_low == pytest.approx(0.5) and row.relative_ci_high == pytest.approx(0.5)  # paired: exact
    assert row.ci_low <= row.mean_return <= row.ci_high


def test_claims_follow_the_configured_thresholds():
    table = analysis.summary(FRAME, resamples=200)
    overall = {"E": analysis.mean_improvement(FRAME, "cerebellar", "moderate", resamples=200)}
    assert overall["E"]["mean"] == pytest.approx(0.5)
    assert verdict.moderate_improvement(table, overall).holds
    assert verdict.nominal_preserved(table, 0.05).holds
    assert verdict.nominal_preserved(table, 0.015).state == "inconclusive"  # -1 % [-2 %, 0 %] crosses -1.5 %
    lower = FRAME.copy()
    nominal = (lower.controller == "cerebellar") & (lower.level == "nominal")
    lower.loc[nominal, "return"] = lower.loc[nominal, "return"] - 100
    assert verdict.nominal_preserved(analysis.summary(lower, resamples=200), 0.05).state == "does not hold"  # -11 %
    drops = analysis.worst_drops(FRAME, "severe", resamples=200)
    claim = verdict.graceful_degradation(table, drops, catastrophic_drop=0.25)
    assert claim.holds and claim.measured["cerebellar_worst_drop"]["mean"] == pytest.approx(0.05)
    assert verdict.graceful_degradation(table, drops, catastrophic_drop=0.04).state == "does not hold"  # drops 5 %
    collapse = verdict.meta_adaptation_prevents_collapse(table, drops, catastrophic_drop=0.25)
    assert collapse.holds and collapse.measured["no_meta_worst_drop"]["mean"] == pytest.approx(0.3)
    assert verdict.meta_adaptation_prevents_collapse(table, drops, catastrophic_drop=0.35).state == "does not hold"


def test_a_controller_that_hurts_is_reported_as_not_holding():
    worse = FRAME.copy()
    mask = (worse.controller == "cerebellar") & (worse.level == "moderate")
    worse.loc[mask, "return"] = worse.loc[mask, "return"] * 0.5
    table = analysis.summary(worse, resamples=200)
    overall = {"E": analysis.mean_improvement(worse, "cerebellar", "moderate", resamples=200)}
    claim = verdict.moderate_improvement(table, overall)
    assert not claim.holds and overall["E"]["mean"] == pytest.approx(-0.25)


def test_adaptation_curves_average_over_seeds():
    curves = pd.DataFrame(
        [
            {
                "env": "E",
                "fault": "f",
                "level": "moderate",
                "value": 1.0,
                "controller": "c",
                "seed": s,
                "window": 0,
                "step": 10,
                "reward": r,
                "gain": g,
            }
            for s, r, g in ((0, 1.0, 0.1), (1, 3.0, 0.3))
        ]
    )
    out = analysis.adaptation(curves)
    assert out.reward.tolist() == [2.0] and out.gain.tolist() == pytest.approx([0.2])


def test_bootstrap_intervals_match_the_normal_theory_and_pair_by_seed():
    rng = np.random.default_rng(0)
    values = rng.normal(10.0, 2.0, 400)
    low, high = analysis.bootstrap_mean(values, resamples=2000, seed=0)
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert low < values.mean() < high and abs((high - low) / 2 - half) < 0.1 * half
    base = rng.normal(-100.0, 30.0, 8)
    scores = base + 0.25 * np.abs(base)  # every seed improves by exactly 25 % of its own base
    assert analysis._paired_ratio_interval(scores, base, resamples=500) == pytest.approx((0.25, 0.25))


def test_the_fault_figure_draws_an_interval_that_lies_beside_its_point_estimate():
    """A percentile interval of a ratio of means can exclude the ratio itself (a base policy from seed 2 gave
    one): the figure draws it with no whisker on that side instead of failing."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from icml26.cerebellar_control import plots

    rows = [
        {
            "env": "HalfCheetah-v5",
            "fault": "friction",
            "level": level,
            "controller": c,
            "relative_to_base": r,
            "relative_ci_low": lo,
            "relative_ci_high": hi,
        }
        for level in ("moderate", "severe")
        for c, r, lo, hi in (("base", 0.0, 0.0, 0.0), ("cerebellar", 0.10, 0.12, 0.30))
    ]
    fig = plots.fault_returns(pd.DataFrame(rows))
    assert len(fig.axes) == 2
    plt.close(fig)


def test_a_fault_that_changes_nothing_leaves_the_claims_premise_not_met():
    idle = FRAME.copy()
    idle.loc[(idle.controller == "base") & (idle.level == "moderate"), "return"] = 1000.0  # the nominal return
    idle.loc[(idle.controller == "base") & (idle.level == "severe"), "return"] = 1005.0  # 0.5 %: below 1 %
    table = analysis.summary(idle, resamples=200)
    overall = {"E": analysis.mean_improvement(idle, "cerebellar", "moderate", resamples=200)}
    moderate = verdict.moderate_improvement(table, overall)
    assert moderate.state == "premise not met" and moderate.premises[0].measured == pytest.approx(0.0)
    assert "E/gain" in moderate.premises[0].name
    drops = analysis.worst_drops(idle, "severe", resamples=200)
    assert verdict.graceful_degradation(table, drops, catastrophic_drop=0.25).state == "premise not met"
    effective = verdict.moderate_improvement(analysis.summary(FRAME, resamples=200), overall)
    assert [p.met for p in effective.premises] == [True]  # base 100 against 1000 nominal: a 90 % change


def _severe(gradient: list[float], cerebellar: list[float]) -> pd.DataFrame:
    """Two severe faults; base 500 everywhere and a nominal return of 1000, so a drop of 50 is 5 % of it."""
    frame = {("nominal", "nominal", c): [1000.0] * 4 for c in ("base", "cerebellar", "gradient")}
    for fault in ("gain", "bias"):
        frame[(fault, "severe", "base")] = [500.0] * 4
        frame[(fault, "severe", "cerebellar")] = cerebellar
        frame[(fault, "severe", "gradient")] = [500.0] * 4 if fault == "bias" else gradient
    return returns_frame(frame)


def test_worst_drops_take_the_worst_fault_and_pair_the_difference_by_seed():
    frame = _severe(gradient=[300.0, 320.0, 280.0, 300.0], cerebellar=[450.0, 470.0, 430.0, 450.0])
    drops = analysis.worst_drops(frame, "severe", resamples=500, pairs=(("gradient", "cerebellar"),))
    assert drops["gradient"]["mean"] == pytest.approx(0.2) and drops["cerebellar"]["mean"] == pytest.approx(0.05)
    gap = drops["gradient-cerebellar"]
    assert gap["mean"] == pytest.approx(0.15)
    assert gap["ci_low"] <= 0.15 <= gap["ci_high"] and gap["ci_high"] - gap["ci_low"] < 0.05  # seeds vary by 2 %


@pytest.mark.parametrize(
    "gradient, cerebellar, state",
    [
        ([300.0, 320.0, 280.0, 300.0], [450.0, 470.0, 430.0, 450.0], "holds"),  # gradient drops 20 %, ours 5 %
        ([450.0, 470.0, 430.0, 450.0], [300.0, 320.0, 280.0, 300.0], "does not hold"),  # the other way round
        ([400.0, 500.0, 300.0, 400.0], [400.0, 300.0, 500.0, 400.0], "inconclusive"),  # equal on average, noisy
    ],
)
def test_global_update_claim_reaches_each_state(gradient, cerebellar, state):
    frame = _severe(gradient, cerebellar)
    table = analysis.summary(frame, resamples=200)
    drops = analysis.worst_drops(frame, "severe", resamples=500, pairs=(("gradient", "cerebellar"),))
    moderate = {c: {"mean": 0.1, "ci_low": 0.0, "ci_high": 0.2} for c in ("gradient", "cerebellar")}
    assert verdict.avoids_destabilising_global_updates(table, drops, moderate).state == state


def _consolidation(fault_returns: list[float], nominal_returns: list[float]) -> tuple[pd.DataFrame, pd.DataFrame]:
    returns = returns_frame(
        {
            ("nominal", "nominal", "base"): [1000.0, 1000.0, 1000.0],
            ("gain", "moderate", "base"): [500.0, 500.0, 500.0],
            ("gain", "moderate", "cerebellar"): [600.0, 600.0, 600.0],
        }
    )
    rows = pd.DataFrame(
        {
            "env": "E",
            "fault": "gain",
            "level": "moderate",
            "seed": [0, 1, 2],
            "return_fault": fault_returns,
            "return_nominal": nominal_returns,
            "weight_change": 0.1,
        }
    )
    return rows, returns


@pytest.mark.parametrize(
    "fault_returns, nominal_returns, state",
    [
        ([600.0, 600.0, 600.0], [990.0, 1000.0, 1010.0], "holds"),  # +20 % under the fault, nominal kept
        ([600.0, 600.0, 600.0], [100.0, 100.0, 100.0], "does not hold"),  # the nominal return is lost
        ([500.0, 500.0, 500.0], [1000.0, 1000.0, 1000.0], "does not hold"),  # no gain under the fault
        ([450.0, 500.0, 560.0], [1000.0, 1000.0, 1000.0], "inconclusive"),  # +0.7 %, seeds spread over the margin
    ],
)
def test_consolidation_claim_reads_the_gain_and_the_nominal_cost(fault_returns, nominal_returns, state):
    rows, returns = _consolidation(fault_returns, nominal_returns)
    effects = analysis.consolidation_effects(rows, returns, resamples=500)
    assert effects["fault_gain"]["mean"] == pytest.approx(np.mean(fault_returns) / 500 - 1)
    table = analysis.consolidation_table(rows, analysis.summary(returns, resamples=200))
    assert verdict.consolidation_adds_robustness(effects, table, 0.05).state == state
