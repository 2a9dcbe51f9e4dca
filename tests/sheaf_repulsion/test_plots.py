"""The IoU heat maps show what the overlap claim judges: the mean IoU, its ratio to chance, the claim's limit on that
ratio, and which runs' circuits are not valid."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from icml26.sheaf_repulsion import plots
from icml26.sheaf_repulsion.tables import circuit_table, overlap_table
from icml26.sheaf_repulsion.verdict import CRITERIA

GOOD = {"edges": 2, "density": 0.05, "accuracy": 0.95, "faithfulness": 0.9, "complement_accuracy": 0.5}
UNFAITHFUL = GOOD | {"accuracy": 0.5}


@pytest.mark.filterwarnings("error")
def test_each_panel_titles_the_mean_iou_its_ratio_to_chance_and_the_limit_and_crosses_invalid_runs():
    edges = [np.array(c, dtype=bool) for c in ([1, 1, 0, 0], [0, 1, 1, 0], [1, 1, 0, 0])]
    overlap = pd.concat([overlap_table("oasr", edges), overlap_table("independent", edges)], ignore_index=True)
    circuits = pd.concat(
        [circuit_table("oasr", [GOOD, UNFAITHFUL, GOOD], CRITERIA), circuit_table("independent", [GOOD] * 3, CRITERIA)]
    )
    fig = plots.iou_heatmaps(overlap, circuits, CRITERIA)
    fig.canvas.draw()  # every glyph drawn (a missing one warns, and warnings fail here)
    oasr, independent = fig.axes[:2]
    mean = (1 / 3 + 1 + 1 / 3) / 3  # the three pairs' IoU; chance is 1/3 for each (2 and 2 of 4 edges)
    assert f"mean IoU {mean:.3f}, chance 0.333\n" in oasr.get_title()
    assert f"IoU / chance over pairs {mean * 3:.2f}x (claim: <= {CRITERIA['near_chance']:g}x)" in oasr.get_title()
    assert f"claim: >= {CRITERIA['high']:g}x" in independent.get_title()
    assert "2/3 valid" in oasr.get_title() and "3/3 valid" in independent.get_title()
    assert [t.get_text() for t in oasr.get_xticklabels()] == ["0", "1 \u2717", "2"]
    assert [t.get_text() for t in independent.get_xticklabels()] == ["0", "1", "2"]
