"""Conditional rank statistics (CRS): how surprising a point's time is for a group's Cox model.

Insert a point ``(x*, t*)`` at rank ``k = 0..n`` of the group's time order
(``k`` group members before it) and score every ordering by the Cox rank
likelihood, with the inserted point counted as a failure:
``r_k = prod_{failures i} a_i / sum_{j at or after i} a_j``, ``a = exp(beta^T x)``.
The CRS distribution is ``r_k / sum r``. Moving the ``(k+1)``-th member in
front of the point changes only two factors, so with ``S_k = sum_{j > k} a_j``

    log r_{k+1} = log r_k + log(S_k + (1 - delta_{k+1}) a*) - log(S_k + a* - a_{k+1}),

an O(n) pass (the brute force is the tests' oracle). The tail score of the
point at its observed rank ``m = #{group times < t*}``: failures
``2 min(P(K <= m), P(K >= m))``, censored points ``P(K >= m)``; small means outlying.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .cox import Survival


def log_rank_weights(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    """Unnormalised ``log r_k`` for ``k = 0..n`` by the O(n) recursion."""
    logits = group.X @ beta
    a = np.exp(logits)
    a_star = float(np.exp(np.dot(x, beta)))
    suffix = np.concatenate([np.cumsum(a[::-1])[::-1], [0.0]])  # suffix[k] = sum_{j >= k} a_j (0-indexed)
    ev = group.event
    # k = 0: the point first; every member's risk set is its suffix, the point's is everything.
    log_r0 = np.log(a_star) - np.log(suffix[0] + a_star) + np.sum(logits[ev] - np.log(suffix[:-1][ev]))
    steps = np.log(suffix[:-1] + (~ev) * a_star) - np.log(suffix[:-1] + a_star - a)
    return np.concatenate([[log_r0], log_r0 + np.cumsum(steps)])


def log_rank_weights_brute_force(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    """The same by building every ordering explicitly (O(n^2); the oracle)."""
    n = len(group)
    out = np.empty(n + 1)
    a = np.exp(group.X @ beta)
    a_star = float(np.exp(np.dot(x, beta)))
    for k in range(n + 1):
        weights = np.concatenate([a[:k], [a_star], a[k:]])
        events = np.concatenate([group.event[:k], [True], group.event[k:]])
        suffix = np.cumsum(weights[::-1])[::-1]
        out[k] = np.sum(np.log(weights[events]) - np.log(suffix[events]))
    return out


def rank_probabilities(x: np.ndarray, group: Survival, beta: np.ndarray) -> np.ndarray:
    log_r = log_rank_weights(x, group, beta)
    return np.exp(log_r - logsumexp(log_r))


def tail_score(x: np.ndarray, t: float, event: bool, group: Survival, beta: np.ndarray) -> float:
    """CRS tail probability of a point at its observed rank (see the module docstring)."""
    log_r = log_rank_weights(x, group, beta)
    total = logsumexp(log_r)
    m = int(np.searchsorted(group.time, t, side="left"))
    right = np.exp(logsumexp(log_r[m:]) - total)
    if not event:
        return float(right)
    left = np.exp(logsumexp(log_r[: m + 1]) - total)
    return float(min(1.0, 2 * min(left, right)))


def tail_scores(points: Survival, group: Survival, beta: np.ndarray) -> np.ndarray:
    return np.array([tail_score(points.X[i], points.time[i], bool(points.event[i]), group, beta)
                     for i in range(len(points))])
