"""Each claim on per-problem tables, in every state it can reach: holds, does not hold, inconclusive (a bootstrap
interval over the seed problems that straddles) and premise not met (a base model without skill; a model that
cannot copy from its context)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED, PREMISE_NOT_MET
from icml26.generalization_spectrum import verdict
from icml26.generalization_spectrum.verdict import CRITERIA, Problems

SEEDS = 16


def problems(rates: dict[str, list[float]]) -> Problems:
    """Every learner's pass@1 per variant (D0..D4), the same on every seed problem."""
    rows = [
        {"learner": learner, "seed": s, "variant": variant, "pass1": value}
        for learner, values in rates.items()
        for s in range(SEEDS)
        for variant, value in zip(("D0", "D1", "D2", "D3", "D4"), values)
    ]
    return Problems(pd.DataFrame(rows))


BASE = [0.2, 0.2, 0.2, 0.1, 0.0]  # skill over D0-D2 0.2: the premise met


def test_rl_claim_states():
    good = {
        "base": BASE,
        "rl": [0.6, 0.5, 0.5, 0.1, 0],
        "sft": [0.6, 0.3, 0.3, 0.1, 0],
        "rft": [0.6, 0.35, 0.35, 0.1, 0],
    }
    assert verdict.rl_transfers_most_efficiently(problems(good)).state == HOLDS
    good["rft"] = [0.6, 0.55, 0.55, 0.1, 0]
    assert verdict.rl_transfers_most_efficiently(problems(good)).state == FAILS
    close = {
        "base": BASE,
        "rl": [0.6, 0.5, 0.5, 0.1, 0],
        "sft": [0.6, 0.49, 0.49, 0.1, 0],
        "rft": [0.6, 0.3, 0.3, 0.1, 0],
    }
    frame = pd.DataFrame(
        [
            {"learner": x, "seed": s, "variant": v, "pass1": p}
            for x, r in close.items()
            for s in range(SEEDS)
            for v, p in zip(("D0", "D1", "D2", "D3", "D4"), r)
        ]
    )
    rl_near = (frame["learner"] == "rl") & frame["variant"].isin(["D1", "D2"])
    frame.loc[rl_near, "pass1"] = np.where(frame.loc[rl_near, "seed"] % 2 == 0, 0.7, 0.3)  # same mean, spread
    assert verdict.rl_transfers_most_efficiently(Problems(frame)).state == INCONCLUSIVE
    unskilled = {x: [v / 10 for v in r] for x, r in good.items()}  # base skill 0.02
    claim = verdict.rl_transfers_most_efficiently(problems(unskilled))
    assert claim.state == PREMISE_NOT_MET
    per_distance = claim.details["base pass@1 per distance"]  # the premise distance by distance, reported beside
    assert list(per_distance) == ["D0", "D1", "D2", "D3", "D4"]
    assert np.allclose(list(per_distance.values()), [x / 10 for x in BASE])
    nothing = {"base": BASE, "rl": BASE, "sft": good["sft"]}
    assert verdict.rl_transfers_most_efficiently(problems(nothing)).state == NOT_EVALUATED


def test_icl_claim_needs_copying_then_strong_near_gains_and_weak_far_ones():
    base = [0.1, 0.1, 0.1, 0.1, 0.1]
    assert (
        verdict.icl_strong_but_correspondence_dependent(
            problems({"base": base, "icl": [0.7, 0.6, 0.5, 0.2, 0.1]}), CRITERIA
        ).state
        == HOLDS
    )
    weak = problems({"base": base, "icl": [0.7, 0.2, 0.2, 0.1, 0.1]})  # near 0.1 < 0.3
    assert verdict.icl_strong_but_correspondence_dependent(weak, CRITERIA).state == FAILS
    independent = problems({"base": base, "icl": [0.7, 0.6, 0.5, 0.5, 0.1]})  # D3 as strong as near
    assert verdict.icl_strong_but_correspondence_dependent(independent, CRITERIA).state == FAILS
    no_copy = problems({"base": base, "icl": [0.09, 0.09, 0.09, 0.09, 0.1]})  # the committed stand-in's -0.01
    claim = verdict.icl_strong_but_correspondence_dependent(no_copy, CRITERIA)
    assert claim.state == PREMISE_NOT_MET and claim.holds is None  # untested, never refuted


def test_far_tail_claim_states():
    base = [0.2, 0.2, 0.2, 0.1, 0.0]
    rows = pd.DataFrame(
        [
            {"learner": learner, "seed": s, "variant": v, "pass1": p}
            for s in range(SEEDS)
            for learner, d3 in (("base", 0.1), ("rft", 0.3 if s < 12 else 0.0), ("sft", 0.3 if s < 2 else 0.0))
            for v, p in zip(("D0", "D1", "D2", "D3", "D4"), [*base[:3], d3, 0.0])
        ]
    )
    assert verdict.rft_keeps_a_stronger_far_tail(Problems(rows)).state == HOLDS  # 12 of 16 against 2 of 16
    swapped = rows.assign(learner=rows["learner"].replace({"rft": "sft", "sft": "rft"}))
    assert verdict.rft_keeps_a_stronger_far_tail(Problems(swapped)).state == FAILS
    close = rows.copy()
    close.loc[(close["learner"] == "sft") & (close["variant"] == "D3") & (close["seed"] < 10), "pass1"] = 0.3
    assert verdict.rft_keeps_a_stronger_far_tail(Problems(close)).state == INCONCLUSIVE  # 12 against 10 of 16
    unskilled = rows.assign(pass1=rows["pass1"] / 10)
    assert verdict.rft_keeps_a_stronger_far_tail(Problems(unskilled)).state == PREMISE_NOT_MET
