"""ADBench's four realistic anomaly types: each generator's defining property, on data whose answer is known."""

import numpy as np
import pytest
from scipy.stats import kendalltau

from icml26.dvm_ad import synthetic


def _gaussian_set(n_normal=600, n_anomaly=60, mean=(2.0, -1.0), seed=0):
    """Normal rows from one Gaussian; the given anomalies far away, so any use of them would show."""
    rng = np.random.default_rng(seed)
    normal = rng.normal(size=(n_normal, len(mean))) + np.asarray(mean)
    anomalies = np.full((n_anomaly, len(mean)), 1000.0)
    return np.vstack([normal, anomalies]), np.repeat([0, 1], [n_normal, n_anomaly])


def _dependent_set(n_normal=500, n_anomaly=50, features=3, seed=0):
    """Features that are near copies of one another: strong dependence, nothing else."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(n_normal + n_anomaly, 1))
    X = base + 0.1 * rng.normal(size=(n_normal + n_anomaly, features))
    return X, np.repeat([0, 1], [n_normal, n_anomaly])


@pytest.mark.parametrize("kind", ["local", "global", "cluster"])
def test_counts_are_kept_and_only_normal_rows_are_fitted(kind):
    X, y = _gaussian_set()
    out, labels = synthetic.generate(X, y, kind, seed=1)
    assert out.shape == X.shape
    assert (labels == 0).sum() == 600 and (labels == 1).sum() == 60
    assert np.abs(out[labels == 0]).max() < 50  # the given anomalies (at 1,000) were not fitted


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_rows():
    X, y = _gaussian_set()
    first, _ = synthetic.generate(X, y, "local", seed=3)
    again, _ = synthetic.generate(X, y, "local", seed=3)
    other, _ = synthetic.generate(X, y, "local", seed=4)
    assert first.tobytes() == again.tobytes()
    assert not np.array_equal(first, other)


def test_a_shared_mixture_gives_the_same_bytes_and_is_left_unchanged():
    X, y = _gaussian_set()
    mixture = synthetic.fit_mixture(X, y, seed=2)
    means, covariances = mixture.means_.copy(), mixture.covariances_.copy()
    for kind in ("local", "global", "cluster"):
        shared, _ = synthetic.generate(X, y, kind, seed=2, mixture=mixture)
        alone, _ = synthetic.generate(X, y, kind, seed=2)
        assert shared.tobytes() == alone.tobytes()
    assert np.array_equal(mixture.means_, means) and np.array_equal(mixture.covariances_, covariances)


def test_local_anomalies_share_the_mean_with_alpha_times_the_covariance():
    X, y = _gaussian_set(n_normal=4000, n_anomaly=4000)
    out, labels = synthetic.generate(X, y, "local", seed=0)
    anomalies = out[labels == 1]
    np.testing.assert_allclose(anomalies.mean(axis=0), [2.0, -1.0], atol=0.15)
    np.testing.assert_allclose(np.cov(anomalies.T), synthetic.ALPHA * np.eye(2), atol=0.5)


def test_cluster_anomalies_sit_at_alpha_times_the_mean_with_the_normal_covariance():
    X, y = _gaussian_set(n_normal=4000, n_anomaly=4000)
    out, labels = synthetic.generate(X, y, "cluster", seed=0)
    anomalies = out[labels == 1]
    np.testing.assert_allclose(anomalies.mean(axis=0), synthetic.ALPHA * np.array([2.0, -1.0]), atol=0.15)
    np.testing.assert_allclose(np.cov(anomalies.T), np.eye(2), atol=0.15)


def test_global_anomalies_are_uniform_on_adbench_widened_range_of_the_synthetic_normals():
    X, y = _gaussian_set(n_normal=600, n_anomaly=3000)
    out, labels = synthetic.generate(X, y, "global", seed=0)
    normals, anomalies = out[labels == 0], out[labels == 1]
    low = normals.min(axis=0) * (1 + synthetic.GLOBAL_PERCENTAGE)
    high = normals.max(axis=0) * (1 + synthetic.GLOBAL_PERCENTAGE)
    assert (anomalies >= low).all() and (anomalies <= high).all()
    np.testing.assert_allclose(anomalies.mean(axis=0), (low + high) / 2, atol=0.3)  # uniform: the midpoint


def test_dependency_normals_keep_the_dependence_and_anomalies_lose_it():
    X, y = _dependent_set()
    out, labels = synthetic.generate(X, y, "dependency", seed=0)
    assert out.shape == X.shape and (labels == 1).sum() == 50
    normals, anomalies = out[labels == 0], out[labels == 1]
    assert kendalltau(X[y == 0, 0], X[y == 0, 1]).statistic > 0.8
    assert kendalltau(normals[:, 0], normals[:, 1]).statistic > 0.6  # the vine carries it over
    assert abs(kendalltau(anomalies[:, 0], anomalies[:, 1]).statistic) < 0.3  # independent marginals: none
    # the marginals are the normal rows' own: the same spread either way
    np.testing.assert_allclose(anomalies.std(axis=0), X[y == 0].std(axis=0), rtol=0.35)


def test_dependency_fits_at_most_adbench_cap_of_features():
    X, y = _dependent_set(n_normal=120, n_anomaly=12, features=synthetic.MAX_DEPENDENCY_FEATURES + 5)
    out, _ = synthetic.generate(X, y, "dependency", seed=0)
    assert out.shape == (132, synthetic.MAX_DEPENDENCY_FEATURES)


def test_an_unknown_type_is_refused_by_name():
    X, y = _gaussian_set()
    with pytest.raises(ValueError, match="unknown anomaly type 'outlier'"):
        synthetic.generate(X, y, "outlier", seed=0)
