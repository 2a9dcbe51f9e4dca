"""The directional MANET simulator: placements, sectors, the two-slot parity schedule, SINR and throughput (ours).

The spec describes the setting; these are our definitions of it (docs/papers/netdiff.md):

- **Placement** (:func:`place`): ``N`` nodes uniform in the unit square, redrawn until the *range graph* (pairs
  closer than ``radius``) is connected; each node gets a uniform antenna orientation ``theta_i``.
- **Sectors**: node ``i`` sees node ``j`` in sector ``floor(((atan2(yj - yi, xj - xi) - theta_i) mod 2 pi) / (2 pi /
  K))`` (:func:`sector_of`). A topology may hold at most one link per (node, sector).
- **Parity and half duplex**: every node has a parity ``p_i`` in {0, 1}; in slot 0 the parity-0 nodes transmit and
  the parity-1 nodes receive, in slot 1 the reverse, so a link is usable in both directions only between opposite
  parities (a feasible topology is bipartite under ``p``).
- **Beams and gains**: a node's active beams are the sectors holding its links. A transmission ``i -> j`` uses
  ``i``'s beam towards ``j`` (gain ``main`` at receivers inside that sector, ``side`` elsewhere) and is received on
  ``j``'s beam towards ``i`` (gain ``main`` for senders inside that sector, ``side`` elsewhere); gains are linear
  (``side = 10 ** (side_db / 10)``, ``main = 1``).
- **SINR**: ``P g_t g_r d ** -alpha / (noise + interference)``, the interference at ``j`` summing every other
  transmission of the same slot (every link of every same-parity node, the sender's own other beams included,
  each with power ``P``) through the same two gains. **Throughput** ``J = sum over links of 1/2 log2(1 + SINR)``
  in each direction (each direction has half the time).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np


@dataclass(frozen=True)
class Channel:
    sectors: int = 4  # K
    side_db: float = -6.0  # side-lobe gain relative to the main lobe
    alpha: float = 3.0  # path-loss exponent
    power: float = 1.0
    noise: float = 1e-3

    @property
    def side(self) -> float:
        return 10 ** (self.side_db / 10)


@dataclass(frozen=True)
class Instance:
    positions: np.ndarray  # [N, 2] in the unit square
    orientations: np.ndarray  # [N] antenna orientation, radians
    radius: float  # communication range: links only between nodes closer than it

    @property
    def n(self) -> int:
        return len(self.positions)

    def distances(self) -> np.ndarray:
        return np.linalg.norm(self.positions[:, None] - self.positions[None], axis=-1)

    def in_range(self) -> np.ndarray:
        d = self.distances()
        return (d < self.radius) & ~np.eye(self.n, dtype=bool)


def range_graph(instance: Instance) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(range(instance.n))
    graph.add_edges_from(zip(*np.nonzero(np.triu(instance.in_range()))))
    return graph


def candidates(instance: Instance) -> list[tuple[int, int]]:
    """In-range pairs ``(i, j)``, ``i < j``, nearest (highest SNR) first; ties by index, so the order is fixed."""
    d = instance.distances()
    pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(instance.in_range())))]
    return sorted(pairs, key=lambda p: (d[p], p))


def place(n: int, radius: float, rng: np.random.Generator, max_tries: int = 1000) -> Instance:
    """Nodes uniform in the unit square with a connected range graph (redrawn until it is)."""
    for _ in range(max_tries):
        instance = Instance(rng.random((n, 2)), rng.uniform(0, 2 * np.pi, n), radius)
        if nx.is_connected(range_graph(instance)):
            return instance
    raise ValueError(f"no connected placement of {n} nodes with radius {radius} in {max_tries} draws")


def sector_of(instance: Instance, sectors: int) -> np.ndarray:
    """``[N, N]``: the sector of node ``i`` in which it sees node ``j`` (the diagonal is meaningless)."""
    delta = instance.positions[None] - instance.positions[:, None]  # [i, j] = x_j - x_i
    bearing = np.arctan2(delta[..., 1], delta[..., 0])
    relative = np.mod(bearing - instance.orientations[:, None], 2 * np.pi)
    return np.minimum((relative // (2 * np.pi / sectors)).astype(int), sectors - 1)


@dataclass(frozen=True)
class Topology:
    links: frozenset[tuple[int, int]]  # undirected, each as (i, j) with i < j
    parity: np.ndarray  # [N] in {0, 1}

    @staticmethod
    def of(links, parity) -> Topology:
        return Topology(frozenset((min(a, b), max(a, b)) for a, b in links if a != b), np.asarray(parity, int))

    def adjacency(self, n: int) -> np.ndarray:
        """``[n, n]`` 0/1, symmetric: the links as a matrix."""
        a = np.zeros((n, n), np.int64)
        for i, j in self.links:
            a[i, j] = a[j, i] = 1
        return a


def violations(instance: Instance, topology: Topology, channel: Channel) -> dict[str, int]:
    """Constraint violations: links out of range, (node, sector) pairs with more than one link (none for an
    omnidirectional antenna, ``K = 1``: it has no sectors to fill), links between equal parities (half duplex)."""
    sector = sector_of(instance, channel.sectors)
    in_range = instance.in_range()
    used: dict[tuple[int, int], int] = {}
    for i, j in topology.links:
        used[(i, sector[i, j])] = used.get((i, sector[i, j]), 0) + 1
        used[(j, sector[j, i])] = used.get((j, sector[j, i]), 0) + 1
    return {
        "range": sum(not in_range[i, j] for i, j in topology.links),
        "sector": sum(count - 1 for count in used.values() if count > 1) if channel.sectors > 1 else 0,
        "parity": sum(topology.parity[i] == topology.parity[j] for i, j in topology.links),
    }


def sinr(instance: Instance, topology: Topology, channel: Channel) -> dict[tuple[int, int], float]:
    """SINR (linear) of every directed transmission ``(i, j)`` of a topology's links, in the slot where ``i`` sends.
    Every node with parity ``s`` sends on all its links in slot ``s``."""
    directed = np.array([(i, j) for a, b in sorted(topology.links) for i, j in ((a, b), (b, a))], int).reshape(-1, 2)
    if not len(directed):
        return {}
    sector = sector_of(instance, channel.sectors)
    distance = instance.distances()
    np.fill_diagonal(distance, np.inf)
    path = channel.power * distance ** (-channel.alpha)
    i, j = directed[:, 0], directed[:, 1]  # receptions (rows)
    k, m = directed[:, 0], directed[:, 1]  # transmissions (columns)
    # gain of transmission (k -> m) at the receiver of (i -> j): k's beam towards m, j's beam towards i
    g_t = np.where(sector[k[None, :], j[:, None]] == sector[k, m][None, :], 1.0, channel.side)
    g_r = np.where(sector[j[:, None], k[None, :]] == sector[j, i][:, None], 1.0, channel.side)
    power = g_t * g_r * path[k[None, :], j[:, None]]
    same_slot = topology.parity[k][None, :] == topology.parity[i][:, None]
    others = ~np.eye(len(directed), dtype=bool)  # every other transmission, the sender's other beams included
    interference = np.where(same_slot & others, power, 0.0).sum(axis=1)
    signal = path[i, j]  # both beams point along the link: main lobe at both ends
    values = signal / (channel.noise + interference)
    return {(int(a), int(b)): float(v) for (a, b), v in zip(directed, values)}


def throughput(values: dict[tuple[int, int], float]) -> float:
    """``J = sum 1/2 log2(1 + SINR)`` over both directions of every link."""
    return float(sum(0.5 * np.log2(1 + s) for s in values.values()))


def metrics(instance: Instance, topology: Topology, channel: Channel) -> dict[str, float]:
    """Throughput, min SINR (dB), share of transmissions at >= 0 dB, connectivity, violations, density, sector
    usage (share of the N K (node, sector) slots holding a link)."""
    values = sinr(instance, topology, channel)
    graph = nx.Graph()
    graph.add_nodes_from(range(instance.n))
    graph.add_edges_from(topology.links)
    sinr_db = 10 * np.log10(np.array(list(values.values()))) if values else np.array([])
    sector = sector_of(instance, channel.sectors)
    slots = {(i, sector[i, j]) for a, b in topology.links for i, j in ((a, b), (b, a))}
    return {
        "throughput": throughput(values),
        "min_sinr_db": float(sinr_db.min()) if len(sinr_db) else float("nan"),
        "good_links": float((sinr_db >= 0).mean()) if len(sinr_db) else float("nan"),
        "connected": bool(nx.is_connected(graph)),
        **{f"{k}_violations": v for k, v in violations(instance, topology, channel).items()},
        "density": len(topology.links) / (instance.n * (instance.n - 1) / 2),
        "sector_usage": len(slots) / (instance.n * channel.sectors),
    }
