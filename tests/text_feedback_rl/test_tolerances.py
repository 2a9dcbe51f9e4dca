"""text_feedback_rl's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from icml26.text_feedback_rl.verdict import SPREAD
from tests.conftest import committed_results


def _committed():
    return committed_results("text_feedback_rl")


def _moved(accuracy: float, difference: float):
    moved = copy.deepcopy(_committed())
    moved["metrics.json"]["code"]["sampled"]["grpo_single"] += accuracy
    sd = next(c for c in moved["claims.json"] if c["id"] == "self_distillation_beats_grpo")
    sd["measured"]["code: sd - grpo_single"]["difference"] += difference
    return moved


def test_a_move_within_the_seeds_spread_passes_and_one_beyond_it_fails():
    within = verify.compare("text_feedback_rl", _committed(), _moved(0.9 * SPREAD, 1.2 * SPREAD))
    assert within.ok and len(within.within) == 2
    beyond = verify.compare("text_feedback_rl", _committed(), _moved(1.1 * SPREAD, 0.0))
    assert not beyond.ok and [line.split(":")[0] for line in beyond.outside] == ["metrics/code/sampled/grpo_single"]
