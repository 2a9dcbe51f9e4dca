"""prism_moe's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from icml26.prism_moe.verdict import SPREAD
from tests.conftest import committed_results


def _committed():
    return committed_results("prism_moe")


def _moved(delta: float, difference: float):
    moved = copy.deepcopy(_committed())
    moved["metrics.json"]["delta_m"]["prism"] += delta
    beats = next(c for c in moved["claims.json"] if c["id"] == "prism_beats_dense_distillation")
    beats["measured"]["difference"] += difference
    return moved


def test_a_move_within_the_seeds_spread_passes_and_one_beyond_it_fails():
    within = verify.compare("prism_moe", _committed(), _moved(0.9 * SPREAD, 1.3 * SPREAD))
    assert within.ok and len(within.within) == 2
    beyond = verify.compare("prism_moe", _committed(), _moved(1.1 * SPREAD, 0.0))
    assert not beyond.ok and [line.split(":")[0] for line in beyond.outside] == ["metrics/delta_m/prism"]


def test_a_flipped_verdict_fails_whatever_the_tolerance():
    flipped = copy.deepcopy(_committed())
    claim = next(c for c in flipped["claims.json"] if c["id"] == "experts_specialise_by_teacher")
    claim["holds"] = not claim["holds"]
    assert not verify.compare("prism_moe", _committed(), flipped).ok
