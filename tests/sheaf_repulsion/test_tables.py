"""The result tables from circuits (the verdict reads them: tests/sheaf_repulsion/test_verdict.py)."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.sheaf_repulsion.graph import EdgeGraph
from icml26.sheaf_repulsion.tables import circuit_table, minimal_table, overlap_table
from icml26.sheaf_repulsion.verdict import CRITERIA


def test_overlap_rows_are_every_pair_with_its_iou_and_chance_iou():
    circuits = [np.array(c, dtype=bool) for c in ([1, 1, 0, 0], [0, 1, 1, 0], [1, 1, 0, 0])]
    table = overlap_table("oasr", circuits)
    assert table[["run_a", "run_b"]].values.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert table["iou"].tolist() == pytest.approx([1 / 3, 1.0, 1 / 3])
    assert table["chance_iou"].tolist() == pytest.approx([1 / 3] * 3)  # 2 and 2 of 4: 1 shared / (2 + 2 - 1)
    assert overlap_table("oasr", circuits[:1]).empty


def test_circuit_rows_say_which_circuits_are_valid():
    metrics = [
        {"edges": 5, "density": 0.05, "accuracy": 0.95, "faithfulness": 0.9, "complement_accuracy": 0.5},
        {"edges": 5, "density": 0.05, "accuracy": 0.5, "faithfulness": 0.1, "complement_accuracy": 0.5},
    ]
    table = circuit_table("independent", metrics, CRITERIA)
    assert table["valid"].tolist() == [True, False] and table["run"].tolist() == [0, 1]


def test_minimal_rows_name_the_edges():
    graph = EdgeGraph(1, 1)
    table = minimal_table(graph, (2, 6), 0.9, {2: 0.8, 6: 0.85})
    assert table["edge"].tolist() == ["embed->a0.h0.v", "a0.h0->logits"] and table["best_without"].tolist() == [
        0.8,
        0.85,
    ]
