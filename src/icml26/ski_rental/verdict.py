"""The three headline claims of the spec, judged from the result tables.

Thresholds are the paper's own statements (bounds, "beats", "<= every
baseline"); tolerances only absorb floating-point and LP-solver error
(``LP_TOL``), never a shortfall. Every number is an exact expectation over
the given distributions (closed forms and LPs, no sampling), so each claim
is deterministic and presupposes nothing a stand-in could lack.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.claims import DETERMINISTIC, Claim, decide

EXACT_TOL = 1e-9
"""Tolerance for exactly computed ECRs and ratios."""
LP_TOL = 1e-6
"""Tolerance for quantities that come out of HiGHS (its feasibility tolerance is 1e-7)."""


NO_PREMISE = "exact expectations over the given distributions: nothing presupposed"
MATCH_TOL = 1e-7
"""The LP is solved at a baseline's exact robustness; stored tables round both to 10 digits."""


def _lp_solved_at(lp_rows: pd.DataFrame, R: float) -> pd.Series:
    """The robust-LP row whose robustness target ``R`` is the given one."""
    gap = (lp_rows["param"] - R).abs()
    if gap.min() > MATCH_TOL * R:
        raise ValueError(
            f"no robust LP was solved at R = {R:.10g} (nearest {lp_rows['param'].iloc[gap.argmin()]:.10g})"
        )
    return lp_rows.iloc[gap.argmin()]


def distributional_beats_point(evaluation: pd.DataFrame) -> tuple[Claim, dict]:
    """Clamp vs Purohit deterministic and robust LP vs Purohit randomized, cell by cell.

    A cell is (B, family, lambda, point statistic). The deterministic pair has
    comparable robustness by construction (both are bounded by ``1 + 1/lam``);
    the randomized pair is compared at the baseline's exact robustness.
    """
    rows = []
    for (B, family), inst in evaluation.groupby(["B", "family"], sort=True):
        clamp = inst[inst["method"] == "clamp"].set_index("param")
        lp = inst[inst["method"] == "robust_randomized"]
        for stat in ("mean", "median", "mode"):
            for kind in ("det", "rand"):
                base = inst[inst["method"] == f"purohit_{kind}_{stat}"]
                for _, b in base.iterrows():
                    if kind == "det":
                        ours = clamp.loc[b["param"]]
                    else:
                        ours = _lp_solved_at(lp, b["robustness"])
                    rows.append(
                        {
                            "B": B,
                            "family": family,
                            "kind": kind,
                            "statistic": stat,
                            "lambda": b["param"],
                            "ours": ours["consistency"],
                            "baseline": b["consistency"],
                            "ours_robustness": ours["robustness"],
                            "baseline_robustness": b["robustness"],
                        }
                    )
    cells = pd.DataFrame(rows)
    cells["improvement_pct"] = 100 * (cells["baseline"] - cells["ours"]) / cells["baseline"]
    cells["worse"] = cells["ours"] > cells["baseline"] + EXACT_TOL
    per_family = cells.groupby("family").agg(
        mean_improvement_pct=("improvement_pct", "mean"),
        cells_worse=("worse", "sum"),
        cells=("worse", "size"),
    )
    det = cells[cells["kind"] == "det"]
    robustness_gap = float((det["ours_robustness"] - det["baseline_robustness"]).max())
    holds = bool((per_family["mean_improvement_pct"] > 0).all())
    measured = {f: round(float(v), 3) for f, v in per_family["mean_improvement_pct"].items()}
    claim = Claim(
        id="distributional_beats_point",
        statement=(
            "Distributional methods (Clamp Policy; robust randomized LP) beat the point-prediction baselines "
            "(Purohit et al., y = mean/median/mode) on consistency for every distribution family, at comparable "
            "robustness (mean improvement over the (B, lambda, statistic) cells > 0 in every family)"
        ),
        paper_value="consistency improved 'significantly' over point-prediction baselines (no number in the abstract)",
        measured=measured,
        comparator="all",
        state=decide(exact=holds),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note=(
            f"measured = mean consistency improvement (%) per family over {len(cells)} cells; "
            f"cells where ours is worse: {int(cells['worse'].sum())}; "
            f"max (Clamp - Purohit det.) robustness: {robustness_gap:.4g}"
        ),
        headline=(
            f"mean consistency gain over point predictions per family from {min(measured.values()):+.1f} % "
            f"({min(measured, key=measured.get)}) to {max(measured.values()):+.1f} % "
            f"({max(measured, key=measured.get)}); "
            f"ours worse in {int(cells['worse'].sum())} of {len(cells)} cells (paper: a 'significant' gain, no number)"
        ),
        evidence=["tables/consistency_robustness.csv", "figures/pareto.png"],
        details={
            "cells_worse_per_family": {f: int(v) for f, v in per_family["cells_worse"].items()},
            "mean_improvement_pct_by_kind": {
                f"{family}/{kind}": round(float(v), 3)
                for (family, kind), v in cells.groupby(["family", "kind"])["improvement_pct"].mean().items()
            },
        },
    )
    return claim, {
        "per_family_improvement_pct": measured,
        "cells": len(cells),
        "cells_worse": int(cells["worse"].sum()),
    }


