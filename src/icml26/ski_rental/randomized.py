"""Randomized policies: Karlin's distribution and the robust stopping distribution.

A randomized policy draws its buy day ``x ~ q`` over ``1..N+1``. Its expected
ratio under a predicted distribution ``p_hat`` is ``sum_x q_x ECR(x; p_hat)``
(linear in ``q``), and it is ``R``-robust when ``E_q[ALG(T)] <= R OPT(T)``
for every ``T``. The best ``R``-robust policy is the linear programme

    minimise    sum_x q_x ECR(x; p_hat)
    subject to  A q <= R * OPT,  sum_x q_x = 1,  q >= 0,

with ``A[T, x] = ALG_x(T)``. It is feasible iff ``R >= rho_B =
1 / (1 - (1 - 1/B)^B)`` (the optimal randomized ratio); at ``R = rho_B`` its
only solution is Karlin's distribution. The paper computes this stopping
distribution with a water-filling algorithm; we solve the programme with
HiGHS (the reference) -- see the README for why.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from .model import SkiRental


class InfeasibleRobustness(ValueError):
    """No buy-day distribution meets the requested robustness ``R``."""


def rho(B: int) -> float:
    """Optimal randomized competitive ratio ``1 / (1 - (1 - 1/B)^B)`` (tends to ``e/(e-1)``)."""
    return 1.0 / (1.0 - (1.0 - 1.0 / B) ** B)


def truncated_exponential(problem: SkiRental, k: int) -> np.ndarray:
    """``q_i proportional to (1 - 1/B)^(k - i)`` on days ``1..k`` (Karlin's shape, cut at day ``k``)."""
    if not 1 <= k <= problem.N + 1:
        raise ValueError(f"last buy day must lie in 1..N+1, got {k}")
    q = np.zeros(problem.N + 1)
    i = np.arange(1, k + 1)
    q[:k] = (1.0 - 1.0 / problem.B) ** (k - i)
    return q / q.sum()


def karlin(problem: SkiRental) -> np.ndarray:
    """Karlin et al.'s optimal randomized policy: the truncated exponential on ``1..B``."""
    return truncated_exponential(problem, problem.B)


def robust_stopping_distribution(problem: SkiRental, p_hat: np.ndarray, R: float) -> np.ndarray:
    """Buy-day distribution of least expected ratio under ``p_hat`` that is ``R``-robust.

    The dense programme has an ``N x (N+1)`` constraint matrix. With the CDF
    ``Q_T = sum_{x<=T} q_x`` and ``S_T = sum_{t<=T} Q_t``, summation by parts
    gives ``E_q[ALG(T)] = T + (B-1) Q_T - S_{T-1}``, so we solve the equivalent
    sparse programme over ``(q, Q, S)`` (about ``8N`` non-zeros), which HiGHS
    solves in milliseconds where the dense one takes a second at ``N = 500``.
    Raises :class:`InfeasibleRobustness` when ``R < rho_B``.
    """
    N, B = problem.N, problem.B
    n_q, n = N + 1, 3 * N + 1
    iq, iQ, iS = 0, N + 1, 2 * N + 1  # offsets of q, Q, S in the variable vector
    T = np.arange(N)
    eye = np.ones(N)
    # Q_T - Q_{T-1} - q_T = 0 and S_T - S_{T-1} - Q_T = 0, T = 1..N (Q_0 = S_0 = 0).
    rows = np.r_[T, T[1:], T, N + T, N + T[1:], N + T]
    cols = np.r_[iQ + T, iQ + T[1:] - 1, iq + T, iS + T, iS + T[1:] - 1, iQ + T]
    vals = np.r_[eye, -eye[1:], -eye, eye, -eye[1:], -eye]
    A_eq = sparse.coo_matrix((vals, (rows, cols)), shape=(2 * N, n)).tocsr()
    A_eq = sparse.vstack([A_eq, sparse.csr_matrix((np.ones(n_q), (np.zeros(n_q), np.arange(n_q))), shape=(1, n))])
    b_eq = np.r_[np.zeros(2 * N), 1.0]
    # (B-1) Q_T - S_{T-1} <= R OPT(T) - T.
    rows = np.r_[T, T[1:]]
    cols = np.r_[iQ + T, iS + T[1:] - 1]
    vals = np.r_[(B - 1) * eye, -eye[1:]]
    A_ub = sparse.coo_matrix((vals, (rows, cols)), shape=(N, n)).tocsr()
    b_ub = R * problem.opt() - problem.days
    cost = np.r_[problem.ecr_all(p_hat), np.zeros(2 * N)]
    res = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if res.status == 2:
        raise InfeasibleRobustness(f"no {R:.6g}-robust policy exists for B={B} (need R >= {rho(B):.6g})")
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the robust stopping-distribution LP: {res.message}")
    q = np.clip(res.x[:n_q], 0.0, None)
    return q / q.sum()


def robust_stopping_distribution_dense(problem: SkiRental, p_hat: np.ndarray, R: float) -> np.ndarray:
    """The same programme with the dense ``A q <= R OPT`` constraints (the test oracle)."""
    res = linprog(
        problem.ecr_all(p_hat),
        A_ub=problem.alg_matrix(),
        b_ub=R * problem.opt(),
        A_eq=np.ones((1, problem.N + 1)),
        b_eq=[1.0],
        bounds=(0, None),
        method="highs",
    )
    if res.status == 2:
        raise InfeasibleRobustness(f"no {R:.6g}-robust policy exists for B={problem.B}")
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the dense LP: {res.message}")
    return np.clip(res.x, 0.0, None)


def game_value(problem: SkiRental) -> tuple[float, np.ndarray]:
    """Minimax ratio ``min_q max_T E_q[ALG(T)]/OPT(T)`` and its policy, by LP (no prediction)."""
    n = problem.N + 1
    c = np.r_[np.zeros(n), 1.0]
    A_ub = np.c_[problem.alg_matrix(), -problem.opt()]
    res = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(problem.N),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=(0, None),
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the game LP: {res.message}")
    return float(res.fun), res.x[:n]
