"""focus_dllm's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from tests.conftest import committed_results


def _committed():
    return committed_results("focus_dllm")


def _moved(accuracy: float, rows: float = 0.0):
    moved = copy.deepcopy(_committed())
    moved["metrics.json"]["accuracy"]["focus_a1"] += accuracy
    compute = next(c for c in moved["claims.json"] if c["id"] == "focus_saves_compute")
    compute["measured"]["dense_rows_per_token"] += rows
    return moved


def test_moves_within_the_seeds_spread_pass_and_beyond_it_fail():
    within = verify.compare("focus_dllm", _committed(), _moved(0.07, 0.02))  # tolerances 0.08 and 0.03
    assert within.ok and len(within.within) == 2
    beyond = verify.compare("focus_dllm", _committed(), _moved(0.09))
    assert not beyond.ok and [line.split(":")[0] for line in beyond.outside] == ["metrics/accuracy/focus_a1"]
    assert not verify.compare("focus_dllm", _committed(), _moved(0.0, 0.05)).ok


def test_a_flipped_verdict_fails_whatever_the_tolerance():
    flipped = copy.deepcopy(_committed())
    claim = next(c for c in flipped["claims.json"] if c["id"] == "focus_preserves_quality")
    claim["holds"] = not claim["holds"]
    assert not verify.compare("focus_dllm", _committed(), flipped).ok
