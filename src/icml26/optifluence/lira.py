"""Membership scores, online LiRA and the ROC numbers an audit reports.

Score: the hinge ``phi(x, y) = z_y - max_{y' != y} z_y'`` of a model's logits (``models.hinge``).
LiRA (online, Carlini et al. 2022): for each canary, Gaussians fitted to its scores in the models that trained
on it (IN) and in those that did not (OUT); the statistic is ``log N(phi; mu_in, sd_in) - log N(phi; mu_out, sd_out)``.
Each model in turn is the target and the Gaussians come from all the *other* models (leave one model
out), so every (model, canary) pair is one membership guess. TPR at a fixed FPR is read off the ROC by
linear interpolation between its points (the ROC of a randomised threshold); ours: the LiRA reference
code takes the last point below the FPR instead, which differs only between ROC points.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest, norm
from sklearn.metrics import roc_auc_score, roc_curve

MIN_SD = 1e-6  # a canary whose scores are all equal (e.g. a fully saturated one) still gets a density


def lira_online(scores: np.ndarray, member: np.ndarray) -> np.ndarray:
    """LiRA statistic of every (model, canary) pair with the Gaussians fitted on the other models.

    ``scores``, ``member``: models x canaries. Needs at least two other IN and two other OUT models per pair.
    """
    scores = np.asarray(scores, dtype=np.float64)
    member = np.asarray(member, dtype=bool)
    densities = {}
    for inside in (True, False):
        own = member == inside  # this pair's own score sits in this group: leave it out
        mask = member if inside else ~member
        n = mask.sum(axis=0) - own
        if (n < 2).any():
            raise ValueError(
                f"LiRA needs >= 2 {'IN' if inside else 'OUT'} models per canary besides the target; "
                f"some canary has {int(n.min())} (use more models)"
            )
        total = (scores * mask).sum(axis=0) - scores * own
        squares = (scores**2 * mask).sum(axis=0) - scores**2 * own
        mean = total / n
        sd = np.sqrt(np.maximum(squares / n - mean**2, 0.0) * n / (n - 1))
        densities[inside] = norm.logpdf(scores, mean, np.maximum(sd, MIN_SD))
    stat = densities[True] - densities[False]
    return stat


def tpr_at_fpr(labels: np.ndarray, statistic: np.ndarray, fpr: float) -> float:
    """TPR at ``fpr`` on the ROC of ``statistic`` (higher = member), interpolated between ROC points."""
    fprs, tprs, _ = roc_curve(labels, statistic, drop_intermediate=False)
    last = np.r_[fprs[1:] != fprs[:-1], True]  # the top point of each vertical segment
    return float(np.interp(fpr, fprs[last], tprs[last]))


def auc(labels: np.ndarray, statistic: np.ndarray) -> float:
    return float(roc_auc_score(labels, statistic))


def roc_points(labels: np.ndarray, statistic: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """TPR at each FPR of ``grid`` (for log-log ROC plots)."""
    return np.array([tpr_at_fpr(labels, statistic, f) for f in grid])


def clopper_pearson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact binomial interval of a rate (for a TPR: members detected of members)."""
    interval = binomtest(int(successes), int(trials)).proportion_ci(confidence_level=confidence, method="exact")
    return float(interval.low), float(interval.high)


def neyman_pearson_tpr(fpr: np.ndarray, separation: float) -> np.ndarray:
    """The best TPR at ``fpr`` between N(separation, 1) members and N(0, 1) non-members (the closed form the
    LiRA oracle test compares with)."""
    return norm.cdf(separation + norm.ppf(fpr))
