"""Instances and topologies as arrays (one ``.npz`` per set), and the user's placements by path.

Sets mix node counts, so arrays are padded to the largest ``N`` of the set: ``positions [M, Nmax, 2]``,
``orientations [M, Nmax]``, ``nodes [M]`` (the real count of each instance), ``radius`` (one value) and, for a
set with its targets, ``links [M, Nmax, Nmax]`` (0/1, symmetric) and ``parity [M, Nmax]``.

A user's placements (``data.placements`` at paper scale: positions and orientations from a real deployment)
need ``positions`` and ``orientations`` (``nodes`` optional, default all ``Nmax``); :func:`validate` names what
is wrong with them, and the radius comes from the config.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .simulator import Instance, Topology, range_graph


def to_arrays(instances: list[Instance], topologies: list[Topology] | None = None) -> dict[str, np.ndarray]:
    size = max(x.n for x in instances)
    m = len(instances)
    out = {
        "positions": np.zeros((m, size, 2)),
        "orientations": np.zeros((m, size)),
        "nodes": np.array([x.n for x in instances], np.int64),
        "radius": np.array([instances[0].radius]),
    }
    for k, x in enumerate(instances):
        out["positions"][k, : x.n], out["orientations"][k, : x.n] = x.positions, x.orientations
    if topologies is not None:
        out["links"] = np.zeros((m, size, size), np.int8)
        out["parity"] = np.zeros((m, size), np.int64)
        for k, topology in enumerate(topologies):
            n = len(topology.parity)
            out["links"][k, :n, :n], out["parity"][k, :n] = topology.adjacency(n), topology.parity
    return out


def instances(arrays: dict[str, np.ndarray], radius: float | None = None) -> list[Instance]:
    r = float(np.ravel(arrays["radius"])[0]) if radius is None else radius
    count = arrays.get("nodes", np.full(len(arrays["positions"]), arrays["positions"].shape[1]))
    return [
        Instance(arrays["positions"][k, :n].copy(), arrays["orientations"][k, :n].copy(), r)
        for k, n in enumerate(count.astype(int))
    ]


def examples(arrays: dict[str, np.ndarray]) -> list[tuple[Instance, Topology]]:
    """A set with its targets, as (instance, target topology) pairs."""
    out = []
    for k, instance in enumerate(instances(arrays)):
        n = instance.n
        links = zip(*np.nonzero(np.triu(arrays["links"][k, :n, :n], 1)))
        out.append((instance, Topology.of([(int(i), int(j)) for i, j in links], arrays["parity"][k, :n])))
    return out


def validate(arrays: dict[str, np.ndarray], radius: float) -> str | None:
    """What is wrong with a user's placements (``None`` when nothing is): missing arrays, shapes, positions
    outside the unit square, a range graph that is not connected at ``radius``."""
    for key in ("positions", "orientations"):
        if key not in arrays:
            return f"no array {key!r} (need positions [M, N, 2] and orientations [M, N])"
    positions, orientations = arrays["positions"], arrays["orientations"]
    if positions.ndim != 3 or positions.shape[2] != 2 or len(positions) == 0:
        return f"positions must be [M, N, 2] with M >= 1, got {list(positions.shape)}"
    if orientations.shape != positions.shape[:2]:
        return f"orientations must be [M, N] = {list(positions.shape[:2])}, got {list(orientations.shape)}"
    if positions.shape[1] < 2:
        return f"every instance needs at least 2 nodes to link, got {positions.shape[1]} node per instance"
    nodes = arrays.get("nodes", np.full(len(positions), positions.shape[1]))
    if nodes.shape != (len(positions),):
        return f"nodes must be [M] = [{len(positions)}] counts, got {list(nodes.shape)}"
    bad = np.flatnonzero((nodes < 2) | (nodes > positions.shape[1]))
    if len(bad):
        k = int(bad[0])
        return f"instance {k}: nodes must be a count in [2, {positions.shape[1]}] (the padded width), got {nodes[k]}"
    if not (np.isfinite(positions).all() and np.isfinite(orientations).all()):
        return "positions and orientations must be finite"
    for k, instance in enumerate(instances({**arrays, "nodes": nodes}, radius)):
        if (instance.positions < 0).any() or (instance.positions > 1).any():
            return f"instance {k}: positions outside the unit square"
        if not nx.is_connected(range_graph(instance)):
            return f"instance {k}: the range graph is not connected at radius {radius} (the config's radius)"
    return None