def clamp_robust_and_consistent(evaluation: pd.DataFrame, sweep: pd.DataFrame) -> tuple[Claim, dict]:
    """Robustness bound over all T, the (1+lam) consistency bound, and convergence as error -> 0."""
    clamp = evaluation[evaluation["method"] == "clamp"]
    robustness_margin = float((clamp["robustness"] - (1 + 1 / clamp["param"])).max())

    keys = ["B", "family", "perturbation", "magnitude"]
    c = sweep[sweep["method"] == "clamp"]
    x_star = sweep[sweep["method"] == "optimal_threshold"][keys + ["ecr"]].rename(columns={"ecr": "x_star_ecr"})
    c = c.merge(x_star, on=keys)
    consistency_margin = float((c["ecr"] / c["x_star_ecr"] - (1 + c["param"])).max())

    zero = c[c["emd"] == 0]
    largest = c.loc[c.groupby(["B", "family", "perturbation", "param"])["emd"].idxmax()]
    at_zero = float(zero["ecr_over_opt"].mean())
    at_largest = float(largest["ecr_over_opt"].mean())
    spearman = float(c[["emd", "ecr_over_opt"]].corr(method="spearman").iloc[0, 1])
    holds = bool(robustness_margin < 0 and consistency_margin <= EXACT_TOL and at_zero <= at_largest)
    measured = {
        "max_robustness_minus_bound": robustness_margin,
        "max_ecr_ratio_minus_(1+lambda)": consistency_margin,
        "mean_ecr_over_opt_at_zero_error": at_zero,
        "mean_ecr_over_opt_at_largest_error": at_largest,
    }
    claim = Claim(
        id="clamp_robust_and_consistent",
        statement=(
            "The Clamp Policy's worst-case ratio stays below 1 + 1/lambda for all T, its ECR is at most "
            "(1 + lambda) times that of x*(p_hat) under every tested truth, and it approaches the optimum "
            "as the prediction error goes to 0"
        ),
        paper_value="robustness < 1 + 1/lambda; consistency <= (1 + lambda) x optimum",
        measured=measured,
        comparator="all",
        state=decide(exact=holds),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note=f"Spearman correlation of error (EMD) and ECR/optimum over all Clamp cells: {spearman:.3f}",
        headline=(
            f"Clamp's worst case stays {-robustness_margin:.3g} or more below 1 + 1/lambda and its ECR within "
            f"(1 + lambda) x that of x*(p_hat) (largest excess {consistency_margin:+.2g}); ECR/optimum {at_zero:.3f} "
            f"at zero error vs {at_largest:.3f} at the largest (paper: the same two bounds)"
        ),
        evidence=[
            "tables/consistency_robustness.csv",
            "tables/error_sweep.csv",
            "figures/error_sweep.png",
            "figures/pareto.png",
        ],
    )
    return claim, {"clamp": measured | {"spearman_emd_vs_ratio": spearman}}


def robust_lp_meets_constraint_and_dominates(evaluation: pd.DataFrame, R_grid: list[float]) -> tuple[Claim, dict]:
    """The robust stopping distribution meets ``R`` and beats every baseline that also meets ``R``."""
    violations, binding, tight, losses, compared = [], 0, 0, [], 0
    for (B, family), inst in evaluation.groupby(["B", "family"], sort=True):
        x_star_robustness = float(inst.loc[inst["method"] == "optimal_threshold", "robustness"].iloc[0])
        others = inst[inst["method"] != "robust_randomized"]
        for R in R_grid:
            ours = inst[
                (inst["method"] == "robust_randomized") & np.isclose(inst["param"], R, rtol=0, atol=1e-11)
            ].iloc[0]
            violations.append(ours["robustness"] - R)
            if x_star_robustness > R + EXACT_TOL:  # the constraint matters here
                binding += 1
                tight += abs(ours["robustness"] - R) <= LP_TOL
            eligible = others[others["robustness"] <= R + EXACT_TOL]
            compared += len(eligible)
            losses.append(float((ours["consistency"] - eligible["consistency"]).max()) if len(eligible) else -np.inf)
    max_violation = float(max(violations))
    max_loss = float(max(losses))
    holds = bool(max_violation <= LP_TOL and tight == binding and max_loss <= LP_TOL)
    measured = {
        "max_robustness_minus_R": max_violation,
        "binding_cases_tight": f"{tight}/{binding}",
        "max_consistency_minus_best_eligible_baseline": max_loss,
    }
    claim = Claim(
        id="robust_randomized_meets_R_and_dominates",
        statement=(
            "The robust stopping distribution meets the robustness constraint R exactly (tight whenever the "
            "unconstrained optimum violates it) and its expected ratio is <= that of every baseline satisfying "
            "the same constraint"
        ),
        paper_value="robustness = R; ECR <= every R-robust baseline",
        measured=measured,
        comparator="all",
        state=decide(exact=holds),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note=(
            f"{compared} (R, baseline) comparisons; the stopping distribution is computed by the LP (HiGHS), "
            "not by a water-filling routine (see README: the paper's water-filling algorithm is not public)"
        ),
        headline=(
            f"robustness - R at most {max_violation:.1g}, tight in {tight} of {binding} binding cases; ECR minus the "
            f"best R-robust baseline at most {max_loss:.1g} over {compared} comparisons (paper: robustness = R, "
            "ECR <= every R-robust baseline)"
        ),
        evidence=["tables/consistency_robustness.csv", "tables/oracles.csv", "figures/pareto.png"],
    )
    return claim, {"robust_randomized": measured}
