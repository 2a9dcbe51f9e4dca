"""Each claim on tables where it holds and where it does not."""

from __future__ import annotations

import numpy as np
import pandas as pd

from icml26.generalization_spectrum import verdict
from icml26.generalization_spectrum.verdict import CRITERIA


def table(rows: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, index=["D0", "D1", "D2", "D3", "D4"]).T


def test_rl_claim_needs_the_highest_near_efficiency():
    efficiency = table({"rl": [1, 0.8, 0.6, 0.2, 0], "sft": [1, 0.3, 0.2, 0.1, 0], "rft": [1, 0.5, 0.4, 0.2, 0]})
    assert verdict.rl_transfers_most_efficiently(efficiency).holds is True
    efficiency.loc["rft", ["D1", "D2"]] = [0.9, 0.7]
    assert verdict.rl_transfers_most_efficiently(efficiency).holds is False
    efficiency.loc["rl"] = np.nan
    assert verdict.rl_transfers_most_efficiently(efficiency).holds is None


def test_icl_claim_needs_strong_near_gains_and_weak_far_ones():
    assert verdict.icl_strong_but_correspondence_dependent(table({"icl": [0.6, 0.5, 0.4, 0.1, 0]}), CRITERIA).holds
    weak = table({"icl": [0.6, 0.2, 0.1, 0.0, 0]})  # near 0.15 < 0.3
    assert verdict.icl_strong_but_correspondence_dependent(weak, CRITERIA).holds is False
    independent = table({"icl": [0.6, 0.5, 0.4, 0.4, 0]})  # D3 as strong as near: no correspondence needed
    assert verdict.icl_strong_but_correspondence_dependent(independent, CRITERIA).holds is False


def test_far_tail_claim_compares_rft_with_sft():
    assert verdict.rft_keeps_a_stronger_far_tail(pd.Series({"rft": 0.4, "sft": 0.2, "rl": 0.5})).holds is True
    assert verdict.rft_keeps_a_stronger_far_tail(pd.Series({"rft": 0.2, "sft": 0.2})).holds is False
