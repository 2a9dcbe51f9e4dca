"""The spec's three claims, judged from the spectrum at matched memorisation.

The paper's abstract states them without numbers, so the criteria are ours, fixed here before any quick
run (:data:`CRITERIA`, kept in the config):

- *RL transfers more efficiently*: at the matched D0 level, RL's transfer efficiency averaged over D1 and
  D2 (``e_k = g_k / g_0``) exceeds both SFT's and RFT's;
- *ICL's transfer is strong but correspondence-dependent*: ICL's mean gain over D1 and D2 is at least
  ``icl_strong`` times its D0 gain, and its D3 gain (a demonstration of another problem of the category) is
  at most ``icl_dependent`` times that mean;
- *local gains need not extend the radius* (the abstract's instance "RFT preserves a stronger far-transfer
  tail than reference SFT"): RFT's far-transfer tail (share of seeds whose D3 problem it solves more often
  than the base model) exceeds SFT's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.claims import Claim

CRITERIA = {"icl_strong": 0.5, "icl_dependent": 0.5}
EVIDENCE = ["tables/spectrum.csv", "figures/spectrum.png"]


def _near(efficiency: pd.DataFrame, learner: str) -> float:
    return float(efficiency.loc[learner, ["D1", "D2"]].mean()) if learner in efficiency.index else float("nan")


def rl_transfers_most_efficiently(efficiency: pd.DataFrame) -> Claim:
    """``efficiency``: e_k per learner (rows) and variant (columns) at the matched D0 level."""
    near = {learner: _near(efficiency, learner) for learner in ("rl", "sft", "rft")}
    if np.isnan(near["rl"]):
        return Claim(
            id="rl_converts_memorisation_into_near_transfer",
            statement="RL's e_1, e_2 exceed SFT's and RFT's",
            paper_value="RL more efficient than SFT-family",
            measured=near,
            comparator=">",
            holds=None,
            note="RL has no efficiency at the matched level (no D0 gain)",
            headline="not evaluated: RL memorised nothing at the matched level",
            evidence=EVIDENCE,
        )
    holds = all(near["rl"] > near[other] for other in ("sft", "rft") if not np.isnan(near[other]))
    return Claim(
        id="rl_converts_memorisation_into_near_transfer",
        statement="At matched D0 accuracy, RL's transfer efficiency over D1 and D2 exceeds SFT's and RFT's",
        paper_value="RL converts memorisation into near transfer more efficiently than SFT-family baselines",
        measured=near,
        comparator=">",
        holds=bool(holds),
        headline=f"mean e_1, e_2 at matched D0: RL {near['rl']:.2f}, SFT {near['sft']:.2f}, RFT {near['rft']:.2f} "
        "(paper: RL highest)",
        evidence=EVIDENCE,
    )


def icl_strong_but_correspondence_dependent(gain: pd.DataFrame, criteria: dict) -> Claim:
    """``gain``: g_k per learner and variant (the ICL row read with each seed's D0 solved in context)."""
    icl = gain.loc["icl"]
    g0, near, d3 = float(icl["D0"]), float(icl[["D1", "D2"]].mean()), float(icl["D3"])
    strong = g0 > 0 and near >= criteria["icl_strong"] * g0
    dependent = d3 <= criteria["icl_dependent"] * near
    return Claim(
        id="icl_transfer_strong_but_correspondence_dependent",
        statement=f"ICL's mean D1-D2 gain is at least {criteria['icl_strong']:g}x its D0 gain and its D3 gain at "
        f"most {criteria['icl_dependent']:g}x that mean",
        paper_value="ICL exhibits strong but correspondence-dependent transfer",
        measured={"g0": g0, "g_near": near, "g3": d3},
        comparator="all",
        holds=bool(strong and dependent),
        headline=f"ICL gains over base: D0 {g0:.2f}, D1-D2 {near:.2f}, D3 {d3:.2f} (paper: strong near, "
        "weak without correspondence)",
        evidence=EVIDENCE,
    )


def rft_keeps_a_stronger_far_tail(tail: pd.Series) -> Claim:
    """``tail``: per learner, the share of seeds whose D3 problem it solves more often than the base."""
    rft, sft = float(tail.get("rft", np.nan)), float(tail.get("sft", np.nan))
    return Claim(
        id="rft_far_tail_stronger_than_sft",
        statement="RFT's far-transfer tail (share of seeds whose D3 problem it solves more often than the base "
        "model) exceeds SFT's",
        paper_value="RFT preserves a stronger far-transfer tail than reference SFT",
        measured={"rft": rft, "sft": sft},
        comparator=">",
        holds=bool(rft > sft),
        headline=f"far-transfer tail (D3 above base): RFT {rft:.2f}, SFT {sft:.2f} of seeds (paper: RFT stronger)",
        evidence=["tables/far_tail.csv", "figures/spectrum.png"],
    )
