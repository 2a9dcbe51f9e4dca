"""Mutual information in closed form, its permutation null, the conflict summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.prism_moe import analysis


def test_mutual_information_closed_forms():
    assert analysis.mutual_information(np.full((3, 4), 25)) == pytest.approx(0, abs=1e-12)
    assert analysis.mutual_information(np.eye(4) * 10) == pytest.approx(2.0)  # the expert names the condition
    # H(expert) = 1 bit, H(expert | condition) = (0 + 0 + 1) / 3: MI = 2/3
    assert analysis.mutual_information(np.array([[10, 0], [0, 10], [5, 5]])) == pytest.approx(2 / 3)
    assert analysis.entropy_bits(np.ones((4, 2))) == pytest.approx(2.0)


def test_a_specialised_router_beats_the_permutation_null_and_a_blind_one_does_not():
    rng = np.random.default_rng(0)
    specialised = np.array([[900, 50, 50], [40, 900, 60], [60, 40, 900]])
    assert analysis.mutual_information(specialised) > analysis.permutation_null(specialised, 50, rng).max()
    blind = np.array([[300, 300, 400], [300, 300, 400], [300, 300, 400]])
    null = analysis.permutation_null(blind, 50, rng)
    assert analysis.mutual_information(blind) <= null.max() and (null >= 0).all()


def test_specialisation_rows_per_block_and_stage():
    counts = {("prism", 0): {"stage1": np.stack([np.eye(3) * 50 + 1] * 2), "stage2": np.ones((2, 4, 3))}}
    table = analysis.specialisation(counts, 20, seed=0)
    assert len(table) == 4 and set(table["stage"]) == {"stage1", "stage2"}
    stage1 = table[table["stage"] == "stage1"]
    assert (stage1["nmi"] > 0.8).all() and (stage1["mi_bits"] > stage1["null_max"]).all()
    assert (table.loc[table["stage"] == "stage2", "mi_bits"] == 0).all()


def test_conflict_summary_splits_the_stage_in_halves():
    cos = pd.DataFrame(
        {
            "method": "dense",
            "seed": 0,
            "step": [1, 25, 50, 75, 100],
            "pair": "a-b",
            "cosine": [0.5, 0.3, 0.1, -0.2, -0.4],
        }
    )
    table = analysis.conflict(cos).set_index("phase")
    assert table.loc["second half", "mean"] == pytest.approx(-0.3)
    assert table.loc["first half", "mean"] == pytest.approx(0.3)
    assert table.loc["all", "count"] == 5
