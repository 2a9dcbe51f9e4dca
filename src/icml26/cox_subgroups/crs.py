"""Conditional rank statistics (CRS): how surprising a point's time is for a group's Cox model.

Insert a point ``(x*, t*)`` at rank ``k = 0..n`` of the group's time order
(``k`` group members before it) and score every ordering by the Cox rank
likelihood, with the inserted point counted as a failure:
``r_k = prod_{failures i} a_i / sum_{j at or after i} a_j``, ``a = exp(beta^T x)``.
The CRS distribution is ``r_k / sum r``. Moving member ``k`` (0-indexed) in
front of the point changes only two factors, so with ``S_k = sum_{j >= k} a_j``

    log r_{k+1} = log r_k + log(S_k + (1 - delta_k) a*) - log(S_{k+1} + a*),

an O(n) pass (the brute force is the tests' oracle), computed in logs throughout
(log-sum-exp suffixes, no difference of sums): a confident model (large ``|beta|``)
has weights beyond the float range, where ``exp`` then ``log`` gives
``log 0 - log 0 = nan`` and where the paper's code, which subtracts running sums,
loses precision. The tail score of the point at its observed rank
``m = #{group times < t*}``: failures ``2 min(P(K <= m), P(K >= m))``, censored
points ``P(K >= m)``, in logs; small means outlying.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .cox import Survival


def _log_suffix(logits: np.ndarray) -> np.ndarray:
    """``log sum_{j >= k} e^(logits_j)`` for ``k = 0..n`` (the last is ``-inf``), without leaving logs."""
    return np.concatenate([np.logaddexp.accumulate(logits[::-1])[::-1], [-np.inf]])


def log_rank_weights(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    """Unnormalised ``log r_k`` for ``k = 0..n`` by the O(n) recursion (module docstring), in logs."""
    logits = group.X @ beta
    log_star = float(np.dot(x, beta))
    log_s = _log_suffix(logits)
    ev = group.event
    # k = 0: the point first; every member's risk set is its suffix, the point's is everything.
    log_r0 = log_star - np.logaddexp(log_s[0], log_star) + np.sum(logits[ev] - log_s[:-1][ev])
    steps = np.where(ev, log_s[:-1], np.logaddexp(log_s[:-1], log_star)) - np.logaddexp(log_s[1:], log_star)
    return np.concatenate([[log_r0], log_r0 + np.cumsum(steps)])


def log_rank_weights_brute_force(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    """The same by building every ordering explicitly (O(n^2); the oracle)."""
    n = len(group)
    out = np.empty(n + 1)
    logits = group.X @ beta
    log_star = float(np.dot(x, beta))
    for k in range(n + 1):
        order = np.concatenate([logits[:k], [log_star], logits[k:]])
        events = np.concatenate([group.event[:k], [True], group.event[k:]])
        out[k] = np.sum(order[events] - _log_suffix(order)[:-1][events])
    return out


def rank_probabilities(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    log_r = log_rank_weights(x, group, beta)
    return np.exp(log_r - logsumexp(log_r))


def log_tail_score(x: np.ndarray, t: float, event: bool, group: Survival, beta: np.ndarray) -> float:
    """Log of the CRS tail probability of a point at its observed rank (see the module docstring).

    Kept in logs because a far outlier's tail underflows to 0.0 as a probability, and the rejection step
    ranks points by this score: ties at zero would hide which points are the most surprising. A failure's
    doubled two-sided tail can exceed 1 (log > 0) for a central point; only the order is used, as in the
    paper's code, so it is not clipped.
    """
    log_r = log_rank_weights(x, group, beta)
    total = logsumexp(log_r)
    m = int(np.searchsorted(group.time, t, side="left"))
    right = logsumexp(log_r[m:]) - total
    if not event:
        return float(right)
    left = logsumexp(log_r[: m + 1]) - total
    return float(np.log(2.0) + min(left, right))


def log_tail_scores(points: Survival, group: Survival, beta: np.ndarray) -> np.ndarray:
    return np.array(
        [log_tail_score(points.X[i], points.time[i], bool(points.event[i]), group, beta) for i in range(len(points))]
    )
