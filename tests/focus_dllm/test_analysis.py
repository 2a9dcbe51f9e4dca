"""The correlation analysis on hand-built steps with a known answer."""

import numpy as np
import pytest

from icml26.focus_dllm import analysis


def _step(i0, i1, confidence, decoded, mean=1.0):
    return {"i0": i0, "i1": i1, "confidence": confidence, "decoded": decoded, "mean_decoded": mean}


def test_a_perfect_delta_has_full_recall_and_auroc_and_its_negation_none():
    steps = [_step([0, 0, 0, 0], [0.1, 0.9, 0.2, 0.3], [0.2, 0.95, 0.3, 0.4], [False, True, False, False])] * 5
    assert analysis.recall(steps, "delta", alpha=1.0) == 1.0
    assert analysis.recall(steps, "minus_delta", alpha=1.0) == 0.0
    assert analysis.recall(steps, "oracle", alpha=1.0) == 1.0
    assert analysis.recall(steps, "leftmost", alpha=1.0) == 0.0  # keeps position 0, the decoded one is 1
    assert analysis.recall(steps, "leftmost", alpha=2.0) == 1.0  # K = 2 keeps positions 0 and 1
    found = analysis.correlation(steps)
    assert found["auroc_delta_decoded"] == 1.0 and found["spearman_delta_confidence"] == pytest.approx(1.0)
    assert found["decoded_fraction"] == 0.25


def test_random_recall_is_near_k_over_masked():
    rng = np.random.default_rng(0)
    steps = [
        _step([0] * 10, list(rng.random(10)), list(rng.random(10)), [i == 3 for i in range(10)]) for _ in range(400)
    ]
    assert analysis.recall(steps, "random", alpha=2.0) == pytest.approx(0.2, abs=0.05)


def test_single_token_steps_are_left_out():
    assert np.isnan(analysis.recall([_step([0], [1], [0.9], [True])], "delta", 1.0))


def test_the_decoded_fraction_ignores_forced_single_token_steps_and_eos_padding():
    """Two sequences of a block of 8: A's answer has 3 tokens, B's 8. A step with one masked token decodes it by
    force and does not count; A's <eos> padding (positions 3..7, decoded en masse) does not count either."""
    a_padded = {"sequence": 0, "block": 0, "position": [0, 1, 2, 3, 4, 5, 6, 7], "decoded": [1, 0, 0, 1, 1, 1, 1, 1]}
    b_full = {"sequence": 1, "block": 0, "position": [0, 1, 2, 3], "decoded": [1, 0, 0, 0]}
    a_last = {"sequence": 0, "block": 0, "position": [2], "decoded": [1]}  # forced: one masked token
    steps = analysis.mark_answers([a_padded, b_full, a_last], answer_lengths=[3, 8], block_size=8)
    assert steps[0]["answer"] == [True] * 3 + [False] * 5 and steps[1]["answer"] == [True] * 4
    assert analysis.decoded_fraction(steps) == pytest.approx((1 / 3 + 1 / 4) / 2)
    # counted the old way (every step, padding included) the same steps read (6/8 + 1/4 + 1) / 3 = 0.67
    assert np.mean([np.mean(s["decoded"]) for s in steps]) == pytest.approx(2 / 3)
    second_block = {"sequence": 1, "block": 1, "position": [0, 1], "decoded": [1, 0]}
    assert analysis.mark_answers([second_block], [3, 9], 8)[0]["answer"] == [True, False]  # position 8 < 9, 9 is not
