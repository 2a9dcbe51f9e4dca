"""The spec's three claims, judged from the result tables.

"Dimension-uniform" and "grows with d" are read over the last 8-fold increase
of the dimension grid (``d_max / 8 -> d_max``): a quantity is *bounded* if it
changes by at most ``FLAT_TOL`` (10 %) there and *grows* if it at least
doubles (linear growth would multiply it by 8, sqrt growth by 2.8). Mode
weights are *recovered* when their total-variation error is at most
``WEIGHT_TOL`` (5 percentage points of mass) at every dimension. These
thresholds are ours, fixed before measuring; the paper states the claims
qualitatively, so ``paper_value`` is the qualitative statement.

Evidence strength: the two horizon and KL claims are closed forms per
coordinate (deterministic). The mode-weight errors come from samples: the
total-variation error that exact samples of the same size make
(``exact_sample_tv_error``) is their noise floor, so each is judged on the
measured error plus or minus twice that floor (``NOISE_WIDTH``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.claims import DETERMINISTIC, Claim, Interval, decide
from ..common.tolerance import Tolerance
from .perturbation import KINDS

FLAT_TOL = 0.10
GROWTH_MIN = 2.0
AMPLIFICATION_MAX = 1 + FLAT_TOL  # a perturbation "not amplified": final KL excess at most this x its own KL
WEIGHT_TOL = 0.05
NOISE_WIDTH = 2.0  # the mode-weight interval: the measured error +- twice the exact samples' error
NO_PREMISE = "the paper's own model problems, solved exactly or sampled here: nothing presupposed"
TOLERANCES = [  # make verify: how far a number may move on another machine (icml26.common.verify)
    (
        "metrics/oracle_max_rel_error/*",
        Tolerance(
            abs=1e-8,
            why="two computations agreeing at solver precision (ODE rtol 1e-12; 3e-10 observed): "
            "the digits are round-off, the check is that they stay far below 1e-6",
        ),
    ),
]


def dimension_ratio(frame: pd.DataFrame, column: str) -> tuple[float, int, int]:
    """``value(d_max) / value(d_max / 8)`` (nearest grid point at or below ``d_max / 8``)."""
    by_d = frame.set_index("d")[column].sort_index()
    d_max = int(by_d.index.max())
    below = by_d.index[by_d.index <= d_max // 8]
    d_ref = int(below.max()) if len(below) else int(by_d.index.min())
    return float(by_d[d_max] / by_d[d_ref]), d_ref, d_max


def _bounded(ratio: float) -> bool:
    return bool(np.isfinite(ratio) and abs(ratio - 1) <= FLAT_TOL)


def _grows(ratio: float) -> bool:
    return bool(ratio >= GROWTH_MIN)


def dimension_uniform_horizon(need: pd.DataFrame, *, trace_class: str) -> Claim:
    plain = need[need["preconditioner"] == "identity"]
    rows = {name: plain[plain["smoothing"] == name] for name in (trace_class, "identity")}
    (r_tc, d_ref, d_max), (r_id, _, _) = (
        dimension_ratio(rows[trace_class], "horizon_needed"),
        dimension_ratio(rows["identity"], "horizon_needed"),
    )
    eps = float(need["epsilon"].iloc[0])
    measured = {
        f"trace_class_horizon_ratio_d{d_max}_over_d{d_ref}": r_tc,
        f"identity_horizon_ratio_d{d_max}_over_d{d_ref}": r_id,
        "trace_class_horizon": {int(r.d): r.horizon_needed for r in rows[trace_class].itertuples()},
        "identity_horizon": {int(r.d): r.horizon_needed for r in rows["identity"].itertuples()},
    }
    return Claim(
        id="dimension_uniform_horizon_needs_trace_class_smoothing",
        statement=f"With exact scores and P = I, the annealing time S needed to reach sum_j KL_j <= {eps:g} "
        f"is dimension-uniform when C is trace-class relative to Sigma (changes by <= {FLAT_TOL:.0%} from "
        f"d = {d_ref} to {d_max}) and grows with d when C = I (at least x{GROWTH_MIN:g})",
        paper_value="dimension-uniform time horizon under the spectral condition; not for C = I",
        measured=measured,
        comparator="all",
        state=decide(exact=_bounded(r_tc) and _grows(r_id)),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="exactly solvable factorised case, continuous time, closed form per coordinate; KL over j >= 2",
        headline=f"time to KL <= {eps:g} changes x{r_tc:.2f} from d = {d_ref} to {d_max} with trace-class C "
        f"(bounded: within x{1 - FLAT_TOL:.1f}-{1 + FLAT_TOL:.1f}) "
        f"and x{r_id:.2f} with C = I (grows: >= x{GROWTH_MIN:g}) "
        "(paper: dimension-uniform only under the spectral condition)",
        evidence=["tables/horizons.csv", "figures/horizons.png"],
    )


def preconditioning_bounds_misspecification(kl: pd.DataFrame, *, trace_class: str, fast: str) -> Claim:
    sel = kl[(kl["scheme"] == "continuous") & (kl["score"] == "misspecified") & (kl["smoothing"] == trace_class)]
    r_fast, d_ref, d_max = dimension_ratio(sel[sel["preconditioner"] == fast], "kl")
    r_id, _, _ = dimension_ratio(sel[sel["preconditioner"] == "identity"], "kl")
    measured = {
        f"fast_preconditioner_kl_ratio_d{d_max}_over_d{d_ref}": r_fast,
        f"identity_preconditioner_kl_ratio_d{d_max}_over_d{d_ref}": r_id,
        "fast_preconditioner_kl": {int(r.d): r.kl for r in sel[sel["preconditioner"] == fast].itertuples()},
        "identity_preconditioner_kl": {int(r.d): r.kl for r in sel[sel["preconditioner"] == "identity"].itertuples()},
    }
    return Claim(
        id="fast_decaying_preconditioner_bounds_misspecified_error",
        statement=f"Under the misspecified score (covariances x1.1) and trace-class C, the KL at the fixed horizon "
        f"stays bounded in d with the fast-decaying preconditioner (changes by <= {FLAT_TOL:.0%} from d = {d_ref} "
        f"to {d_max}) and grows with d with P = I (at least x{GROWTH_MIN:g})",
        paper_value="error bounded uniformly in d with a fast-decaying preconditioner; accumulates without it",
        measured=measured,
        comparator="all",
        state=decide(exact=_bounded(r_fast) and _grows(r_id)),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="exactly solvable factorised case, continuous time; 'fast' is the preconditioner named in config",
        headline=f"misspecified-score KL changes x{r_fast:.2f} from d = {d_ref} to {d_max} with the fast-decaying "
        f"preconditioner and x{r_id:.2f} with P = I (paper: bounded uniformly in d only with the preconditioner)",
        evidence=["tables/factorised_kl.csv", "figures/kl_vs_dimension.png"],
    )


def stable_under_perturbation(table: pd.DataFrame, *, trace_class: str, eta: float) -> Claim:
    """The abstract's perturbative stability (registered 2026-12-07, before its first run): with the reference C,
    each perturbation's amplification (:mod:`.perturbation`) stays at most ``AMPLIFICATION_MAX`` at every ``d``;
    C = I's initialisation amplification is reported beside, not decided."""
    ours = table[table["smoothing"] == trace_class]
    by_kind = {kind: ours[ours["kind"] == kind] for kind in KINDS}
    worst = {kind: float(rows["amplification"].max(skipna=False)) for kind, rows in by_kind.items()}
    growth = {kind: dimension_ratio(rows, "amplification") for kind, rows in by_kind.items()}
    d_max = int(table["d"].max())
    identity = table[(table["smoothing"] == "identity") & (table["kind"] == "initialisation") & (table["d"] == d_max)]
    contrast = float(identity["amplification"].iloc[0]) if len(identity) else float("nan")
    held = all(np.isfinite(a) and a <= AMPLIFICATION_MAX for a in worst.values())
    return Claim(
        id="stable_under_imperfect_initialisation_and_approximate_scores",
        statement=f"With trace-class C and the fast-decaying preconditioner, an initial variance and a score "
        f"covariance each off by a factor 1 + {eta:g} on every coordinate are not amplified: the final KL's excess "
        f"over the exact run is at most {AMPLIFICATION_MAX:g} x the perturbation's own KL, at every d up to {d_max}",
        paper_value="stability in a perturbative regime with imperfect initialization and approximate scores",
        measured={
            "initialisation_worst_amplification": worst["initialisation"],
            "score_worst_amplification": worst["score"],
            f"identity_initialisation_amplification_d{d_max}": contrast,
            **{f"{kind}_amplification_ratio_d{g[2]}_over_d{g[1]}": g[0] for kind, g in growth.items()},
        },
        comparator="<=",
        state=decide(exact=held),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="exactly solvable factorised case, continuous time, closed form; KL and own size summed over j >= 2",
        headline=f"largest amplification over d <= {d_max}: initialisation {worst['initialisation']:.3f}, score "
        f"{worst['score']:.3f} with trace-class C (need at most {AMPLIFICATION_MAX:g}); initialisation with C = I "
        f"{contrast:.3g} at d = {d_max}, and the amplification's change from d = {growth['score'][1]} to {d_max} "
        f"(initialisation x{growth['initialisation'][0]:.2f}, score x{growth['score'][0]:.2f}), beside "
        "(paper: stable in the perturbative regime)",
        evidence=["tables/perturbation.csv", "figures/perturbation.png"],
    )


