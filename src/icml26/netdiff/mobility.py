"""A mobility trace for partial diffusion (ours: the spec says "after nodes move"), and link churn.

Random-direction motion: every node keeps a heading and moves ``speed`` per frame, reflecting off the walls of the
unit square; headings turn by a Gaussian angle (``turn`` radians, standard deviation) and antennas rotate with the
node's heading change. A frame whose range graph is disconnected is redrawn from the previous one with fresh
headings (up to ``max_tries``), so every frame is a valid instance.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .simulator import Instance, Topology, range_graph


def trace(
    start: Instance, frames: int, speed: float, turn: float, rng: np.random.Generator, max_tries: int = 100
) -> list[Instance]:
    """``frames`` instances: ``start`` and its successors."""
    out, heading = [start], rng.uniform(0, 2 * np.pi, start.n)
    for _ in range(frames - 1):
        previous = out[-1]
        for attempt in range(max_tries):
            if attempt:  # headings that keep breaking the range graph are redrawn (else a node heading away is stuck)
                heading = rng.uniform(0, 2 * np.pi, previous.n)
            change = rng.normal(0, turn, previous.n)
            new_heading = heading + change
            step = speed * np.column_stack([np.cos(new_heading), np.sin(new_heading)])
            position = previous.positions + step
            bounced = (position < 0) | (position > 1)
            position = np.where(position < 0, -position, np.where(position > 1, 2 - position, position))
            new_heading = np.where(bounced[:, 0], np.pi - new_heading, new_heading)
            new_heading = np.where(bounced[:, 1], -new_heading, new_heading)
            candidate = Instance(position, np.mod(previous.orientations + change, 2 * np.pi), previous.radius)
            if nx.is_connected(range_graph(candidate)):
                out.append(candidate)
                heading = new_heading
                break
        else:
            raise ValueError(f"no connected frame after {max_tries} draws (speed {speed} too large?)")
    return out


def churn(before: Topology, after: Topology) -> float:
    """Share of links that changed: ``|A xor B| / |A or B|`` (0 when both are empty)."""
    union = before.links | after.links
    return len(before.links ^ after.links) / len(union) if union else 0.0
