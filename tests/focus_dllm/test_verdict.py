"""Every verdict comes out true and false on hand-made tables."""

import pandas as pd
import pytest

from icml26.focus_dllm import verdict as v


def _correlation(fraction, auroc, rho):
    return pd.DataFrame(
        {
            "task": ["copy", "walk"],
            "decoded_fraction": fraction,
            "auroc_delta_decoded": auroc,
            "spearman_delta_confidence": rho,
        }
    )


def _recall(delta, leftmost):
    return pd.DataFrame({"task": "copy", "alpha": 1.5, "selector": ["delta", "leftmost"], "recall": [delta, leftmost]})


def test_few_decodable():
    assert v.few_decodable(_correlation([0.1, 0.3], 0.6, 0.2)).holds is True
    assert v.few_decodable(_correlation([0.2, 0.4], 0.6, 0.2)).holds is False


def test_importance_predicts():
    claim = v.importance_predicts(_correlation(0.1, [0.6, 0.55], [0.1, 0.2]), _recall(0.4, 0.5), 1.5)
    assert claim.holds is True and claim.measured["recall_delta_minus_leftmost"] < 0
    assert v.importance_predicts(_correlation(0.1, [0.45, 0.5], 0.2), _recall(0.4, 0.5), 1.5).holds is False
    assert v.importance_predicts(_correlation(0.1, 0.6, [-0.3, 0.1]), _recall(0.4, 0.5), 1.5).holds is False


def _quality(focus_correct, focus_rows, seeds=(0,)):
    rows = []
    for seed in seeds:
        for decoder, correct, batch_rows in (("dense", [1, 1, 1, 0], 100), ("focus", focus_correct, focus_rows)):
            for i, c in enumerate(correct):
                rows.append(
                    {
                        "decoder": decoder,
                        "seed": seed,
                        "example": i,
                        "correct": c,
                        "batch_rows": batch_rows,
                        "batch_tokens": 32,
                        "batch": i // 2,
                    }
                )
    return pd.DataFrame(rows)


def test_quality_and_compute():
    assert v.preserves_quality(_quality([1, 1, 1, 0], 60), "dense", "focus").holds is True
    assert v.preserves_quality(_quality([1, 1, 0, 0], 60), "dense", "focus").holds is False
    claim = v.saves_compute(_quality([1, 1, 1, 0], 60), "dense", "focus")
    assert claim.holds is True and claim.measured["ratio"] == 0.6
    assert v.saves_compute(_quality([1, 1, 1, 0], 120), "dense", "focus").holds is False


def test_quality_is_judged_over_every_seed_and_reported_per_seed():
    one_bad = pd.concat([_quality([1, 1, 1, 0], 60, seeds=(0, 1)), _quality([0, 1, 1, 0], 60, seeds=(2,))])
    claim = v.preserves_quality(one_bad, "dense", "focus")  # seed 2 loses 25 points: -8.3 over the three
    assert claim.holds is False and claim.measured["difference"] == pytest.approx(-0.25 / 3)
    assert [claim.measured[f"difference_seed{s}"] for s in (0, 1, 2)] == [0.0, 0.0, -0.25]
    assert v.saves_compute(one_bad, "dense", "focus").measured["ratio"] == 0.6  # batches counted once per seed


def test_throughput():
    table = pd.DataFrame({"batch": [8, 8, 64, 64], "decoder": ["dense", "focus"] * 2, "tokens_per_s": [10, 9, 50, 60]})
    assert v.raises_throughput(table, "dense", "focus", {}).holds is True
    assert v.raises_throughput(table.assign(tokens_per_s=[10, 9, 60, 50]), "dense", "focus", {}).holds is False
