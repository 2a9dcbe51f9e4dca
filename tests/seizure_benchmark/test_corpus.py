"""Seizure lists, simulator and EDF/TSV files: the spec's simulator oracles and real-data parsing."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from icml26.seizure_benchmark import bids, montage, seizure_lists, simulator

LISTS = Path(__file__).resolve().parents[3] / "shared" / "data" / "eeg_annotations"
needs_lists = pytest.mark.skipif(not LISTS.is_dir(), reason="../shared/data/eeg_annotations not present")


@needs_lists
def test_seizure_lists_give_the_listed_durations_and_intervals():
    table = seizure_lists.statistics(seizure_lists.list_files(LISTS), max_duration_s=600)
    chb05 = table[(table["subject"] == "chb05") & (table["kind"] == "duration")]["seconds"].tolist()
    assert chb05 == [115, 110, 96, 120, 117]  # 532-417, 1196-1086, ... from chb05-summary.txt
    intervals = table[(table["subject"] == "chb05") & (table["kind"] == "interval")]
    assert len(intervals) == 4 and (intervals["seconds"] > 0).all()
    typo = table[(table["subject"] == "PN00") & (table["seconds"] == 3660)]
    assert len(typo) == 1 and not typo["plausible"].iloc[0]  # 18.28.29 -> 19.29.29 in a 41-min file
    assert seizure_lists.usable(table, "duration").max() < 600


def test_chbmit_clock_past_midnight_counts_as_the_next_day(tmp_path):
    text = (
        "File Name: chb99_01.edf\nFile Start Time: 23:00:00\nFile End Time: 24:00:00\n"
        "Number of Seizures in File: 1\nSeizure Start Time: 100 seconds\nSeizure End Time: 150 seconds\n\n"
        "File Name: chb99_02.edf\nFile Start Time: 01:00:00\nFile End Time: 2:00:00\n"
        "Number of Seizures in File: 1\nSeizure 1 Start Time: 100 seconds\nSeizure 1 End Time: 130 seconds\n"
    )
    (tmp_path / "chb99-summary.txt").write_text(text)
    table = seizure_lists.parse_chbmit(tmp_path / "chb99-summary.txt")
    assert table[table["kind"] == "duration"]["seconds"].tolist() == [50, 30]
    assert table[table["kind"] == "interval"]["seconds"].tolist() == [2 * 3600]


def test_missing_seizure_lists_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="need chb"):
        seizure_lists.statistics(seizure_lists.list_files(tmp_path), 600)


@needs_lists
@pytest.mark.parametrize(
    "name,damage,message",
    [
        (
            "Seizures-list-PN00.txt",
            lambda t: t.replace("Seizure start time: 21.08.29", "Seizure strat time: 21.08.29"),
            r"line 64 is not part of the seizure-list format: 'Seizure strat time",
        ),
        ("Seizures-list-PN00.txt", lambda t: t.replace("Seizure n 3", "Sezure n 3"), r"line 53 is not part of"),
        (
            "Seizures-list-PN00.txt",
            lambda t: t.replace("File name: PN00-2.edf\n", ""),
            r"line \d+: the entry starting here has 0 'file' lines",
        ),
        ("Seizures-list-PN00.txt", lambda t: t.replace("19.59.46", "19.5x.46"), r"line 44 is not part of"),
        ("Seizures-list-PN16.txt", lambda t: t[: len(t) // 2], r"Seizures-list-PN16.txt"),
        (
            "chb05-summary.txt",
            lambda t: t.replace("Seizure End Time: 532 seconds\n", ""),
            r"declares 1 seizures but lists 1 start and 0 end times",
        ),
        ("chb08-summary.txt", lambda t: t.replace("File Name", "Fi1e Name"), r"line \d+ is not part of"),
    ],
)
def test_a_garbled_seizure_list_stops_the_run_naming_file_and_line(tmp_path, name, damage, message):
    from icml26.common.sources import SourceError

    for path in seizure_lists.list_files(LISTS):
        text = path.read_text()
        (tmp_path / path.name).write_text(damage(text) if path.name == name else text)
    with pytest.raises(SourceError, match=message) as err:
        seizure_lists.statistics(seizure_lists.list_files(tmp_path), 600)
    assert str(err.value).startswith(str(tmp_path / name))
    (tmp_path / name).write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SourceError, match="not a text seizure list"):
        seizure_lists.statistics(seizure_lists.list_files(tmp_path), 600)


def _profile(**changes):
    base = simulator.draw_profiles(3, simulator.CorpusSettings(seizure_free_fraction=0.0), np.random.default_rng(0))[0]
    return simulator.SubjectProfile(**{**base.as_row(), **changes})


def test_subject_01_always_has_seizures_and_the_seizure_free_count_is_exact():
    settings = simulator.CorpusSettings(seizure_free_fraction=0.5)
    for seed in range(5):
        profiles = simulator.draw_profiles(10, settings, np.random.default_rng(seed))
        assert profiles[0].has_seizures and sum(not p.has_seizures for p in profiles) == 5


def test_seizures_fit_inside_the_recording_with_margins():
    rng = np.random.default_rng(1)
    profile = _profile(interval_scale=0.02, duration_scale=1.0)
    for _ in range(50):
        events = simulator.seizure_times(
            profile, True, 1800.0, np.array([60.0, 120.0]), np.array([3600.0, 7200.0]), rng
        )
        assert events and all(30.0 <= s < e <= 1770.0 for s, e in events)
        assert all(b[0] > a[1] for a, b in zip(events, events[1:]))
    assert (
        simulator.seizure_times(_profile(has_seizures=False), True, 1800.0, np.array([60.0]), np.array([600.0]), rng)
        == []
    )


def test_recording_is_common_average_referenced_and_seizures_raise_the_focus_amplitude():
    profile = _profile(focus="C3", spatial_length_cm=5.0, seizure_uv=150.0, background_uv=20.0)
    quiet = simulator.simulate_recording(profile, 120.0, 128, [], np.random.default_rng(2))
    loud = simulator.simulate_recording(profile, 120.0, 128, [(40.0, 100.0)], np.random.default_rng(2))
    assert quiet.shape == (19, 120 * 128)
    np.testing.assert_allclose(loud.mean(axis=0), 0.0, atol=1e-9)
    c3 = montage.CHANNELS.index("C3")
    assert loud[c3, 60 * 128 : 90 * 128].std() > 1.5 * quiet[c3, 60 * 128 : 90 * 128].std()


def test_seizure_free_recording_yields_one_bckg_row(tmp_path):
    path = tmp_path / "events.tsv"
    bids.write_annotations(path, [], 600.0)
    frame = pd.read_csv(path, sep="\t")
    assert list(frame.columns) == bids.TSV_COLUMNS
    assert len(frame) == 1 and frame["eventType"].iloc[0] == "bckg"
    assert (frame["onset"].iloc[0], frame["duration"].iloc[0], frame["recordingDuration"].iloc[0]) == (0, 600, 600)
    assert bids.read_annotations(path) == ([], 600.0)


def test_seizure_rows_round_trip(tmp_path):
    path = tmp_path / "events.tsv"
    bids.write_annotations(path, [(10.5, 40.25), (300.0, 420.0)], 900.0)
    assert bids.read_annotations(path) == ([(10.5, 40.25), (300.0, 420.0)], 900.0)


def test_edf_round_trip_through_mne_is_within_quantisation(tmp_path):
    x = simulator.simulate_recording(_profile(), 60.0, 256, [(20.0, 50.0)], np.random.default_rng(3))
    bids.write_edf(tmp_path / "r.edf", x, 256)
    y, fs = bids.read_edf(tmp_path / "r.edf")
    assert fs == 256 and y.shape == x.shape
    step = (x.max(axis=1) - x.min(axis=1)) / (2**16 - 1)  # channel-wise physical range, 16-bit
    assert (np.abs(y - x).max(axis=1) <= step * 0.5 + 1e-3).all()
    bids.write_edf(tmp_path / "again.edf", x, 256)
    assert (tmp_path / "r.edf").read_bytes() == (tmp_path / "again.edf").read_bytes()


def test_bad_files_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing EDF"):
        bids.read_edf(tmp_path / "none.edf")
    (tmp_path / "bad.edf").write_bytes(b"not an edf")
    with pytest.raises(ValueError, match="bad.edf"):
        bids.read_edf(tmp_path / "bad.edf")
    (tmp_path / "bad.tsv").write_text("a\tb\n1\t2\n")
    with pytest.raises(ValueError, match="bad.tsv"):
        bids.read_annotations(tmp_path / "bad.tsv")
