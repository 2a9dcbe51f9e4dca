"""Calibrating the simulator (the spec: "calibrate first"): with lax settings simple heuristics come within a few
percent of the target and no comparison means anything, so the settings are chosen where they do not.

:func:`sweep` measures, for every combination of sector count ``K``, side-lobe gain and node count, each
heuristic's throughput as a share of the target's, averaged over ``instances`` seeded placements;
:func:`admissible` marks the rows the spec asks for (greedy and mutual nearest neighbour in [0.75, 0.90] of the
target, omnidirectional below 0.40).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pandas as pd

from . import heuristics
from .simulator import Channel, metrics, place
from .target import target

BANDS = {"greedy": (0.75, 0.90), "mutual_nearest": (0.75, 0.90), "omnidirectional": (0.0, 0.40)}


def sweep(
    sectors: list[int],
    side_db: list[float],
    nodes: list[int],
    *,
    radius: float,
    instances: int,
    seed: int,
    rounds: int = 20,
    log: Callable[[str], None] = print,
) -> pd.DataFrame:
    """One row per setting: mean share of the target's throughput per heuristic, and the target's own mean."""
    rows = []
    for k, side, n in itertools.product(sectors, side_db, nodes):
        channel = Channel(sectors=k, side_db=side)
        shares: dict[str, list[float]] = {name: [] for name in (*BANDS, "random_feasible")}
        targets = []
        for i in range(instances):
            rng = np.random.default_rng([seed, n, i])
            instance = place(n, radius, rng)
            best = metrics(instance, target(instance, channel, rounds)[0], channel)["throughput"]
            targets.append(best)
            for name, (topology, used) in heuristics.every(instance, channel, rng).items():
                shares[name].append(metrics(instance, topology, used)["throughput"] / best)
        rows.append(
            {
                "sectors": k,
                "side_db": side,
                "nodes": n,
                "target": float(np.mean(targets)),
                **{name: float(np.mean(v)) for name, v in shares.items()},
            }
        )
        log(f"K={k} side {side} dB N={n}: " + ", ".join(f"{m} {rows[-1][m]:.2f}" for m in shares))
    return admissible(pd.DataFrame(rows))


def admissible(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a column ``admissible``: every heuristic of :data:`BANDS` inside its band."""
    inside = np.ones(len(table), bool)
    for name, (low, high) in BANDS.items():
        inside &= (table[name] >= low).to_numpy() & (table[name] <= high).to_numpy()
    return table.assign(admissible=inside)
