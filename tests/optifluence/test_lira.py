"""The spec's LiRA oracles: the analytic Neyman-Pearson ROC, TPR@FPR on known score lists, and the
leave-one-model-out fits against a brute-force refit."""

import numpy as np
import pytest
import torch
from scipy.stats import norm

from icml26.optifluence.lira import clopper_pearson, lira_online, neyman_pearson_tpr, tpr_at_fpr
from icml26.optifluence.models import hinge


def test_lira_on_gaussian_scores_matches_the_neyman_pearson_roc():
    rng = np.random.default_rng(0)
    models, canaries, separation = 400, 60, 2.0
    member = np.stack([rng.permutation(np.arange(models) < models // 2) for _ in range(canaries)], axis=1)
    scores = rng.normal(size=(models, canaries)) + separation * member
    stat = lira_online(scores, member)
    for fpr in (0.01, 0.05, 0.2):
        expected = float(neyman_pearson_tpr(np.array(fpr), separation))
        assert tpr_at_fpr(member.ravel(), stat.ravel(), fpr) == pytest.approx(expected, abs=0.03)


def test_tpr_at_fpr_interpolates_between_the_tops_of_the_roc_steps():
    labels = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    scores = np.array([0.0, 1.0, 2.0, 3.0, 2.5, 4.0, 5.0, 6.0])
    # ROC corners: (0, 3/4) at threshold 4, (1/4, 1) at threshold 2.5: a randomised threshold reaches the segment
    assert tpr_at_fpr(labels, scores, 0.0) == 0.75
    assert tpr_at_fpr(labels, scores, 0.125) == pytest.approx(0.875)
    assert tpr_at_fpr(labels, scores, 0.25) == 1.0
    assert tpr_at_fpr(labels, -scores, 0.5) == 0.0  # a statistic pointing the wrong way finds nobody at FPR 1/2


def test_leave_one_model_out_fits_equal_a_refit_without_the_target():
    rng = np.random.default_rng(1)
    scores, member = rng.normal(size=(9, 3)), rng.random((9, 3)) < 0.5
    member[:3], member[3:6] = True, False  # at least three of each per canary
    stat = lira_online(scores, member)
    for t in range(9):
        for c in range(3):
            others = np.arange(9) != t
            inside, outside = scores[others & member[:, c], c], scores[others & ~member[:, c], c]
            expected = norm.logpdf(scores[t, c], inside.mean(), inside.std(ddof=1)) - norm.logpdf(
                scores[t, c], outside.mean(), outside.std(ddof=1)
            )
            assert stat[t, c] == pytest.approx(expected, rel=1e-9)


def test_lira_refuses_too_few_models_per_side():
    member = np.array([[True], [True], [False], [False]])
    with pytest.raises(ValueError, match="LiRA needs >= 2 IN models"):
        lira_online(np.zeros((4, 1)), member)


def test_clopper_pearson_closed_forms():
    assert clopper_pearson(0, 10) == pytest.approx((0.0, 1 - 0.025 ** (1 / 10)))
    assert clopper_pearson(10, 10) == pytest.approx((0.025 ** (1 / 10), 1.0))


def test_hinge_is_the_own_logit_minus_the_best_other():
    z = torch.tensor([[2.0, 5.0, 1.0], [0.5, -1.0, 3.0]])
    assert hinge(z, torch.tensor([1, 0])).tolist() == [3.0, -2.5]
