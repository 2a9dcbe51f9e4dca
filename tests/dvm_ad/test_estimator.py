"""DVM-AD against the spec's exact oracles and scikit-learn conventions."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.metrics import roc_auc_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from icml26.dvm_ad import DVMAD
from icml26.dvm_ad.estimator import PyODStyle


def standardised(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


@pytest.mark.parametrize("reference", ["max", "min", "farthest"])
def test_full_rank_generalised_eigenvalues_are_ones_and_one_closed_form_value(reference):
    rng = np.random.default_rng(0)
    n, d = 150, 6
    X = rng.standard_normal((n, d)) @ rng.standard_normal((d, d))
    detector = DVMAD(reference=reference).fit(X)
    Z = standardised(X)
    offset = detector.reference_point_ - Z.mean(axis=0)
    S_W = (Z - Z.mean(axis=0)).T @ (Z - Z.mean(axis=0))
    expected = 1 / (1 + n / (n + 1) * offset @ np.linalg.solve(S_W, offset))
    ratios = np.sort(detector.ratios_)
    assert ratios[0] == pytest.approx(expected, rel=1e-9)
    np.testing.assert_allclose(ratios[1:], 1.0, atol=1e-9)


def test_fewer_rows_than_features_gives_n_minus_1_ones_and_a_null_direction():
    rng = np.random.default_rng(1)
    n, d = 7, 20
    detector = DVMAD().fit(rng.standard_normal((n, d)))
    ratios = np.sort(detector.ratios_)
    assert len(ratios) == n  # rank of the total scatter of n + 1 points
    assert abs(ratios[0]) < 1e-9
    np.testing.assert_allclose(ratios[1:], 1.0, atol=1e-9)


def test_separates_shifted_gaussian_outliers():
    """The spec's oracle: fit on 200 N(0,1) inliers, score them with 20 N(6,1) outliers, AUROC > 0.9."""
    rng = np.random.default_rng(2)
    inliers, outliers = rng.standard_normal((200, 8)), rng.standard_normal((20, 8)) + 6
    scores = DVMAD().fit(inliers).anomaly_score(np.vstack([inliers, outliers]))
    assert roc_auc_score(np.r_[np.zeros(200), np.ones(20)], scores) > 0.9


def test_on_fresh_inliers_both_ends_drop_the_reference_direction_but_all_directions_separate():
    """With isotropic data the reference direction's ratio (about 0.79 here) is in neither end, so
    keep='both' discards it and sees fresh inliers and outliers alike; keeping all directions separates."""
    rng = np.random.default_rng(2)
    train, fresh, outliers = (
        rng.standard_normal((200, 8)),
        rng.standard_normal((200, 8)),
        rng.standard_normal((20, 8)) + 6,
    )
    labels = np.r_[np.zeros(200), np.ones(20)]
    both = DVMAD(keep="both").fit(train)
    assert 0.1 < np.sort(both.ratios_)[0] < 0.9 and both.components_.shape[1] == 7
    assert roc_auc_score(labels, both.anomaly_score(np.vstack([fresh, outliers]))) < 0.9
    everything = DVMAD(keep="all").fit(train)
    assert roc_auc_score(labels, everything.anomaly_score(np.vstack([fresh, outliers]))) > 0.99


def test_threshold_flags_about_the_quantile_of_training_rows():
    X = np.random.default_rng(3).standard_normal((400, 5))
    detector = DVMAD(quantile=0.9).fit(X)
    loo = detector._neighbours.kneighbors(detector.embedding_[:-1], n_neighbors=2)[0][:, 1] / detector.threshold_
    assert np.mean(loo > 1) == pytest.approx(0.1, abs=0.01)
    np.testing.assert_array_equal(detector.training_anomaly_scores_, loo)
    flagged = DVMAD(quantile=0.9, novelty=False).fit_predict(X)
    assert set(np.unique(flagged)) == {-1, 1} and np.mean(flagged == -1) == pytest.approx(0.1, abs=0.01)


def test_ratios_lie_in_unit_interval_without_shrinkage_and_keep_modes_select_ends():
    X = np.random.default_rng(4).standard_normal((60, 10))
    both = DVMAD(keep="both").fit(X)
    assert (both.ratios_ >= -1e-12).all() and (both.ratios_ <= 1 + 1e-12).all()
    n_low = int((both.ratios_ < 0.1).sum())
    n_high = int((both.ratios_ > 0.9).sum())
    assert both.components_.shape[1] == n_low + n_high
    assert DVMAD(keep="all").fit(X).components_.shape[1] == len(both.ratios_)


def test_shrinkage_runs_and_scores_are_finite():
    X = np.random.default_rng(5).standard_normal((30, 40))
    scores = DVMAD(shrinkage=True).fit(X).decision_function(X)
    assert np.isfinite(scores).all()


@pytest.mark.parametrize(
    "params,match",
    [
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": 0.5}, "epsilon"),
        ({"reference": "median"}, "reference"),
        ({"keep": "middle"}, "keep"),
    ],
)
def test_bad_parameters_are_rejected_at_fit(params, match):
    with pytest.raises(ValueError, match=match):
        DVMAD(**params).fit(np.ones((5, 2)) + np.arange(10).reshape(5, 2))


def test_predicting_before_fit_raises_not_fitted():
    with pytest.raises(NotFittedError):
        DVMAD().decision_function(np.zeros((2, 3)))


def test_feature_count_is_checked():
    detector = DVMAD().fit(np.random.default_rng(6).standard_normal((20, 3)))
    with pytest.raises(ValueError, match="features"):
        detector.decision_function(np.zeros((2, 4)))
    assert detector.n_features_in_ == 3


def test_scikit_learn_directions_and_the_pyod_adapter_agree_with_the_anomaly_score():
    rng = np.random.default_rng(7)
    train, X = rng.standard_normal((100, 4)), np.vstack([rng.standard_normal((30, 4)), rng.standard_normal((5, 4)) + 8])
    detector = DVMAD(keep="all").fit(train)  # keep="both" drops the shift direction on isotropic data (above)
    ratio = detector.anomaly_score(X)
    np.testing.assert_allclose(detector.score_samples(X), -ratio)
    np.testing.assert_allclose(detector.decision_function(X), 1 - ratio)  # offset_ = -1: negative for outliers
    np.testing.assert_array_equal(detector.predict(X), np.where(ratio > 1, -1, 1))
    assert (detector.predict(X)[-5:] == -1).all()
    pyod_style = PyODStyle(keep="all").fit(train)
    np.testing.assert_array_equal(pyod_style.decision_function(X), ratio)  # the benchmark's AUROC input, unchanged
    np.testing.assert_array_equal(pyod_style.predict(X), (ratio > 1).astype(int))
    np.testing.assert_array_equal(pyod_style.decision_scores_, detector.training_anomaly_scores_)


def test_novelty_decides_which_methods_exist_as_in_local_outlier_factor():
    assert hasattr(DVMAD(), "predict") and not hasattr(DVMAD(), "fit_predict")
    assert hasattr(DVMAD(novelty=False), "fit_predict") and not hasattr(DVMAD(novelty=False), "predict")


@parametrize_with_checks(
    [DVMAD(), DVMAD(novelty=False)],
    expected_failed_checks=lambda estimator: (
        {
            "check_outliers_train": "with novelty=True the training rows are scored against a reference set that holds "
            "them (nearest-neighbour distance 0), so predict(X_train) flags nothing; as with "
            "LocalOutlierFactor, outliers among the training rows come from novelty=False's "
            "fit_predict, which that instance's checks test"
        }
        if estimator.novelty
        else {}
    ),
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
