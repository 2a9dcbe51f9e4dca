"""The published challenge results and the three verdicts, including cases where each is false."""

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE
from icml26.seizure_benchmark import challenge, verdict
from tests.conftest import ROOT

SZCORE = Path(__file__).resolve().parents[3] / "shared" / "data" / "szcore"
needs_szcore = pytest.mark.skipif(not SZCORE.is_dir(), reason="../shared/data/szcore not present")


@needs_szcore
def test_published_leaderboard_has_28_entries_led_by_seizure_transformer():
    board = challenge.leaderboard(SZCORE / "challenge_results.json")
    assert len(board) == 28 and board["position"].tolist() == list(range(1, 29))
    top = board.iloc[0]
    assert top["algorithm"] == "SeizureTransformer"
    assert top["event_f1"] == pytest.approx(0.4283, abs=1e-4)
    s, p = top["event_sensitivity"], top["event_precision"]
    assert top["event_f1_from_means"] == pytest.approx(2 * s * p / (s + p))
    nan_entry = board[board["entry"] == "sz-challenge-16"].iloc[0]  # f1 stored as the string "NaN"
    assert math.isnan(nan_entry["event_f1"]) and nan_entry["position"] == 28


@needs_szcore
def test_per_dataset_results_cover_14_containers_on_5_datasets():
    table = challenge.per_dataset(SZCORE / "results.json")
    assert table["container"].nunique() == 14 and sorted(table["dataset"].unique()) == [
        "chbmit",
        "dianalund",
        "seizeit",
        "siena",
        "tuh",
    ]


def test_malformed_challenge_file_is_named(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="bad.json"):
        challenge.leaderboard(tmp_path / "bad.json")
    (tmp_path / "odd.json").write_text(json.dumps({"x": {"algorithm_name": "x"}}))
    with pytest.raises(ValueError, match="evaluation_dataset"):
        challenge.leaderboard(tmp_path / "odd.json")
    with pytest.raises(FileNotFoundError, match="missing challenge results"):
        challenge.leaderboard(tmp_path / "none.json")


def _per_subject(gaps: dict[str, list[float]]) -> pd.DataFrame:
    """Per subject within and held-out event F1 of each detector, the gaps as given (held-out at 0.5)."""
    return pd.DataFrame(
        [
            {"algorithm": a, "subject": f"s{i}", "scoring": "event", "protocol": p, "f1": 0.5 + g * (p == "within")}
            for a, values in gaps.items()
            for i, g in enumerate(values)
            for p in ("within", "heldout")
        ]
    )


def test_gap_claim_states():
    gap = pd.DataFrame({"algorithm": ["a", "b"], "within_f1": [0.9, 0.6], "heldout_f1": [0.5, 0.55]})
    gap["f1_gap"] = gap["within_f1"] - gap["heldout_f1"]
    wide = _per_subject({"a": [0.4, 0.35, 0.45, 0.4], "b": [0.05, 0.06, 0.04, 0.05]})
    assert verdict.heldout_below_within(gap, 0.1, per_subject=wide).state == FAILS  # b generalises
    assert verdict.heldout_below_within(gap, 0.02, per_subject=wide).state == HOLDS
    noisy = _per_subject({"a": [0.4, 0.35, 0.45, 0.4], "b": [0.3, -0.1, 0.25, -0.05]})
    assert verdict.heldout_below_within(gap, 0.1, per_subject=noisy).state == INCONCLUSIVE


def test_consistency_claim_states():
    stab = pd.DataFrame(
        {"algorithm": ["a", "b", "c"], "aggregate_f1": [0.6, 0.4, 0.3], "mean_rank": [1.2, 1.8, 3], "rank_iqr": 0.0}
    )
    conc = {"kendall_w": 0.5, "kendall_tau": 1.0, "subjects": 8}
    a_best = pd.DataFrame({"a": [0.9] * 8, "b": [0.5] * 8, "c": [0.1] * 8})  # a ranks first on every subject
    assert verdict.best_not_most_consistent(stab, conc, a_best).state == FAILS
    b_best = pd.DataFrame({"a": [0.5] * 8, "b": [0.9] * 8, "c": [0.1] * 8})
    assert verdict.best_not_most_consistent(stab, conc, b_best).state == HOLDS
    split = pd.DataFrame({"a": [0.9, 0.5] * 4, "b": [0.5, 0.9] * 4, "c": [0.1] * 8})  # first on half the subjects
    assert verdict.best_not_most_consistent(stab, conc, split).state == INCONCLUSIVE


def test_published_claim_holds_only_when_a_variant_matches():
    row = {
        "algorithm": "x",
        "event_f1": 0.325,
        "event_f1_from_means": 0.40,
        "event_sensitivity": 0.37,
        "event_precision": 0.29,
    }
    assert verdict.published_top_f1(pd.DataFrame([row])).holds is True
    row["event_f1"] = 0.43
    claim = verdict.published_top_f1(pd.DataFrame([row]))
    assert claim.holds is False and claim.measured["matching_variants"] == []


def _published(rows: list[tuple[str, float, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"algorithm": a, "event_f1": f1, "event_f1_std": sd} for a, f1, sd in rows])


@pytest.mark.parametrize(
    "rows, state",
    [
        ([("a", 0.40, 0.3), ("b", 0.20, 0.2), ("c", 0.05, 0.1)], "holds"),  # +0.20, se 0.045 over 65 subjects
        ([("a", 0.305, 0.001), ("b", 0.300, 0.001), ("c", 0.2, 0.001)], "does not hold"),  # +0.005, tight
        ([("a", 0.32, 0.4), ("b", 0.30, 0.4), ("c", 0.1, 0.1)], "inconclusive"),  # +0.02 [-0.12, +0.16]
    ],
)
def test_published_variability_compares_the_best_entry_with_the_median_one(rows, state):
    claim = verdict.published_entries_vary(_published(rows + [("no F1", float("nan"), float("nan"))]))
    assert claim.state == state
    assert claim.measured["median"]["entry"] == "b" and claim.measured["entries"] == 3  # the NaN entry left out
    assert claim.interval[0].method == "Welch t over 65 and 65 subjects"


def test_published_variability_on_the_offline_results_is_the_best_against_the_14th_of_27():
    from icml26.seizure_benchmark.challenge import leaderboard

    path = ROOT.parent / "shared" / "data" / "szcore" / "challenge_results.json"
    if not path.exists():
        pytest.skip("../shared/data not present")
    claim = verdict.published_entries_vary(leaderboard(path))
    assert claim.measured["top"]["entry"] == "SeizureTransformer" and claim.measured["entries"] == 27
    assert claim.measured["median"]["entry"] == "Random Forest"  # position 14 of the 27 with an F1
