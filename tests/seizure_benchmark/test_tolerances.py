"""seizure_benchmark's declared cross-machine tolerances on its committed quick results (make verify)."""

import copy

from icml26.common import verify
from icml26.seizure_benchmark.verdict import F1_SE
from tests.conftest import committed_results


def _committed():
    return committed_results("seizure_benchmark")


def _moved(f1: float, tau: float = 0.0, published: float = 0.0):
    moved = copy.deepcopy(_committed())
    claims = {c["id"]: c for c in moved["claims.json"]}
    claims["heldout_far_below_within"]["measured"]["logistic_regression"]["heldout_f1"] += f1
    moved["metrics.json"]["heldout_event"]["logistic_regression"]["f1"] += f1
    claims["best_f1_not_most_consistent"]["measured"]["kendall_tau"] += tau
    moved["metrics.json"]["ranking"]["kendall_tau"] += tau
    claims["published_top_event_f1"]["measured"]["precision"] += published
    return moved


def test_the_cross_machine_moves_seen_in_issue_22_are_within_tolerance():
    seen = verify.compare("seizure_benchmark", _committed(), _moved(-0.0054, tau=0.032))  # 0.8440 -> 0.8386
    assert seen.ok and len(seen.within) == 4


def test_two_standard_errors_are_not():
    assert not verify.compare("seizure_benchmark", _committed(), _moved(-2 * F1_SE)).ok
    assert not verify.compare("seizure_benchmark", _committed(), _moved(0.0, tau=0.1)).ok


def test_the_published_leaderboard_s_numbers_get_no_tolerance():
    report = verify.compare("seizure_benchmark", _committed(), _moved(0.0, published=1e-6))
    assert [line.split(":")[0] for line in report.outside] == ["claims/published_top_event_f1/measured/precision"]
