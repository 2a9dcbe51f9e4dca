"""netdiff's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from icml26.netdiff.verdict import SHARE_SE
from tests.conftest import committed_results


def _committed():
    return committed_results("netdiff")


def _moved(share: float, heuristic: float = 0.0):
    moved = copy.deepcopy(_committed())
    moved["metrics.json"]["share"]["netdiff/N16"] += share
    moved["metrics.json"]["share"]["greedy/N16"] += heuristic
    return moved


def test_a_move_within_the_seeds_spread_passes_and_one_beyond_it_fails():
    within = verify.compare("netdiff", _committed(), _moved(0.9 * SHARE_SE))
    assert within.ok and len(within.within) == 1
    beyond = verify.compare("netdiff", _committed(), _moved(1.1 * SHARE_SE))
    assert not beyond.ok and [line.split(":")[0] for line in beyond.outside] == ["metrics/share/netdiff/N16"]


def test_the_heuristics_are_held_to_round_off():
    assert not verify.compare("netdiff", _committed(), _moved(0.0, 1e-6)).ok
    assert verify.compare("netdiff", _committed(), _moved(0.0, 1e-12)).ok


def test_a_flipped_verdict_fails_whatever_the_tolerance():
    flipped = copy.deepcopy(_committed())
    claim = next(c for c in flipped["claims.json"] if c["id"] == "beats_heuristics")
    claim["holds"] = not claim["holds"]
    assert not verify.compare("netdiff", _committed(), flipped).ok
