"""The result tables, built from circuits and their metrics (the verdict and the figures read only these).

circuits.csv  one row per (method, run): edges, density, accuracy, faithfulness, complement accuracy, valid
overlap.csv   one row per (method, run_a < run_b): IoU and the chance IoU of circuits of those sizes
minimal.csv   one row per edge of the best minimal circuit: its accuracy, the best accuracy without the edge
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from .graph import EdgeGraph, chance_iou, iou
from .verdict import valid


def circuit_table(method: str, metrics: list[dict], criteria: dict) -> pd.DataFrame:
    table = pd.DataFrame([{"method": method, "run": k, **m} for k, m in enumerate(metrics)])
    table["valid"] = valid(table, criteria)
    return table


def overlap_table(method: str, circuits: list[np.ndarray]) -> pd.DataFrame:
    rows = []
    for (a, first), (b, second) in combinations(enumerate(circuits), 2):
        total = len(first)
        rows.append(
            {
                "method": method,
                "run_a": a,
                "run_b": b,
                "edges_a": int(first.sum()),
                "edges_b": int(second.sum()),
                "iou": iou(first, second),
                "chance_iou": chance_iou(int(first.sum()), int(second.sum()), total),
            }
        )
    return pd.DataFrame(rows, columns=["method", "run_a", "run_b", "edges_a", "edges_b", "iou", "chance_iou"])


def minimal_table(
    graph: EdgeGraph, circuit: tuple[int, ...], accuracy: float, best_without: dict[int, float]
) -> pd.DataFrame:
    return pd.DataFrame(
        [{"edge": graph.edges[e].name, "accuracy": accuracy, "best_without": best_without[e]} for e in circuit],
        columns=["edge", "accuracy", "best_without"],
    )
