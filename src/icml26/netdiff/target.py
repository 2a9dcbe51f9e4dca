"""The target topology of an instance (the spec's recipe; the details are ours):

1. a greedy spanning tree: candidate links by decreasing SNR, each added when it joins two components and both
   its sectors are free (joining two components never breaks bipartiteness); parities are its 2-colouring;
2. densification: the remaining candidates in the same order, each kept when it is feasible (free sectors,
   opposite parities) and raises the true throughput ``J`` (SINR with interference);
3. local search on ``J``, first improvement, until a full pass finds none or ``rounds`` passes are done: add a
   feasible link, remove a link whose removal keeps the graph connected, or flip a node's parity and relink it
   (drop its links, re-add the feasible ones greedily), kept only if the graph stays connected.

The MILP (``milp``) checks it on small N: the target's gap to the surrogate optimum is reported.
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import numpy as np

from .simulator import Channel, Instance, Topology, candidates, sector_of, sinr, throughput


class _State:
    """Links, parities and used (node, sector) slots, with feasibility checks."""

    def __init__(self, instance: Instance, channel: Channel, links, parity):
        self.instance, self.channel = instance, channel
        self.sector = sector_of(instance, channel.sectors)
        self.in_range = instance.in_range()
        self.links, self.parity = set(links), np.array(parity, int)

    def ends(self, i: int, j: int) -> set[tuple[int, int]]:
        return {(i, int(self.sector[i, j])), (j, int(self.sector[j, i]))}

    def used(self) -> set[tuple[int, int]]:
        return {end for i, j in self.links for end in self.ends(i, j)}

    def can_add(self, i: int, j: int, used: set[tuple[int, int]]) -> bool:
        return (
            bool(self.in_range[i, j])
            and (min(i, j), max(i, j)) not in self.links
            and self.parity[i] != self.parity[j]
            and not (self.ends(i, j) & used)
        )

    def topology(self) -> Topology:
        return Topology.of(self.links, self.parity)

    def value(self) -> float:
        return throughput(sinr(self.instance, self.topology(), self.channel))

    def connected(self) -> bool:
        graph = nx.Graph(list(self.links))
        graph.add_nodes_from(range(self.instance.n))
        return nx.is_connected(graph)


def spanning_tree(instance: Instance, channel: Channel) -> Topology:
    """Step 1: the greedy spanning tree (a forest where sectors block every link between two components)."""
    sector = sector_of(instance, channel.sectors)
    components = nx.utils.UnionFind(range(instance.n))
    used: set[tuple[int, int]] = set()
    tree = nx.Graph()
    tree.add_nodes_from(range(instance.n))
    for i, j in candidates(instance):
        ends = {(i, int(sector[i, j])), (j, int(sector[j, i]))}
        if components[i] != components[j] and not ends & used:
            components.union(i, j)
            used |= ends
            tree.add_edge(i, j)
    colour = nx.bipartite.color(tree)
    return Topology.of(tree.edges, [colour[i] for i in range(instance.n)])


def _moves(state: _State, order: list[tuple[int, int]]) -> Iterator[tuple[set, np.ndarray]]:
    used = state.used()
    for i, j in order:
        if state.can_add(i, j, used):
            yield state.links | {(i, j)}, state.parity
    for link in sorted(state.links):
        graph = nx.Graph(list(state.links - {link}))
        graph.add_nodes_from(range(state.instance.n))
        if nx.is_connected(graph):
            yield state.links - {link}, state.parity
    for node in range(state.instance.n):
        parity = state.parity.copy()
        parity[node] = 1 - parity[node]
        flipped = _State(state.instance, state.channel, {e for e in state.links if node not in e}, parity)
        taken = flipped.used()
        for i, j in order:
            if node in (i, j) and flipped.can_add(i, j, taken):
                flipped.links.add((i, j))
                taken |= flipped.ends(i, j)
        if flipped.connected():
            yield flipped.links, parity


def target(instance: Instance, channel: Channel, rounds: int = 20) -> tuple[Topology, int]:
    """The target topology and the number of local-search passes it took."""
    tree = spanning_tree(instance, channel)
    state = _State(instance, channel, tree.links, tree.parity)
    order = candidates(instance)
    best = state.value()
    for i, j in order:  # step 2: densification
        if state.can_add(i, j, state.used()):
            state.links.add((i, j))
            value = state.value()
            if value > best:
                best = value
            else:
                state.links.discard((i, j))
    passes = 0
    for passes in range(1, rounds + 1):  # step 3: local search, first improvement
        improved = False
        for links, parity in _moves(state, order):
            trial = _State(instance, channel, links, parity)
            value = trial.value()
            if value > best + 1e-9:
                state, best, improved = trial, value, True
                break
        if not improved:
            break
    return state.topology(), passes
