"""The spec's claims; the beta-VAE claim needs a study not built yet and is reported as not evaluated.

"Moderate grid size" is the largest grid of the configured scale per toy; the
baselines are "off by more than 10x" when their relative error exceeds ten times the
grid estimator's on the same quantity (curvature and reach; they have no volume estimate).
"""

from __future__ import annotations

import pandas as pd

from ..common.claims import Claim

TOLERANCE = 1e-3
FACTOR = 10.0
BETWEEN_MIN = 0.95  # fraction of runs inside the fitted envelopes (1 %/99 % quantile constants)


def estimators_recover_toy_geometry(table: pd.DataFrame) -> Claim:
    measured, ok = {}, True
    for toy, g in table.groupby("toy", sort=True):
        top = g[g["n"] == g["n"].max()]
        fd = top[top["estimator"] == "finite_difference"].set_index("quantity")["relative_error"]
        base = top[top["estimator"] == "local_pca"].set_index("quantity")["relative_error"]
        entry = {"n": int(top["n"].iloc[0]), "points": int(top["points"].iloc[0]),
                 "finite_difference": {q: float(v) for q, v in fd.items()},
                 "local_pca": {q: float(v) for q, v in base.items()}}
        fd_ok = bool((fd <= TOLERANCE).all())
        ratio = {q: float(base[q] / max(fd[q], 1e-300)) for q in base.index}
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
        holds=ok,
        note="toy manifolds embedded in R^D by a random isometry; errors defined in icml26.manifold_microscope.accuracy",
    )


def hausdorff_between_envelopes(scaling: pd.DataFrame) -> Claim:
    measured = {r.toy: {"d": int(r.d), "slope": float(r.slope), "genovese_exponent": float(r.genovese_exponent),
                        "fefferman_exponent": float(r.fefferman_exponent), "fraction_between": float(r.fraction_between)}
                for r in scaling.itertuples()}
    holds = bool((scaling["slope"] < 0).all() and (scaling["fraction_between"] >= BETWEEN_MIN).all())
    return Claim(
        id="hausdorff_between_bound_envelopes",
        statement=f"The one-sided Hausdorff error of the fitted manifold decays with n (negative log-log slope) "
        f"and at least {BETWEEN_MIN:.0%} of runs lie between the fitted Genovese lower and upper envelopes, "
        f"for every toy manifold",
        paper_value="decays with n, between the envelopes; slopes near -2/(2+d) (Genovese) and -1/d (Fefferman)",
        measured=measured,
        comparator="all",
        holds=holds,
        note="noiseless samples, one-step local weighted PCA fit (MMLS-style, ours); toy manifolds only "
        "(dSprites slices not included)",
    )


def not_built(claim_id: str, statement: str, paper_value: str, missing: str) -> Claim:
    return Claim(id=claim_id, statement=statement, paper_value=paper_value, measured=None, comparator="none",
                 holds=None, note=f"not evaluated: {missing} is not built in this version")


PENDING = [
    not_built("beta_vae_layer_geometry_changes_with_depth",
              "beta-VAE layer-wise volume, curvature and reach change systematically with depth and training",
              "deeper layers more curved, smaller reach (reference)", "the beta-VAE study"),
]
