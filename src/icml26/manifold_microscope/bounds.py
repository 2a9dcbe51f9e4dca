"""Hausdorff error of a manifold fitted from n samples, against the rates of the literature.

Fit (ours, "MMLS-style"): one step of local weighted PCA — for a query point,
Gaussian weights over its ``k`` nearest samples (bandwidth = distance to the
``k``-th), weighted mean and top-``d`` principal directions, orthogonal
projection onto that affine plane. The error is the one-sided Hausdorff
distance from held-out points of the true manifold to the fitted one: the
largest projection distance over them. Samples are noiseless (our choice).

Rates: Genovese et al. lower ``n^(-2/(2+d))`` and upper ``(log n / n)^(2/(2+d))``,
Fefferman et al. ``(log n / n)^(1/d)``. Their constants are fitted as envelopes:
the lower one is the 1 % quantile of ``error / rate``, the upper the 99 % quantile.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.neighbors import NearestNeighbors

RATES = {
    "genovese_lower": lambda n, d: n ** (-2 / (2 + d)),
    "genovese_upper": lambda n, d: (np.log(n) / n) ** (2 / (2 + d)),
    "fefferman": lambda n, d: (np.log(n) / n) ** (1 / d),
}


def projection_distances(samples: np.ndarray, queries: np.ndarray, d: int, k: int) -> np.ndarray:
    """Distance from each query to its local weighted-PCA plane fitted on the samples."""
    dist, idx = NearestNeighbors(n_neighbors=k).fit(samples).kneighbors(queries)
    out = np.empty(len(queries))
    for i, (q, r, rows) in enumerate(zip(queries, dist, idx)):
        w = np.exp(-((r / max(r[-1], 1e-300)) ** 2))
        w = w / w.sum()
        local = samples[rows]
        mean = w @ local
        centred = (local - mean) * np.sqrt(w)[:, None]
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        basis = vt[:d]
        offset = q - mean
        out[i] = np.linalg.norm(offset - (offset @ basis.T) @ basis)
    return out


def hausdorff_error(toy, n: int, *, queries: int, k: int, rng: np.random.Generator) -> float:
    samples, _ = toy.at_random(n, rng)
    held_out, _ = toy.at_random(queries, rng)
    return float(projection_distances(samples, held_out, toy.dim, k).max())


def upper_slope(n: np.ndarray, d: int) -> float:
    """The Genovese upper rate's local log-log slope, ``-2/(2+d) (1 - 1/ln n)``, at the geometric mean of ``n``:
    an error that stays between the lower rate ``n^(-2/(2+d))`` and the upper one as n grows decays no faster than
    the first and no slower than this."""
    middle = float(np.exp(np.mean(np.log(n))))
    return -2 / (2 + d) * (1 - 1 / np.log(middle))


def envelopes(errors: pd.DataFrame, d: int) -> dict:
    """Fitted log-log slope with its 95 % interval, envelope constants, the fraction of runs between the
    Genovese envelopes and the number of runs. The constants are fitted at the runs' own 1 % and 99 % quantiles,
    so with n runs the fraction is about (n - 2) / n whatever the data: it reaches 0.95 only from about 40 runs."""
    from scipy import stats

    n, f = errors["n"].to_numpy(float), errors["error"].to_numpy(float)
    fit = stats.linregress(np.log(n), np.log(f))
    slope = float(fit.slope)
    half = float(stats.t.ppf(0.975, len(n) - 2) * fit.stderr) if len(n) > 2 else float("inf")
    low = float(np.quantile(f / RATES["genovese_lower"](n, d), 0.01))
    high = float(np.quantile(f / RATES["genovese_upper"](n, d), 0.99))
    between = (f >= low * RATES["genovese_lower"](n, d)) & (f <= high * RATES["genovese_upper"](n, d))
    return {
        "slope": slope,
        "slope_low": slope - half,  # 95 % t interval of the least-squares slope over the runs
        "slope_high": slope + half,
        "genovese_exponent": -2 / (2 + d),
        "upper_slope": upper_slope(n, d),
        "fefferman_exponent": -1 / d,
        "lower_constant": low,
        "upper_constant": high,
        "fraction_between": float(between.mean()),
        "runs": int(len(f)),
    }
