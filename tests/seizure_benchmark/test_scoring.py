"""The spec's exact SzCORE oracles (timescoring conventions, one-hour recording) and our aggregation."""

import math

import numpy as np
import pandas as pd
import pytest

from icml26.seizure_benchmark import scoring

HOUR = 3600.0
SEIZURE = [(1000.0, 1100.0)]


def event(hypotheses):
    counts = scoring.score_recording(SEIZURE, hypotheses, HOUR)
    m = scoring.metrics(counts["event_tp"], counts["event_fp"], counts["event_ref_true"], HOUR)
    return counts, {k: float(v) for k, v in m.items()}


def test_identical_events_are_one_true_positive():
    counts, m = event(SEIZURE)
    assert (counts["event_tp"], counts["event_fp"], m["f1"]) == (1, 0, 1.0)


@pytest.mark.parametrize("end_before_onset, tp, fp", [(20, 1, 0), (36, 0, 1)])
def test_tolerance_before_onset(end_before_onset, tp, fp):
    counts, m = event([(1000 - end_before_onset - 10, 1000 - end_before_onset)])
    assert (counts["event_tp"], counts["event_fp"]) == (tp, fp)
    assert m["fp_per_day"] == 24.0 * fp


@pytest.mark.parametrize("start_after_end, tp, fp", [(55, 1, 0), (65, 0, 1)])
def test_tolerance_after_end(start_after_end, tp, fp):
    counts, _ = event([(1100 + start_after_end, 1100 + start_after_end + 15)])
    assert (counts["event_tp"], counts["event_fp"]) == (tp, fp)


def test_hypotheses_70_s_apart_merge_into_one_true_positive():
    counts, m = event([(1000, 1010), (1080, 1090)])
    assert (counts["event_tp"], counts["event_fp"], m["f1"]) == (1, 0, 1.0)


def test_no_hypothesis_gives_nan_precision_and_zero_f1():
    counts, m = event([])
    assert counts["event_tp"] == 0 and math.isnan(m["precision"]) and m["f1"] == 0.0 and m["sensitivity"] == 0.0


def test_sample_scoring_counts_seconds_at_1_hz():
    counts = scoring.score_recording(SEIZURE, [(1050.0, 1150.0)], HOUR)
    assert (counts["sample_tp"], counts["sample_fp"], counts["sample_ref_true"]) == (50, 50, 100)


def test_per_subject_sums_recordings_before_scoring_and_aggregate_skips_nan():
    rec = pd.DataFrame(
        {
            "algorithm": "a",
            "subject": ["01", "01", "02"],
            "run": [1, 2, 1],
            "event_tp": [1, 0, 0],
            "event_fp": [1, 1, 0],
            "event_ref_true": [1, 1, 0],
            "sample_tp": [10, 0, 0],
            "sample_fp": [0, 0, 0],
            "sample_ref_true": [20, 20, 0],
            "duration_s": [43200.0, 43200.0, 86400.0],
        }
    )
    per = scoring.per_subject(rec, ["algorithm"])
    s1 = per[(per["subject"] == "01") & (per["scoring"] == "event")].iloc[0]
    assert (s1.tp, s1.fp, s1.ref_true) == (1, 2, 2)
    assert s1.sensitivity == 0.5 and s1.precision == pytest.approx(1 / 3) and s1.fp_per_day == 2.0
    assert s1.f1 == pytest.approx(2 / (2 + 2 + 1))
    s2 = per[(per["subject"] == "02") & (per["scoring"] == "event")].iloc[0]
    assert math.isnan(s2.f1) and math.isnan(s2.sensitivity) and s2.fp_per_day == 0.0
    agg = scoring.aggregate(per, ["algorithm"]).set_index("scoring").loc["event"]
    assert agg["f1"] == pytest.approx(0.4)  # subject 02 (no events at all) is skipped
    assert agg["fp_per_day"] == 1.0  # (2 + 0) / 2
    assert agg["f1_from_means"] == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))
    assert agg["subjects"] == 2 and np.isclose(agg["fp_per_day_std"], 1.0)
