"""The discrete ski-rental model.

Buy cost ``B`` (integer >= 2), renting costs 1 per day, the number of ski days
``T`` lies in ``1..N``. A deterministic threshold policy ``x in 1..N+1`` rents
on days ``< x`` and buys at the start of day ``x`` (``x = N+1``: never buys):

    ALG_x(T) = T            if T < x
             = x - 1 + B    otherwise,         OPT(T) = min(T, B).

A randomized policy is a distribution ``q`` over buy days ``1..N+1``. Arrays
indexed by ``T`` have length ``N`` (index ``T-1``); arrays indexed by a buy
day have length ``N+1`` (index ``x-1``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SkiRental:
    """One problem size: buy cost ``B`` and horizon ``N`` (ski days ``1..N``)."""

    B: int
    N: int

    def __post_init__(self) -> None:
        if int(self.B) != self.B or self.B < 2:
            raise ValueError(f"buy cost B must be an integer >= 2, got {self.B}")
        if int(self.N) != self.N or self.N < self.B:
            raise ValueError(f"horizon N must be an integer >= B={self.B}, got {self.N}")

    @property
    def days(self) -> np.ndarray:
        """Possible numbers of ski days ``T = 1..N``."""
        return np.arange(1, self.N + 1)

    @property
    def thresholds(self) -> np.ndarray:
        """Possible buy days ``x = 1..N+1`` (``N+1`` = never buy)."""
        return np.arange(1, self.N + 2)

    def opt(self) -> np.ndarray:
        """Offline optimum ``OPT(T) = min(T, B)`` for every ``T``."""
        return np.minimum(self.days, self.B).astype(float)

    def alg_matrix(self) -> np.ndarray:
        """``A[T-1, x-1] = ALG_x(T)``: cost of every threshold on every day count."""
        T = self.days[:, None]
        x = self.thresholds[None, :]
        return np.where(T < x, T, x - 1 + self.B).astype(float)

    def ratio_matrix(self) -> np.ndarray:
        """``ALG_x(T) / OPT(T)`` for every ``(T, x)``."""
        return self.alg_matrix() / self.opt()[:, None]

    def check_distribution(self, p: np.ndarray) -> np.ndarray:
        """Return ``p`` as a float array after checking it is a distribution on ``1..N``."""
        p = np.asarray(p, dtype=float)
        if p.shape != (self.N,):
            raise ValueError(f"distribution must have length N={self.N}, got shape {p.shape}")
        if np.any(p < -1e-15) or not np.isclose(p.sum(), 1.0, atol=1e-9):
            raise ValueError("distribution must be non-negative and sum to 1")
        return p

    def ecr_all(self, p: np.ndarray) -> np.ndarray:
        """Expected competitive ratio of every threshold, in O(N).

        With ``w_T = p_T / min(T, B)``:
        ``ECR(x) = sum_{T<x} w_T T + (x - 1 + B) * sum_{T>=x} w_T``,
        evaluated with one prefix sum and one suffix sum.
        """
        p = self.check_distribution(p)
        w = p / self.opt()
        rent = np.concatenate([[0.0], np.cumsum(w * self.days)])  # sum_{T<x}, x=1..N+1
        tail = np.concatenate([np.cumsum(w[::-1])[::-1], [0.0]])  # sum_{T>=x}, x=1..N+1
        return rent + (self.thresholds - 1 + self.B) * tail

    def ecr_all_bruteforce(self, p: np.ndarray) -> np.ndarray:
        """Same as :meth:`ecr_all` through the full ``N x (N+1)`` matrix (the O(N^2) oracle)."""
        p = self.check_distribution(p)
        return p @ self.ratio_matrix()

    def ecr(self, x: int, p: np.ndarray) -> float:
        """``ECR(x; p) = E_{T~p}[ALG_x(T) / OPT(T)]``."""
        return float(self.ecr_all(p)[self._index(x)])

    def ratio_of_expectations(self, x: int, p: np.ndarray) -> float:
        """``E[ALG_x(T)] / E[OPT(T)]`` under ``p`` (the other common criterion)."""
        return self.randomized_ratio_of_expectations(self.point_mass(x), p)

    def worst_ratios(self) -> np.ndarray:
        """Worst-case ratio ``max_T ALG_x(T)/OPT(T)`` of every threshold (closed form).

        For ``x <= N`` the worst day count is ``T = x`` (buying just before the
        season ends) or ``T = x - 1`` (the longest pure rental); ``x = N+1``
        rents throughout, worst at ``T = N``.
        """
        x = self.thresholds.astype(float)
        B = self.B
        buy = (x - 1 + B) / np.minimum(x, B)
        rent = np.where(x >= 2, (x - 1) / np.minimum(np.maximum(x - 1, 1), B), 1.0)
        out = np.maximum(buy, rent)
        out[-1] = self.N / min(self.N, B)
        return out

    def worst_ratio(self, x: int) -> float:
        """Worst-case ratio of threshold ``x`` over ``T in 1..N``."""
        return float(self.worst_ratios()[self._index(x)])

    # -- randomized policies -------------------------------------------------
    def check_policy(self, q: np.ndarray) -> np.ndarray:
        q = np.asarray(q, dtype=float)
        if q.shape != (self.N + 1,):
            raise ValueError(f"buy-day distribution must have length N+1={self.N + 1}, got {q.shape}")
        if np.any(q < -1e-9) or not np.isclose(q.sum(), 1.0, atol=1e-9):
            raise ValueError("buy-day distribution must be non-negative and sum to 1")
        return q

    def expected_cost(self, q: np.ndarray) -> np.ndarray:
        """``E_{x~q}[ALG_x(T)]`` for every ``T``, in O(N).

        Summation by parts with the CDF ``Q_T = sum_{x<=T} q_x`` and
        ``S_T = sum_{t<=T} Q_t`` gives ``E[ALG(T)] = T + (B-1) Q_T - S_{T-1}``.
        """
        Q = np.cumsum(self.check_policy(q)[: self.N])
        S_before = np.concatenate([[0.0], np.cumsum(Q)[:-1]])
        return self.days + (self.B - 1) * Q - S_before

    def expected_cost_bruteforce(self, q: np.ndarray) -> np.ndarray:
        """Same as :meth:`expected_cost` through the full cost matrix (the test oracle)."""
        return self.alg_matrix() @ self.check_policy(q)

    def ratio_profile(self, q: np.ndarray) -> np.ndarray:
        """``E_{x~q}[ALG_x(T)] / OPT(T)`` for every ``T``."""
        return self.expected_cost(q) / self.opt()

    def randomized_ecr(self, q: np.ndarray, p: np.ndarray) -> float:
        """Expected competitive ratio ``E_{T~p} E_{x~q}[ALG_x(T)/OPT(T)]``."""
        return float(self.check_distribution(p) @ self.ratio_profile(q))

    def randomized_ratio_of_expectations(self, q: np.ndarray, p: np.ndarray) -> float:
        """``E_{T~p} E_{x~q}[ALG_x(T)] / E_{T~p}[OPT(T)]``."""
        p = self.check_distribution(p)
        return float(p @ self.expected_cost(q) / (p @ self.opt()))

    def randomized_worst_ratio(self, q: np.ndarray) -> float:
        """Robustness of a randomized policy: ``max_T E_q[ALG(T)] / OPT(T)``."""
        return float(self.ratio_profile(q).max())

    def point_mass(self, x: int) -> np.ndarray:
        """The randomized-policy view of deterministic threshold ``x``."""
        q = np.zeros(self.N + 1)
        q[self._index(x)] = 1.0
        return q

    def _index(self, x: int) -> int:
        if not 1 <= x <= self.N + 1:
            raise ValueError(f"threshold must lie in 1..N+1={self.N + 1}, got {x}")
        return int(x) - 1
