"""crl_bpt's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from icml26.crl_bpt.verdict import SPREAD
from tests.conftest import committed_results


def _committed():
    return committed_results("crl_bpt")


def _moved(accuracy: float, difference: float):
    moved = copy.deepcopy(_committed())
    moved["metrics.json"]["test_accuracy"]["crl_bpt_e2"] += accuracy
    beats = next(c for c in moved["claims.json"] if c["id"] == "crl_bpt_beats_baselines")
    beats["measured"]["crl_bpt_e2 - reinforce"]["difference"] += difference
    return moved


def test_a_move_within_the_seeds_spread_passes_and_one_beyond_it_fails():
    within = verify.compare("crl_bpt", _committed(), _moved(0.9 * SPREAD, 1.3 * SPREAD))
    assert within.ok and len(within.within) == 2
    beyond = verify.compare("crl_bpt", _committed(), _moved(1.1 * SPREAD, 0.0))
    assert not beyond.ok and [line.split(":")[0] for line in beyond.outside] == ["metrics/test_accuracy/crl_bpt_e2"]


def test_a_flipped_verdict_fails_whatever_the_tolerance():
    flipped = copy.deepcopy(_committed())
    claim = next(c for c in flipped["claims.json"] if c["id"] == "control_variate_reduces_variance")
    claim["holds"] = not claim["holds"]
    assert not verify.compare("crl_bpt", _committed(), flipped).ok
