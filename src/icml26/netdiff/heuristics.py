"""The spec's heuristic baselines (ours in their details), each returning a :class:`.simulator.Topology`:

- :func:`omnidirectional`: one sector (``K = 1``, every gain the main lobe), the minimum spanning tree of the
  range graph and its 2-colouring (a tree is bipartite). Evaluate it with ``Channel(sectors=1)``; the
  one-link-per-sector rule does not apply to an omnidirectional antenna.
- :func:`greedy`: candidate links in order of decreasing SNR (increasing distance), each added when it is in
  range, both its sectors are free and the link graph stays bipartite; a maximal feasible topology.
- :func:`mutual_nearest`: per node and sector the nearest in-range node; a link wherever the choice is mutual,
  then links that would close an odd cycle dropped (in order of increasing SNR).
- :func:`random_feasible`: the candidates in a seeded random order, added under the same rules as greedy.

Feasibility uses networkx (bipartiteness, 2-colouring, spanning trees) rather than a hand-written union-find.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .simulator import Channel, Instance, Topology, candidates, range_graph, sector_of


def _parity(graph: nx.Graph, n: int) -> np.ndarray:
    colour = nx.bipartite.color(graph) if graph.number_of_edges() else {}
    return np.array([colour.get(i, 0) for i in range(n)], int)


def _add_feasible(instance: Instance, channel: Channel, order: list[tuple[int, int]]) -> Topology:
    sector = sector_of(instance, channel.sectors)
    graph = nx.Graph()
    graph.add_nodes_from(range(instance.n))
    used: set[tuple[int, int]] = set()
    for i, j in order:
        ends = {(i, int(sector[i, j])), (j, int(sector[j, i]))}
        if ends & used:
            continue
        graph.add_edge(i, j)
        if not nx.is_bipartite(graph):
            graph.remove_edge(i, j)
            continue
        used |= ends
    return Topology.of(graph.edges, _parity(graph, instance.n))


def omnidirectional(instance: Instance) -> Topology:
    tree = nx.minimum_spanning_tree(
        nx.Graph([(i, j, {"weight": instance.distances()[i, j]}) for i, j in range_graph(instance).edges])
    )
    return Topology.of(tree.edges, _parity(tree, instance.n))


def greedy(instance: Instance, channel: Channel) -> Topology:
    return _add_feasible(instance, channel, candidates(instance))


def random_feasible(instance: Instance, channel: Channel, rng: np.random.Generator) -> Topology:
    pairs = candidates(instance)
    return _add_feasible(instance, channel, [pairs[k] for k in rng.permutation(len(pairs))])


def mutual_nearest(instance: Instance, channel: Channel) -> Topology:
    sector, d = sector_of(instance, channel.sectors), instance.distances()
    in_range = instance.in_range()
    nearest = {}
    for i in range(instance.n):
        for j in sorted(np.nonzero(in_range[i])[0], key=lambda j: (d[i, j], j)):
            nearest.setdefault((i, int(sector[i, j])), int(j))
    mutual = [(i, j) for (i, s), j in nearest.items() if i < j and nearest.get((j, int(sector[j, i]))) == i]
    return _add_feasible(instance, channel, sorted(mutual, key=lambda p: (d[p], p)))


def every(instance: Instance, channel: Channel, rng: np.random.Generator) -> dict[str, tuple[Topology, Channel]]:
    """Every heuristic's topology with the channel it is judged on (omnidirectional: the same channel, ``K = 1``)."""
    from dataclasses import replace

    return {
        "greedy": (greedy(instance, channel), channel),
        "mutual_nearest": (mutual_nearest(instance, channel), channel),
        "random_feasible": (random_feasible(instance, channel, rng), channel),
        "omnidirectional": (omnidirectional(instance), replace(channel, sectors=1)),
    }
