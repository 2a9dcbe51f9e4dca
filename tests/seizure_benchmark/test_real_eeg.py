"""Real EEG in the SzCORE BIDS format (paper scale), on a tiny replica written as CHB-MIT/Siena come converted
(bids.write_replica: `<electrode>-Avg` channels with 10-10 names in another order, an ECG channel, 200 Hz): the
19 montage electrodes are picked by name and resampled, and a file that is not what the benchmark reads is one line
naming it."""

import shutil

import mne
import numpy as np
import pytest

from icml26.common.sources import SourceError
from icml26.seizure_benchmark import bids, montage
from icml26.seizure_benchmark.settings import problems

RUN = "ses-01/eeg/sub-01_ses-01_task-szMonitoring_run-00"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return bids.write_replica(tmp_path_factory.mktemp("bids") / "eeg", seconds=60)


def test_the_montage_electrodes_are_picked_by_name_and_resampled(root):
    x, events, length = bids.read_recording(root / "sub-01" / f"{RUN}_eeg.edf", 256)
    assert x.shape == (19, 60 * 256) and events == [(18.0, 30.0)] and length == 60.0
    raw = mne.io.read_raw_edf(root / "sub-01" / f"{RUN}_eeg.edf", preload=True, verbose="error")
    assert raw.info["sfreq"] == 200 and "ECG" in raw.ch_names
    t7 = raw.copy().pick(["T7-Avg"]).resample(256, verbose="error").get_data()[0] * 1e6  # the montage's T3
    assert np.allclose(x[montage.CHANNELS.index("T3")], t7)
    assert not np.allclose(x[montage.CHANNELS.index("T4")], t7)
    assert bids.recordings(root).keys() == {"01", "02"} and all(len(v) == 2 for v in bids.recordings(root).values())


def test_an_edf_without_annotations_or_an_electrode_or_a_header_is_one_line_naming_it(root, tmp_path):
    copy = tmp_path / "eeg"
    shutil.copytree(root, copy)
    edf = copy / "sub-01" / f"{RUN}_eeg.edf"
    bids.events_file(edf).unlink()
    with pytest.raises(SourceError, match=r"run-00_eeg.edf: no seizure annotations beside it \(expected .*_events.tsv"):
        bids.read_recording(edf, 256)
    bipolar = copy / "sub-02" / f"{RUN.replace('sub-01', 'sub-02')}_eeg.edf"
    raw = mne.io.read_raw_edf(bipolar, preload=True, verbose="error")
    raw.rename_channels({"Fp1-Avg": "FP1-F7"})  # CHB-MIT's raw montage is bipolar
    mne.export.export_raw(bipolar, raw, fmt="edf", overwrite=True, verbose="error")
    with pytest.raises(SourceError, match=r"_eeg.edf: lacks electrode\(s\) Fp1 of the 19-channel 10-20 montage"):
        bids.read_recording(bipolar, 256)
    bipolar.write_bytes(b"not an EDF file at all")
    with pytest.raises(SourceError, match=r"_eeg.edf: not a readable EDF file"):
        bids.read_recording(bipolar, 256)


def test_a_root_without_recordings_or_with_one_per_subject_is_named_before_any_job(root, tmp_path):
    cfg = {"eeg": str(tmp_path / "absent"), "algorithms": [], "algorithm_settings": {}}
    assert list(problems(cfg)) == [f"eeg: {tmp_path / 'absent'}: no such BIDS folder of EEG recordings " + (
        "(sub-*/ses-*/eeg/*_eeg.edf with *_events.tsv beside)"
    )]  # fmt: skip
    single = tmp_path / "single"
    shutil.copytree(root, single)
    for extra in single.glob("sub-02/ses-01/eeg/*run-01*"):
        extra.unlink()
    found = list(problems({**cfg, "eeg": str(single)}))
    assert found == [f"eeg: sub-02 of {single} hold one recording (the within-subject protocol needs two)"]
    assert list(problems({**cfg, "eeg": str(root)})) == []


@pytest.mark.parametrize(
    "row, says",
    [
        ("n/a\t10.0\tsz\t60.0", r"row 2: onset 'n/a' is not a number of seconds"),
        ("5.0\t-3.0\tsz\t60.0", r"row 2: negative onset or duration \(5 s, -3 s\)"),
        ("55.0\t10.0\tsz\t60.0", r"row 2: the event ends at 65 s, after the recording's end \(60 s\)"),
        ("5.0\t10.0\tsz\t90.0", r"recordingDuration must be one positive number of seconds on every row"),
    ],
)
def test_an_annotation_row_that_cannot_be_a_seizure_is_one_line_naming_it(tmp_path, row, says):
    """Accepted silently before (issue 79): an n/a onset, a negative duration, an event past the end."""
    tsv = tmp_path / "sub-01_run-00_events.tsv"
    tsv.write_text("onset\tduration\teventType\trecordingDuration\n0.0\t60.0\tbckg\t60.0\n" + row + "\n")
    with pytest.raises(ValueError, match=says):
        bids.read_annotations(tsv)


def test_a_truncated_edf_is_refused_against_its_annotated_duration(root, tmp_path):
    """mne reads a half-truncated EDF as half the samples, without a word: the annotation's duration catches it."""
    copy = tmp_path / "eeg"
    shutil.copytree(root, copy)
    edf = copy / "sub-01" / f"{RUN}_eeg.edf"
    raw = mne.io.read_raw_edf(edf, preload=True, verbose="error")
    mne.export.export_raw(edf, raw.crop(tmax=29.0), fmt="edf", overwrite=True, verbose="error")  # half of 60 s
    says = r"_eeg.edf: holds 30 s of EEG but .*_events.tsv says the recording lasts 60 s"
    with pytest.raises(SourceError, match=says):
        bids.read_recording(edf, 256)
