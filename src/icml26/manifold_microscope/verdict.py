"""The spec's three claims, judged from the result tables.

"Moderate grid size" is the largest grid of the configured scale per toy; the
baselines are "off by more than 10x" when their relative error exceeds ten times the
grid estimator's on the same quantity (curvature and reach; they have no volume estimate).
beta-VAE: "systematically with depth" is a rank correlation of at least ``DEPTH_RHO`` between
depth and the measure over the four encoder maps (input, two hidden layers, mu) at the final
checkpoint, in the reference's direction (more curved, smaller reach); ours, the paper gives none.

Evidence strength: the finite-difference errors are exact numerics on fixed grids and the baselines are compared
by a 10x margin (deterministic); the Hausdorff claim is judged on each fitted slope's 95 % t interval: below zero
(it decays) and within the band of the two Genovese rates (it stays between their envelopes as n grows: no faster
than the lower rate ``n^(-2/(2+d))``, no slower than the upper rate's local slope, ``bounds.upper_slope``). The
beta-VAE's rank correlations are exact measures of one trained network.

Criterion changed on 2026-12-05 (issue 66), before the rerun that judged it but with the committed slopes known:
"at least ``BETWEEN_MIN`` of runs between the envelopes" is not judged any more. The envelope constants are fitted
at the same runs' 1 % and 99 % quantiles, so that fraction is about (n - 2) / n for n runs whatever the data (a
tautology; its premise of ``ENVELOPE_RUNS`` runs only hid it), and fitted on other seeds' runs it would be about
(m - 1) / (m + 1) for m fitting runs, again a property of the fit. Old result: premise not met (fractions 0.905 and
0.833 for 21 and 12 runs). The fraction stays in the claim's measured numbers and the table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..common.claims import DETERMINISTIC, Claim, Interval, decide
from ..common.tolerance import Tolerance

TOLERANCE = 1e-3
FACTOR = 10.0
# Relative errors below this are float64 round-off (the estimators' truncation error there is nil): their
# digits depend on the BLAS kernel, so ratios over them use the floor (a lower bound) and `make verify`
# allows them to move by as much (TOLERANCES).
ROUND_OFF = 1e-10
NO_PREMISE = "toy manifolds and a network trained here, measured exactly: nothing presupposed"
ENVELOPE_RUNS = 40  # (n - 2) / n >= 0.95 from n = 40: why the fraction between the envelopes is not judged
BETWEEN_MIN = 0.95  # the fraction the claim was once judged on (until 2026-12-05)
NO_RATE_PREMISE = (
    "fitted slopes of the runs' errors against the rates' exponents: nothing presupposed beyond a log-log line "
    "over the sampled n (the slope's t interval)"
)


TOLERANCES = [  # make verify: how far a number may move on another machine (icml26.common.verify)
    (
        "*/finite_difference/*",
        Tolerance(abs=ROUND_OFF, why="FD relative errors carry the BLAS kernel's round-off (6e-13 seen), < 1e-10"),
    ),
    (
        "*/baseline_over_fd/*",
        Tolerance(rel=0.01, why="a ratio over an FD error floored at 1e-10 that carries <= 1e-12 of round-off"),
    ),
]


def estimators_recover_toy_geometry(table: pd.DataFrame) -> Claim:
    measured, ok = {}, True
    for toy, g in table.groupby("toy", sort=True):
        top = g[g["n"] == g["n"].max()]
        fd = top[top["estimator"] == "finite_difference"].set_index("quantity")["relative_error"]
        base = top[top["estimator"] == "local_pca"].set_index("quantity")["relative_error"]
        entry = {
            "n": int(top["n"].iloc[0]),
            "points": int(top["points"].iloc[0]),
            "finite_difference": {q: float(v) for q, v in fd.items()},
            "local_pca": {q: float(v) for q, v in base.items()},
        }
        fd_ok = bool((fd <= TOLERANCE).all())
        ratio = {q: float(base[q] / max(fd[q], ROUND_OFF)) for q in base.index}
        entry["baseline_over_fd"] = ratio
        ok = ok and fd_ok and all(r > FACTOR for r in ratio.values())
        measured[toy] = entry
    return Claim(
        id="fd_estimators_recover_toy_geometry",
        statement=f"At the largest configured grid, the finite-difference estimators recover curvature, total "
        f"curvature, volume and reach of every toy manifold to <= {TOLERANCE:g} relative error, and the "
        f"local-PCA baselines on as many random points are off by more than {FACTOR:g}x",
        paper_value=f"<= {TOLERANCE:g} relative error for FD; general-purpose estimators off by > {FACTOR:g}x",
        measured=measured,
        comparator="all",
        state=decide(exact=ok),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="toy manifolds embedded in R^D by a random isometry; "
        "errors defined in icml26.manifold_microscope.accuracy; "
        f"baseline_over_fd divides by max(FD error, {ROUND_OFF:g}): FD errors below that are round-off, so "
        "those ratios are lower bounds",
        headline="largest finite-difference relative error at the largest grid: "
        + ", ".join(f"{toy} {max(e['finite_difference'].values()):.1e}" for toy, e in measured.items())
        + f" (needs <= {TOLERANCE:g}); smallest local-PCA / FD error ratio "
        + f"{min(min(e['baseline_over_fd'].values()) for e in measured.values()):.3g} (needs > {FACTOR:g}; "
        + f"paper: <= {TOLERANCE:g}, baselines off by > {FACTOR:g}x)",
        evidence=["tables/estimator_accuracy.csv", "figures/estimator_accuracy.png"],
    )


def hausdorff_between_envelopes(scaling: pd.DataFrame) -> Claim:
    measured = {
        r.toy: {
            "d": int(r.d),
            "slope": float(r.slope),
            "genovese_exponent": float(r.genovese_exponent),
            "fefferman_exponent": float(r.fefferman_exponent),
            "fraction_between": float(r.fraction_between),
        }
        for r in scaling.itertuples()
    }
    found = [
        Interval(
            f"{r.toy}/slope",
            float(r.slope),
            float(r.slope_low),
            float(r.slope_high),
            0.0,
            "<",
            "t interval of the least-squares slope over the runs",
        )
        for r in scaling.itertuples()
    ]
    for r in scaling.itertuples():
        band = f"t interval of the least-squares slope over {int(r.runs)} runs, against the Genovese rates' slopes"
        found += [
            Interval(f"{r.toy}/slope", float(r.slope), float(r.slope_low), float(r.slope_high),
                     float(r.genovese_exponent), ">=", band, dof=int(r.runs) - 2),
            Interval(f"{r.toy}/slope", float(r.slope), float(r.slope_low), float(r.slope_high),
                     float(r.upper_slope), "<=", band, dof=int(r.runs) - 2),
        ]  # fmt: skip
        measured[r.toy] |= {
            "slope_low": float(r.slope_low),
            "slope_high": float(r.slope_high),
            "upper_slope": float(r.upper_slope),
        }
    return Claim(
        id="hausdorff_between_bound_envelopes",
        statement="The one-sided Hausdorff error of the fitted manifold decays with n (negative log-log slope) "
        "and stays between the Genovese lower and upper rate envelopes as n grows (its slope between the lower "
        "rate's -2/(2+d) and the upper rate's local slope), for every toy manifold and dSprites-style slice",
        paper_value="decays with n, between the envelopes; slopes near -2/(2+d) (Genovese) and -1/d (Fefferman)",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_RATE_PREMISE,
        note="noiseless samples, one-step local weighted PCA fit (MMLS-style, ours); dSprites-style slices of "
        "d = 1..3 (rotation, x, y) rendered at uniformly random latents. The fraction of runs between envelopes "
        "fitted at the same runs' 1 %/99 % quantiles is reported, not judged: it is about (n - 2)/n by construction",
        headline="Hausdorff slopes "
        + ", ".join(
            f"{toy} {m['slope']:+.2f} (rates {m['genovese_exponent']:+.2f} to {m['upper_slope']:+.2f})"
            for toy, m in measured.items()
        )
        + "; paper: decays between the envelopes",
        evidence=["tables/bound_scaling.csv", "figures/bound_scaling.png"],
    )


ENCODER = ("input", "encoder_1", "encoder_2", "mu")
DEPTH_RHO = 0.8


def layer_profile(layers: pd.DataFrame, iteration: int | None = None) -> pd.DataFrame:
    """Measures per layer at one checkpoint (default: the final one), averaged over shapes, in network order."""
    at = layers[layers["iteration"] == (layers["iteration"].max() if iteration is None else iteration)]
    profile = at.groupby(["depth", "layer"], sort=True)[
        ["abs_curvature_median", "median_reach_unit_volume", "volume"]
    ].mean()
    return profile.reset_index(level="depth").drop(columns="depth")


RHO_DIGITS = 12  # Spearman's rho over four ranks is a multiple of 0.1; scipy leaves a last bit (one swap: 0.7999...)


def _encoder_trends(profile: pd.DataFrame) -> tuple[float, float]:
    """Spearman correlations of depth with curvature and with reach over the encoder maps, rounded to
    :data:`RHO_DIGITS` so that one adjacent swap reads 0.8 exactly and meets the registered ``>= 0.8`` as written
    (found 2026-12-07: scipy's 0.7999999999999999 failed it)."""
    encoder, depth = profile.loc[list(ENCODER)], np.arange(len(ENCODER))
    return (
        round(float(stats.spearmanr(depth, encoder["abs_curvature_median"]).statistic), RHO_DIGITS),
        round(float(stats.spearmanr(depth, encoder["median_reach_unit_volume"]).statistic), RHO_DIGITS),
    )


def vae_layer_geometry(layers: pd.DataFrame) -> Claim:
    """The reference's direction (deeper = more curved, smaller reach), along the encoder at the end."""
    profile = layer_profile(layers).loc[list(ENCODER)]
    rho_curvature, rho_reach = _encoder_trends(layer_profile(layers))
    init_curvature, init_reach = _encoder_trends(layer_profile(layers, int(layers["iteration"].min())))
    mu = (
        layers[layers["layer"] == "mu"]
        .groupby("iteration")[["abs_curvature_median", "median_reach_unit_volume"]]
        .mean()
    )
    return Claim(
        id="beta_vae_layer_geometry_changes_with_depth",
        statement=f"After training, deeper encoder layers (input -> hidden -> hidden -> mu) are more curved and "
        f"have smaller reach: Spearman(depth, median |scalar curvature|) >= {DEPTH_RHO} and "
        f"Spearman(depth, median reach) <= -{DEPTH_RHO}, measures at unit total volume, mean over shapes",
        paper_value="deeper layers more curved, smaller reach (reference)",
        measured={
            "spearman_depth_curvature": rho_curvature,
            "spearman_depth_reach": rho_reach,
            "at_initialisation": {"spearman_depth_curvature": init_curvature, "spearman_depth_reach": init_reach},
            "final_encoder_profile": profile.to_dict(orient="index"),
            "mu_layer_over_training": mu.to_dict(orient="index"),
        },
        comparator="all",
        state=decide(exact=bool(rho_curvature >= DEPTH_RHO and rho_reach <= -DEPTH_RHO)),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="MLP beta-VAE with SiLU (ours; the paper's is convolutional), Burgess capacity objective, trained on "
        "the dSprites-style rotation x position slices; the decoder layers are reported in metrics.json; "
        "at_initialisation gives the same correlations for the untrained network (what depth alone does)",
        headline=f"trained encoder: Spearman(depth, curvature) {rho_curvature:+.2f}, (depth, reach) {rho_reach:+.2f} "
        f"(needs >= {DEPTH_RHO} and <= -{DEPTH_RHO}); untrained {init_curvature:+.2f}, {init_reach:+.2f} "
        "(reference: deeper layers more curved, smaller reach)",
        evidence=["tables/vae_layers.csv", "figures/vae_layers.png"],
    )
