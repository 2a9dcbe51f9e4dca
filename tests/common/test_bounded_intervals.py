"""Intervals stay inside the range their statistic can take: a t interval on three seeds of an AUROC near 0.7 runs
past 1 (issue 79); :func:`intervals.bounded` clips it, says so, and what would decide it reads the unclipped side."""

import json
import math

import pytest

from icml26.common import intervals
from icml26.common.claims import CLIPPED, INCONCLUSIVE
from tests.conftest import ROOT

AUROCS = [0.45, 0.7, 0.95]  # mean 0.7, sd 0.25: t(2) half width 0.62 -> [0.08, 1.32]


def test_an_interval_past_its_range_is_clipped_and_says_so():
    raw = intervals.over_seeds("auroc", AUROCS, 0.5, ">", margin=0.01)
    assert raw.high > 1
    clipped = intervals.bounded(raw, 0.0, 1.0)
    assert (clipped.low, clipped.high) == (pytest.approx(raw.low), 1.0) and clipped.estimate == raw.estimate
    assert clipped.method == f"t over 3 seeds, {CLIPPED} [0, 1]" and clipped.dof == 2
    assert clipped.state == raw.state == INCONCLUSIVE  # a threshold inside the range: clipping decides nothing
    assert clipped.to_decide(3) == raw.to_decide(3)  # the unclipped side is the half width


def test_an_interval_inside_its_range_or_with_no_bounds_is_left_as_it_is():
    inside = intervals.over_seeds("auroc", [0.7, 0.72, 0.74], 0.5, ">")
    assert intervals.bounded(inside, 0.0, 1.0) is inside
    one_seed = intervals.over_seeds("auroc", [0.9], 0.5, ">")
    assert intervals.bounded(one_seed, 0.0, 1.0) is one_seed and math.isinf(one_seed.high)  # still no interval


BOUNDED = {"auroc": (0.0, 1.0), "f1": (0.0, 1.0), "spearman": (-1.0, 1.0), "nmi": (0.0, 1.0), "fraction": (0.0, 1.0)}


def test_no_committed_interval_on_a_bounded_statistic_runs_past_its_range():
    found = []
    for path in sorted(ROOT.glob("results/*/*/claims.json")):
        for claim in json.loads(path.read_text()):
            for interval in claim.get("interval") or []:
                if not isinstance(interval, dict):
                    continue
                name = interval["statistic"].rsplit("/", 1)[-1].lower()
                bounds = next((b for key, b in BOUNDED.items() if name == key or name.endswith(f"_{key}")), None)
                if bounds and math.isfinite(interval["high"]):
                    if interval["low"] < bounds[0] or interval["high"] > bounds[1]:
                        found.append(f"{path.parent}: {claim['id']} {interval['statistic']}")
    assert found == []
