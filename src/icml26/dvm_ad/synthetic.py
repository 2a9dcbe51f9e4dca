"""ADBench's four realistic synthetic anomaly types, generated from a Classical set's normal rows.

ADBench (Han et al., NeurIPS 2022, ``DataGenerator.generate_realistic_synthetic`` in Minqi824/ADBench,
``adbench/datasets/data_generator.py``) replaces a set's rows by as many synthetic normals and anomalies as it had,
both drawn from models fitted on its normal rows only:

- ``local``: normals from a Gaussian mixture (components chosen by BIC over 1..9), anomalies from the same mixture
  with every covariance scaled by ``alpha`` (5);
- ``cluster``: the same mixture, anomalies with every component mean scaled by ``alpha``;
- ``global``: the same normals, anomalies uniform per feature on ``[min * (1 + p), max * (1 + p)]`` of the
  synthetic normals (``p`` = 0.1; ADBench's formula as written, which for a positive minimum starts above it);
- ``dependency``: at most 50 of the features (drawn at random, as ADBench does to keep the copula affordable),
  normals from a vine copula over kernel-density marginals, anomalies from the same marginals drawn independently
  (the dependence removed).

The mixture, the kernel-density marginals and the independent draws are ADBench's own libraries (scikit-learn's
``GaussianMixture``, ``copulas``' ``GaussianKDE``). Two substitutions, both for cost:

- **the dependency type's copula**: ADBench fits ``copulas``' ``VineCopula('center')`` (a C-vine truncated at
  three trees, Clayton / Frank / Gumbel / independence pairs), whose sampler draws one row at a time in Python
  (278 s for 1,655 rows of 6_cardio, measured on this project's machine the session before), hours per large set.
  We fit the same kind of model with ``pyvinecopulib`` (truncated at three trees, the same four pair families,
  its structure chosen by Kendall's tau as vinecopulib does rather than a C-vine), which samples in compiled code;
- **the marginals' inverse**: tabulated on a grid (:func:`_cdf_table`) instead of ``copulas``' root finding.

``alpha`` and ``p`` are ADBench's defaults.
"""

from __future__ import annotations

import copy

import numpy as np

TYPES = ("local", "global", "dependency", "cluster")
ALPHA = 5.0  # ADBench's default scale of the local covariances and cluster means
GLOBAL_PERCENTAGE = 0.1  # ADBench's default widening of the global anomalies' range
MAX_DEPENDENCY_FEATURES = 50  # ADBench's cap on the features the copula is fitted to
TRUNCATION = 3  # copulas' VineCopula.fit default: trees beyond the third are independence


def fit_mixture(X: np.ndarray, y: np.ndarray, seed: int):
    """The Gaussian mixture of lowest BIC over 1..9 components, fitted to the normal rows (ADBench's choice). The
    costly step of the local, global and cluster types (nine full-covariance fits: about 2.5 min on 24_mnist's
    7,603 x 100), so one set and seed may fit it once and pass it to :func:`generate` for all three."""
    from sklearn.mixture import GaussianMixture

    normal = np.asarray(X[y == 0], dtype=float)
    fits = [GaussianMixture(n_components=k, random_state=seed).fit(normal) for k in range(1, 10)]
    return min(fits, key=lambda gm: gm.bic(normal))


def _global_anomalies(synthetic_normal: np.ndarray, count: int, rng: np.random.RandomState) -> np.ndarray:
    low = synthetic_normal.min(axis=0) * (1 + GLOBAL_PERCENTAGE)
    high = synthetic_normal.max(axis=0) * (1 + GLOBAL_PERCENTAGE)
    return rng.uniform(low=low, high=high, size=(count, synthetic_normal.shape[1]))


def _kde_marginals(normal: np.ndarray, seed: int) -> list:
    """One kernel density per feature, each with a generator of its own: with one seed for all, every feature's
    draws would pick the same rows and carry their dependence into the "independent" anomalies."""
    from copulas.univariate import GaussianKDE

    marginals = []
    for column, state in zip(normal.T, np.random.SeedSequence(seed).generate_state(normal.shape[1]), strict=True):
        kde = GaussianKDE(random_state=int(state))
        kde.fit(column)
        marginals.append(kde)
    return marginals


