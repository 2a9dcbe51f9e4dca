"""The exact check for small instances: a MILP over links and parities (scipy ``milp``, HiGHS).

SINR makes throughput non-linear, so the MILP optimises the interference-free surrogate ``sum_e x_e w_e`` with
``w_e = log2(1 + SNR_e)`` (both directions, half the time each: ``w_e`` per link) under the same constraints as
every topology: links only in range, at most one per (node, sector), opposite parities at both ends
(``x_ij <= p_i + p_j``, ``x_ij <= 2 - p_i - p_j``) and a connected link graph (a single-commodity flow from node
0 that delivers one unit to every other node over chosen links). Node 0's parity is fixed to 0 (the two
colourings are symmetric). Ours: the spec names the MILP, not its formulation. On this objective its optimum bounds
every feasible connected topology, heuristic or target (a test checks it for N <= 8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .simulator import Channel, Instance, Topology, sector_of


def snr_weights(instance: Instance, channel: Channel) -> np.ndarray:
    """``[N, N]`` interference-free rate ``log2(1 + SNR)`` of every in-range pair (0 elsewhere)."""
    d = instance.distances()
    np.fill_diagonal(d, np.inf)
    snr = channel.power * d ** (-channel.alpha) / channel.noise
    return np.where(instance.in_range(), np.log2(1 + snr), 0.0)


def surrogate(instance: Instance, topology: Topology, channel: Channel) -> float:
    w = snr_weights(instance, channel)
    return float(sum(w[i, j] for i, j in topology.links))


@dataclass(frozen=True)
class Solution:
    """The MILP's answer: the best topology found and its objective, the bound on the optimum (equal to the value
    when ``optimal``; at the time limit HiGHS's dual bound, which still bounds every feasible topology)."""

    topology: Topology
    value: float
    bound: float
    optimal: bool


def solve(instance: Instance, channel: Channel, time_limit: float = 60.0, node_limit: int | None = None) -> Solution:
    """The surrogate-optimal feasible connected topology and its objective."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    n, sector, w = instance.n, sector_of(instance, channel.sectors), snr_weights(instance, channel)
    edges = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(instance.in_range())))]
    e = len(edges)
    # variables: x_e (e), p_i (n), flow f_ij and f_ji per edge (2e)
    size = e + n + 2 * e
    x, p, f = np.arange(e), e + np.arange(n), e + n + np.arange(2 * e)
    rows, lower, upper = [], [], []

    def add(coefficients: dict[int, float], lo: float, hi: float) -> None:
        row = np.zeros(size)
        for index, value in coefficients.items():
            row[index] += value
        rows.append(row)
        lower.append(lo)
        upper.append(hi)

    for node in range(n):  # one link per (node, sector)
        for s in range(channel.sectors):
            members = [
                k
                for k, (i, j) in enumerate(edges)
                if (i == node and sector[i, j] == s) or (j == node and sector[j, i] == s)
            ]
            if len(members) > 1:
                add({x[k]: 1.0 for k in members}, -np.inf, 1.0)
    for k, (i, j) in enumerate(edges):  # opposite parities
        add({x[k]: 1.0, p[i]: -1.0, p[j]: -1.0}, -np.inf, 0.0)
        add({x[k]: 1.0, p[i]: 1.0, p[j]: 1.0}, -np.inf, 2.0)
        add({f[2 * k]: 1.0, x[k]: -(n - 1)}, -np.inf, 0.0)  # flow only over chosen links
        add({f[2 * k + 1]: 1.0, x[k]: -(n - 1)}, -np.inf, 0.0)
    for node in range(n):  # flow conservation: node 0 sends n - 1, every other node keeps one
        balance: dict[int, float] = {}
        for k, (i, j) in enumerate(edges):
            if i == node:
                balance[f[2 * k]] = balance.get(f[2 * k], 0) + 1.0  # out along i -> j
                balance[f[2 * k + 1]] = balance.get(f[2 * k + 1], 0) - 1.0
            elif j == node:
                balance[f[2 * k + 1]] = balance.get(f[2 * k + 1], 0) + 1.0
                balance[f[2 * k]] = balance.get(f[2 * k], 0) - 1.0
        target = n - 1 if node == 0 else -1
        add(balance, target, target)
    cost = np.zeros(size)
    cost[x] = -np.array([w[i, j] for i, j in edges])
    integrality = np.zeros(size)
    integrality[x], integrality[p] = 1, 1
    upper_bounds = np.full(size, np.inf)
    upper_bounds[x], upper_bounds[p] = 1, 1
    upper_bounds[p[0]] = 0
    result = milp(
        cost,
        constraints=LinearConstraint(np.array(rows), lower, upper),
        integrality=integrality,
        bounds=Bounds(np.zeros(size), upper_bounds),
        options={"time_limit": time_limit} | ({"node_limit": node_limit} if node_limit is not None else {}),
    )
    if result.x is None:
        if result.status == 1:
            raise ValueError(f"the MILP found no topology within its time limit of {time_limit:g} s: raise time_limit")
        raise ValueError(f"the MILP found no feasible connected topology ({result.message})")
    chosen = [edges[k] for k in range(e) if result.x[x[k]] > 0.5]
    value = float(-result.fun)
    optimal = result.status == 0  # 1: the time or node limit, with an incumbent that need not be optimal
    bound = value if optimal else float(-result.mip_dual_bound)
    return Solution(Topology.of(chosen, np.round(result.x[p]).astype(int)), value, bound, optimal)