def annealing_recovers_mode_weights(errors: pd.DataFrame, particles: int) -> Claim:
    """``particles``: how many each run samples; the noise band, twice the exact samples' TV error, shrinks as one
    over its square root, so it is the unit what would decide an undecided claim counts."""
    by = {m: errors[errors["method"] == m].set_index("d")["weight_tv_error"] for m in errors["method"].unique()}
    ald, plain = by["ald_exponential"], by["plain_exponential"]
    measured = {
        "ald_exponential_tv_error": {int(d): float(v) for d, v in ald.items()},
        "plain_exponential_tv_error": {int(d): float(v) for d, v in plain.items()},
        "exact_sample_tv_error": {
            int(r.d): r.exact_sample_tv_error for r in errors[errors["method"] == "ald_exponential"].itertuples()
        },
    }
    if "ald_euler" in by:
        measured["ald_euler_tv_error"] = {int(d): float(v) for d, v in by["ald_euler"].items()}
    floor = errors[errors["method"] == "ald_exponential"].set_index("d")["exact_sample_tv_error"]
    noise = NOISE_WIDTH * float(floor.max())
    worst, best_plain = float(ald.max()), float(plain.min())
    band = f"{NOISE_WIDTH:g} x the exact samples' TV error ({float(floor.max()):.3g})"
    method = f"measured +- {band} over {particles} particles"
    found = [
        Interval("ald_worst_tv_error", worst, max(worst - noise, 0.0), worst + noise, WEIGHT_TOL, "<=", method),
        Interval(
            "plain_best_tv_error", best_plain, max(best_plain - noise, 0.0), best_plain + noise, WEIGHT_TOL, ">", method
        ),
    ]
    measured |= {"ald_worst_tv_error": worst, "plain_best_tv_error": best_plain}
    return Claim(
        id="annealing_recovers_mode_weights",
        statement=f"Annealed Langevin (exponential integrator) recovers the mixture's mode weights to within "
        f"{WEIGHT_TOL} in total variation at every dimension tested; plain Langevin started in one mode does not",
        paper_value="annealing recovers the correct mode weights where plain Langevin does not",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="non-factorised 3-component mixture; weights = mean responsibilities (unbiased for exact samples)",
        headline=f"mode-weight TV error of annealed Langevin at most {ald.max():.3f} over d = {int(ald.index.min())}.."
        f"{int(ald.index.max())} (threshold {WEIGHT_TOL}); plain Langevin at least {plain.min():.3f} "
        "(paper: annealing recovers the weights, plain Langevin does not)",
        evidence=["tables/mode_weight_errors.csv", "figures/mode_weights.png"],
    )