GRID = 4096  # points on which each marginal's CDF is tabulated for the transforms to and from the copula scale


def _cdf_table(kde, column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A marginal's CDF on a fine grid over its support (``copulas``' bounds: the fitted column's range widened by
    five standard deviations each side). ``copulas`` inverts the CDF by root finding, each step a
    sum over every row (88 s for 6_cardio's 21 features, of 130 s in all, measured here); interpolating this table
    gives the same transform to within the grid's spacing, in milliseconds."""
    grid = np.linspace(column.min() - 5 * column.std(), column.max() + 5 * column.std(), GRID)
    return grid, np.maximum.accumulate(kde.cumulative_distribution(grid))


def _vine_normals(normal: np.ndarray, marginals: list, count: int, seed: int) -> np.ndarray:
    """Rows from a vine copula fitted to the normal rows' pseudo-observations, mapped back through the marginals."""
    import pyvinecopulib as pv

    tables = [_cdf_table(m, col) for m, col in zip(marginals, normal.T, strict=True)]
    u = np.column_stack([np.interp(col, grid, cdf) for (grid, cdf), col in zip(tables, normal.T, strict=True)])
    u = np.clip(u, 1e-10, 1 - 1e-10)
    families = [pv.BicopFamily.indep, pv.BicopFamily.clayton, pv.BicopFamily.frank, pv.BicopFamily.gumbel]
    controls = pv.FitControlsVinecop(family_set=families, trunc_lvl=TRUNCATION, num_threads=1)
    vine = pv.Vinecop.from_data(u, controls=controls)
    draws = vine.sample(count, seeds=[seed])
    return np.column_stack([np.interp(draws[:, j], cdf, grid) for j, (grid, cdf) in enumerate(tables)])


def generate(X: np.ndarray, y: np.ndarray, kind: str, seed: int, mixture=None) -> tuple[np.ndarray, np.ndarray]:
    """As many synthetic normals and anomalies of ``kind`` as ``y`` has of each, from ``X``'s normal rows only.
    Returns ``(X, y)`` with the normals first (the split that follows shuffles). ``mixture``: the same rows' and
    seed's :func:`fit_mixture`, when already fitted (left unchanged; the same output as fitting it here)."""
    if kind not in TYPES:
        raise ValueError(f"unknown anomaly type {kind!r}; expected one of {list(TYPES)}")
    pts_n, pts_a = int((y == 0).sum()), int((y == 1).sum())
    normal = np.asarray(X[y == 0], dtype=float)
    rng = np.random.RandomState(seed)
    if kind == "dependency":
        if normal.shape[1] > MAX_DEPENDENCY_FEATURES:
            normal = normal[:, np.sort(rng.choice(normal.shape[1], MAX_DEPENDENCY_FEATURES, replace=False))]
        marginals = _kde_marginals(normal, seed)
        synthetic_normal = _vine_normals(normal, marginals, pts_n, seed)
        anomalies = np.column_stack([m.sample(pts_a) for m in marginals])
    else:
        gm = copy.deepcopy(mixture) if mixture is not None else fit_mixture(X, y, seed)
        synthetic_normal = gm.sample(pts_n)[0]
        if kind == "local":
            gm.covariances_ = ALPHA * gm.covariances_
            anomalies = gm.sample(pts_a)[0]
        elif kind == "cluster":
            gm.means_ = ALPHA * gm.means_
            anomalies = gm.sample(pts_a)[0]
        else:
            anomalies = _global_anomalies(synthetic_normal, pts_a, rng)
    out = np.concatenate([synthetic_normal, anomalies])
    if not np.isfinite(out).all():
        raise ValueError(f"{kind} anomalies: the fitted generator drew non-finite values")
    return out, np.repeat([0, 1], [pts_n, pts_a])
