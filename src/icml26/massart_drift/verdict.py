"""The spec's three claims, judged from the result tables.

Tolerances are the spec's: fitted slopes within +-0.05 of the predicted
exponent. A slope claim holds when the seed-mean slope's 95 % t interval lies
inside that band, does not hold when it lies wholly outside, and is
inconclusive when it crosses an edge. The d = 10 claim: the efficient
learner's worst error over every seed's trace against the bound (a worst case,
judged as measured), the no-forgetting error's rise from the first to the last
tenth on a t interval over the seeds, and the rank correlation of the seed-mean
trace with time (judged as measured). ``C = 1`` in the bound ``eta + C Delta^(1/3) / gamma`` is our choice, made
before measuring (the paper's constant is not stated); the measured effective
constant is reported.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

from ..common import intervals
from ..common.claims import Claim, Interval, decide
from ..common.criteria import POINT

SLOPE_TOL = 0.05
BOUND_C = 1.0
NO_PREMISE = "exact simulations of the paper's own setting (Massart noise, drifting halfspaces): nothing presupposed"


def _band(name: str, row: pd.Series, target: float) -> list[Interval]:
    """The slope's interval against both edges of target +- SLOPE_TOL."""
    method = "t over the seeds' fitted slopes"
    low, high = float(row.ci_low), float(row.ci_high)
    return [
        Interval(name, float(row.slope), low, high, target - SLOPE_TOL, ">=", method),
        Interval(name, float(row.slope), low, high, target + SLOPE_TOL, "<=", method),
    ]


def _slope(slopes: pd.DataFrame, learner: str, quantity: str) -> pd.Series:
    return slopes[(slopes["learner"] == learner) & (slopes["quantity"] == quantity)].iloc[0]


def _fmt(row: pd.Series) -> dict:
    return {"slope": float(row.slope), "ci95": [float(row.ci_low), float(row.ci_high)]}


def efficient_rate(slopes: pd.DataFrame) -> Claim:
    excess, window = _slope(slopes, "averaging", "min_excess"), _slope(slopes, "averaging", "W_star")
    found = _band("excess/slope", excess, 1 / 3) + _band("window/slope", window, -2 / 3)
    return Claim(
        id="efficient_excess_scales_as_Delta_one_third",
        statement="The efficient (windowed averaging) learner's best excess error scales as Delta^(1/3) and its "
        "best window as Delta^(-2/3): fitted log-log slopes within +-0.05 of 1/3 and -2/3",
        paper_value={"excess_exponent": 1 / 3, "window_exponent": -2 / 3},
        measured={"excess": _fmt(excess), "window": _fmt(window)},
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="exact 2-D setting, random classification noise; slopes fitted per seed, mean and 95% t-interval",
        headline=f"efficient learner: excess slope {excess.slope:.3f} [{excess.ci_low:.3f}, {excess.ci_high:.3f}], "
        f"window slope {window.slope:.3f} [{window.ci_low:.3f}, {window.ci_high:.3f}] (paper: 1/3 and -2/3; "
        f"tolerance {SLOPE_TOL})",
        evidence=[
            "tables/slopes.csv",
            "tables/best_window.csv",
            "figures/excess_vs_drift.png",
            "figures/window_vs_drift.png",
        ],
    )


