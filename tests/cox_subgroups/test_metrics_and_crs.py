"""The spec's exact oracles: EPE at beta = 0, CRS sums to one, O(n) recursion = brute force; Cox fit = sksurv."""

import numpy as np
import pytest
from scipy.special import logsumexp
from sksurv.linear_model import CoxPHSurvivalAnalysis
from sksurv.util import Surv

from icml26.cox_subgroups import cox, crs, metrics


def _data(n=60, p=2, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    t = rng.exponential(size=n) / np.exp(X @ np.arange(1, p + 1) * 0.5)
    if ties:
        t = np.round(t, 1) + 0.1
    return X, t, rng.random(n) < 0.7


@pytest.mark.parametrize("alpha", [0.0, 1e-3, 0.5])
def test_cox_fit_matches_scikit_survival(alpha):
    X, t, e = _data()
    ours = cox.fit(cox.Survival.sorted(X, t, e), alpha=alpha)
    ref = CoxPHSurvivalAnalysis(alpha=alpha, ties="breslow").fit(X, Surv.from_arrays(e, t)).coef_
    np.testing.assert_allclose(ours, ref, atol=1e-6)


def test_an_unpenalised_fit_of_separable_data_stops_with_a_large_coefficient_instead_of_failing():
    x = np.linspace(0, 1, 20)
    separable = cox.Survival.sorted(x, 1 - x, np.ones(20, dtype=bool))  # higher x always fails first
    beta = cox.fit(separable, alpha=0.0)
    assert beta[0] > 20 and metrics.epe(separable, beta) < 1e-6
    assert cox.fit(cox.Survival.sorted(np.ones(20), 1 - x, np.ones(20, dtype=bool)), alpha=0.0)[0] == 0.0


def test_epe_of_the_null_model_is_ln2_and_matches_pairwise_definition():
    X, t, e = _data(ties=False)
    data = cox.Survival.sorted(X, t, e)
    assert metrics.epe(data, np.zeros(2)) == pytest.approx(np.log(2), abs=1e-15)
    beta = np.array([0.3, -0.7])
    terms = [
        np.log1p(np.exp(-(data.X[i] - data.X[j]) @ beta))
        for i in range(len(data))
        for j in range(len(data))
        if i != j and data.event[i] and data.time[i] <= data.time[j]
    ]
    assert metrics.epe(data, beta) == pytest.approx(np.mean(terms), rel=1e-12)
    # a model ordering failures correctly scores below ln 2
    assert metrics.epe(data, cox.fit(data)) < np.log(2)


@pytest.mark.parametrize("seed, scale", [(0, 1), (1, 1), (2, 1), (0, 400)])  # 400: weights beyond float range
def test_crs_recursion_matches_brute_force_and_sums_to_one(seed, scale):
    X, t, e = _data(n=40, seed=seed)
    group = cox.Survival.sorted(X, t, e)
    beta = scale * cox.fit(group)
    x = np.random.default_rng(seed + 10).normal(size=2)
    np.testing.assert_allclose(
        crs.log_rank_weights(x, group, beta), crs.log_rank_weights_brute_force(x, group, beta), atol=1e-10
    )
    assert crs.rank_probabilities(x, group, beta).sum() == pytest.approx(1.0, abs=1e-12)


def test_crs_tail_score_flags_a_point_that_fails_far_too_late():
    X, t, e = _data(n=200, ties=False)
    group = cox.Survival.sorted(X, t, e)
    beta = cox.fit(group)
    risky = np.array([3.0, 3.0])  # the model expects it to fail first
    early = crs.log_tail_score(risky, group.time[0] / 2, True, group, beta)
    late = crs.log_tail_score(risky, group.time[-1] * 2, True, group, beta)
    assert early > np.log(0.1) and late < np.log(1e-3)
    # censored: only surviving unexpectedly long is surprising
    assert crs.log_tail_score(risky, group.time[0] / 2, False, group, beta) == pytest.approx(0.0, abs=1e-12)


def test_crs_tail_scores_keep_the_order_of_outliers_whose_probability_underflows():
    X, t, e = _data(n=200, ties=False)
    group = cox.Survival.sorted(X, t, e)
    beta = 40 * cox.fit(group)  # a confident model: late failures of risky points are astronomically unlikely
    late = cox.Survival(
        np.array([[2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]), np.full(3, group.time[-1] * 2), np.ones(3, dtype=bool)
    )
    scores = crs.log_tail_scores(late, group, beta)
    assert np.all(np.exp(scores) == 0.0)  # as probabilities, three ties at zero
    assert scores[0] > scores[1] > scores[2]  # in logs, the riskier point is the more surprising
    # and the exact value at the observed rank: log 2 + log P(K >= n) for a failure after every member
    log_r = crs.log_rank_weights(late.X[1], group, beta)
    assert scores[1] == pytest.approx(np.log(2) + log_r[-1] - logsumexp(log_r), rel=1e-12)


def test_c_index_without_comparable_pairs_is_nan_not_an_error():
    """Two rows whose only event comes last share no comparable pair; scikit-survival raises
    NoComparablePairException (a paper-scale run on whas500 stopped on it), the C-index is documented as nan there,
    and DDGroup skips that neighbourhood."""
    data = cox.Survival(X=np.array([[0.0], [1.0]]), time=np.array([1.0, 2.0]), event=np.array([False, True]))
    assert np.isnan(metrics.c_index(data, np.array([1.0])))
    both = cox.Survival(X=np.array([[0.0], [1.0]]), time=np.array([1.0, 2.0]), event=np.array([True, True]))
    assert metrics.c_index(both, np.array([-1.0])) == 1.0  # a comparable pair, ranked right