def information_theoretic_rate(slopes: pd.DataFrame) -> Claim:
    erm, real = _slope(slopes, "erm", "min_excess"), _slope(slopes, "realizable", "min_excess")
    found = _band("erm/slope", erm, 0.5) + _band("realizable/slope", real, 0.5)
    return Claim(
        id="erm_and_realizable_scale_as_Delta_one_half",
        statement="The inefficient ERM reference (under noise) and the realizable adaptation scale as Delta^(1/2): "
        "fitted slopes within +-0.05 of 1/2",
        paper_value={"exponent": 0.5},
        measured={"erm": _fmt(erm), "realizable": _fmt(real), "erm_window": _fmt(_slope(slopes, "erm", "W_star"))},
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="the realizable adaptation is evaluated as the window's consistent (max-agreement) halfspace "
        "(see README: substitution for the windowed perceptron)",
        headline=f"excess slopes: ERM {erm.slope:.3f} [{erm.ci_low:.3f}, {erm.ci_high:.3f}], realizable "
        f"{real.slope:.3f} [{real.ci_low:.3f}, {real.ci_high:.3f}] (paper: 1/2; tolerance {SLOPE_TOL})",
        evidence=["tables/slopes.csv", "figures/excess_vs_drift.png"],
    )


def error_bound(eta: float, gamma: float, Delta: float) -> float:
    """The efficient learner's error bound the claim checks: eta + BOUND_C Delta^(1/3) / gamma."""
    return eta + BOUND_C * Delta ** (1 / 3) / gamma


def massart_bound_and_forgetting(traces: pd.DataFrame, *, eta: float, gamma: float, Delta: float) -> tuple[Claim, dict]:
    bound = error_bound(eta, gamma, Delta)
    warm = traces[traces["round"] >= traces.loc[traces["learner"] == "averaging", "window"].max()]
    by = {name: g for name, g in warm.groupby("learner")}
    efficient_max = float(by["averaging"]["error"].max())
    effective_c = float((by["averaging"]["error"] - eta).max() * gamma / Delta ** (1 / 3))
    nf = by["no_forgetting"].groupby("round")["error"].mean()
    rho = float(stats.spearmanr(nf.index, nf.values).statistic) if nf.nunique() > 1 else 0.0  # flat: no trend
    tenth = max(1, len(nf) // 10)
    growth = float(nf.iloc[-tenth:].mean() - nf.iloc[:tenth].mean())
    rounds = sorted(nf.index)
    first, last = rounds[:tenth], rounds[-tenth:]
    per_seed = (
        by["no_forgetting"]
        .groupby("seed")
        .apply(lambda g: g.loc[g["round"].isin(last), "error"].mean() - g.loc[g["round"].isin(first), "error"].mean())
    )
    found = [
        intervals.exact("efficient_max_error", efficient_max, bound, "<=", "the worst case over every trace"),
        intervals.exact("no_forgetting_spearman_error_vs_time", rho, 0.9, ">", "rank correlation of the mean trace"),
        intervals.over_seeds("no_forgetting_error_growth", per_seed, 0.0, ">", margin=POINT),
    ]
    measured = {
        "efficient_max_error": efficient_max,
        "bound": bound,
        "effective_C": effective_c,
        "no_forgetting_spearman_error_vs_time": rho,
        "no_forgetting_error_growth": growth,
    }
    claim = Claim(
        id="massart_bound_and_no_forgetting_diverges",
        statement="In the d = 10 Massart setting the efficient learner's error stays <= eta + C Delta^(1/3)/gamma "
        "(C = 1) after its window fills, while the no-forgetting learner's error keeps growing under drift "
        f"(Spearman correlation with time > 0.9 and a rise from the first to the last tenth above {POINT:g}, the "
        "practical margin)",
        paper_value="error <= eta + O~(Delta^(1/3)/gamma)",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="C = 1 chosen before measuring; effective_C is the smallest C that the measured maximum allows",
        headline=f"efficient learner's worst error {efficient_max:.3f} vs the bound {bound:.3f} (C = {BOUND_C:g}; "
        f"effective C {effective_c:.2f}); no-forgetting error rises by {growth:+.3f}, Spearman with time {rho:.2f} "
        "(paper: error <= eta + O~(Delta^(1/3)/gamma))",
        evidence=["figures/traces.png"],
    )
    means = warm.groupby("learner")["error"].mean()
    return claim, {"d10_mean_error_after_warmup": {k: float(v) for k, v in means.items()}, "d10": measured}
