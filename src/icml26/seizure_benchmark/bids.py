"""EDF recordings and SzCORE annotation TSVs in a BIDS-style layout.

Layout (as the SzCORE challenge expects)::

    sub-XX/ses-01/eeg/sub-XX_ses-01_task-szMonitoring_run-YY_eeg.edf
    sub-XX/ses-01/eeg/sub-XX_ses-01_task-szMonitoring_run-YY_events.tsv

EDF is written through ``mne.export.export_raw`` (which uses ``edfio``) with a per-channel physical
range, and read back with ``mne.io.read_raw_edf``; samples survive the round trip within the EDF's
16-bit quantisation. The annotation TSV has the SzCORE columns ``onset, duration, eventType,
confidence, channels, dateTime, recordingDuration``; a seizure-free recording has one ``bckg`` row
spanning the whole recording.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import numpy as np
import pandas as pd

from ..common.io import atomic_path, temporary_sibling
from . import montage

TSV_COLUMNS = ["onset", "duration", "eventType", "confidence", "channels", "dateTime", "recordingDuration"]
START = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)  # fixed: EDF headers are byte-identical across runs
SEIZURE, BACKGROUND = "sz", "bckg"


def stem(subject: str, run: int) -> str:
    """A recording's path inside its subject folder ``sub-XX/``, without the ``_eeg.edf`` suffix."""
    return f"ses-01/eeg/sub-{subject}_ses-01_task-szMonitoring_run-{run:02d}"


def write_edf(path: str | os.PathLike, data_uv: np.ndarray, fs: float) -> None:
    """Write (19, n) microvolts as an EDF file (atomically: a temporary name, then a rename)."""
    import mne

    info = mne.create_info(list(montage.CHANNELS), fs, ch_types="eeg", verbose="error")
    raw = mne.io.RawArray(data_uv * 1e-6, info, verbose="error")
    raw.set_meas_date(START)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_sibling(path)
    mne.export.export_raw(tmp, raw, fmt="edf", physical_range="channelwise", overwrite=True, verbose="error")
    tmp.replace(path)


def read_edf(path: str | os.PathLike) -> tuple[np.ndarray, float]:
    """(19, n) microvolts in :data:`montage.CHANNELS` order, and the sampling rate."""
    import mne

    if not Path(path).is_file():
        raise FileNotFoundError(f"missing EDF recording: {path}")
    try:
        raw = mne.io.read_raw_edf(path, preload=True, verbose="error")
    except Exception as err:  # mne raises several types for a damaged header
        raise ValueError(f"{path}: not a readable EDF file ({err})") from err
    missing = sorted(set(montage.CHANNELS) - set(raw.ch_names))
    if missing:
        raise ValueError(f"{path}: channels {missing} are missing")
    return raw.get_data(picks=list(montage.CHANNELS)) * 1e6, float(raw.info["sfreq"])


def annotation_frame(events: list[tuple[float, float]], recording_s: float) -> pd.DataFrame:
    """SzCORE rows for one recording: one ``sz`` row per seizure, or one ``bckg`` row if none."""
    when = START.strftime("%Y-%m-%d %H:%M:%S")
    rows = [(s, e - s, SEIZURE) for s, e in events] or [(0.0, recording_s, BACKGROUND)]
    return pd.DataFrame(
        [
            {
                "onset": round(float(o), 2),
                "duration": round(float(d), 2),
                "eventType": kind,
                "confidence": "n/a",
                "channels": "n/a",
                "dateTime": when,
                "recordingDuration": round(float(recording_s), 2),
            }
            for o, d, kind in rows
        ],
        columns=TSV_COLUMNS,
    )


def write_annotations(path: str | os.PathLike, events: list[tuple[float, float]], recording_s: float) -> None:
    with atomic_path(path) as tmp:
        annotation_frame(events, recording_s).to_csv(
            tmp, sep="\t", index=False, float_format="%.2f", lineterminator="\n"
        )


def read_annotations(path: str | os.PathLike) -> tuple[list[tuple[float, float]], float]:
    """Seizure events ``(start, end)`` in seconds and the recording duration from a SzCORE TSV."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"missing annotation file: {path}")
    frame = pd.read_csv(path, sep="\t", keep_default_na=False)  # "n/a" stays text, to be named below
    missing = [c for c in ("onset", "duration", "eventType", "recordingDuration") if c not in frame.columns]
    if missing or frame.empty:
        raise ValueError(f"{path}: not a SzCORE annotation TSV (missing columns {missing} or no rows)")
    numbers = frame[["onset", "duration", "recordingDuration"]].apply(pd.to_numeric, errors="coerce")
    bad = numbers.isna() | ~np.isfinite(numbers.fillna(0.0))
    if bad.any().any():
        row, column = next((r, c) for r in bad.index for c in bad.columns if bad.at[r, c])
        raise ValueError(f"{path}: row {row + 1}: {column} {frame.at[row, column]!r} is not a number of seconds")
    length = float(numbers["recordingDuration"].iloc[0])
    if length <= 0 or (numbers["recordingDuration"] != length).any():
        raise ValueError(f"{path}: recordingDuration must be one positive number of seconds on every row")
    for row in numbers.index:
        onset, duration = float(numbers.at[row, "onset"]), float(numbers.at[row, "duration"])
        if onset < 0 or duration < 0:
            raise ValueError(f"{path}: row {row + 1}: negative onset or duration ({onset:g} s, {duration:g} s)")
        if onset + duration > length + END_SLACK:
            raise ValueError(
                f"{path}: row {row + 1}: the event ends at {onset + duration:g} s, after the recording's end "
                f"({length:g} s)"
            )
    seizures = numbers[frame["eventType"].astype(str).str.lower() != BACKGROUND]
    events = [(float(o), float(o) + float(d)) for o, d in zip(seizures["onset"], seizures["duration"])]
    return events, length


END_SLACK = 0.5  # seconds an event may run past recordingDuration (rounding of both to the record length)
EDF_SLACK = 1.0  # seconds the EDF's length may differ from recordingDuration (one EDF data record)


# --- real EEG in the SzCORE BIDS format (paper scale) -------------------------------------------------------

NEW_NAMES = {"T7": "T3", "T8": "T4", "P7": "T5", "P8": "T6"}  # 10-10 names of the 10-20 electrodes (Siena's)


def _electrode(name: str) -> str:
    """An EDF channel label as the electrode it records: ``EEG Fp1-REF``, ``Fp1-Avg``, ``FP1`` and ``T7`` all
    read as the montage's ``Fp1`` / ``T3``; a bipolar label such as ``FP1-F7`` matches nothing."""
    label = name.strip().upper().removeprefix("EEG ").strip()
    for reference in ("-AVG", "-REF", "-LE", "-A1", "-A2"):
        label = label.removesuffix(reference)
    known = {c.upper(): c for c in montage.CHANNELS} | {new.upper(): old for new, old in NEW_NAMES.items()}
    return known.get(label, name)


def recordings(root: str | os.PathLike) -> dict[str, list[Path]]:
    """Each subject's EDF recordings under a BIDS root (``sub-<label>/[ses-*/]eeg/*_eeg.edf``, in path order), by
    subject label; a folder without any is one line naming it."""
    from ..common.sources import fail

    root = Path(root)
    if not root.is_dir():
        fail(root, "no such BIDS folder of EEG recordings (sub-*/ses-*/eeg/*_eeg.edf with *_events.tsv beside)")
    found: dict[str, list[Path]] = {}
    for edf in sorted(root.glob("sub-*/**/eeg/*_eeg.edf")):
        subject = edf.relative_to(root).parts[0].removeprefix("sub-")
        found.setdefault(subject, []).append(edf)
    if not found:
        fail(root, "holds no sub-*/.../eeg/*_eeg.edf recording (the SzCORE BIDS layout)")
    return found


def events_file(edf: str | os.PathLike) -> Path:
    """The SzCORE annotation file of a recording: ``*_events.tsv`` beside its ``*_eeg.edf``."""
    edf = Path(edf)
    return edf.with_name(edf.name.removesuffix("_eeg.edf") + "_events.tsv")


def read_recording(path: str | os.PathLike, fs: int) -> tuple[np.ndarray, list[tuple[float, float]], float]:
    """A real recording as the benchmark reads its own: the 19 montage electrodes (``(19, n)`` microvolts, in
    :data:`montage.CHANNELS` order, any other channel left out) resampled to ``fs`` by mne, with its seizures and
    duration from the ``*_events.tsv`` beside it. One line naming the file when the EDF cannot be read, lacks an
    electrode, or has no annotation file."""
    import mne

    from ..common.sources import fail

    path = Path(path)
    annotations = events_file(path)
    if not annotations.is_file():
        fail(path, f"no seizure annotations beside it (expected {annotations.name}, SzCORE's events TSV)")
    try:
        raw = mne.io.read_raw_edf(path, preload=True, verbose="error")
    except Exception as error:  # mne raises several types for a damaged header
        fail(path, f"not a readable EDF file ({type(error).__name__}: {str(error).splitlines()[0][:120]})")
    electrodes = {}
    for name in raw.ch_names:
        electrodes.setdefault(_electrode(name), name)
    missing = [c for c in montage.CHANNELS if c not in electrodes]
    if missing:
        fail(
            path,
            f"lacks electrode(s) {', '.join(missing)} of the 19-channel 10-20 montage (referential channels, as the "
            f"SzCORE format has them; found {', '.join(raw.ch_names[:6])}{', ...' if len(raw.ch_names) > 6 else ''})",
        )
    raw.pick([electrodes[c] for c in montage.CHANNELS])
    if round(raw.info["sfreq"]) != fs:
        raw.resample(fs, verbose="error")
    try:
        events, length = read_annotations(annotations)
    except (ValueError, KeyError, pd.errors.ParserError) as error:
        fail(annotations, f"not a SzCORE annotation TSV ({str(error).splitlines()[0][:160]})")
    recorded = raw.n_times / raw.info["sfreq"]
    if abs(recorded - length) > EDF_SLACK:  # a truncated EDF reads as fewer samples, not as an error
        fail(
            path,
            f"holds {recorded:g} s of EEG but {annotations.name} says the recording lasts {length:g} s: "
            "a truncated or mismatched file",
        )
    return raw.get_data() * 1e6, events, length


def has_seizure(edfs: list[str | os.PathLike]) -> bool:
    """Whether any of these recordings' annotation files lists a seizure (a missing or malformed file: no; the
    job that reads it names what is wrong)."""
    for edf in edfs:
        try:
            if read_annotations(events_file(edf))[0]:
                return True
        except (OSError, ValueError, KeyError, pd.errors.ParserError):
            continue
    return False


def write_replica(folder: str | os.PathLike, subjects: int = 2, runs: int = 2, seconds: int = 300) -> Path:
    """A tiny BIDS root in the SzCORE format as CHB-MIT and Siena come converted (``sub-XX/ses-01/eeg/..._eeg.edf``
    with ``..._events.tsv``), for tests and ``make gpu-check``: referential channels named ``<electrode>-Avg``
    with Siena's 10-10 names (T7, T8, P7, P8), in another order than the montage's, an ECG channel beside them, at
    200 Hz (the benchmark resamples). Random background with a 5 Hz rhythmic seizure in every run (the
    within-subject protocol trains on a subject's other runs, which must hold a seizure).
    Not real EEG: the format, sizes aside."""
    import mne

    rng = np.random.default_rng(0)
    fs = 200
    renamed = {old: new for new, old in NEW_NAMES.items()}
    names = [f"{renamed.get(c, c)}-Avg" for c in reversed(montage.CHANNELS)] + ["ECG"]
    root = Path(folder)
    for subject in range(1, subjects + 1):
        for run in range(runs):
            t = np.arange(seconds * fs) / fs
            x = rng.normal(0, 20e-6, (len(names), len(t)))
            events = [(0.3 * seconds + 10 * run, 0.5 * seconds + 10 * run)]
            for start, end in events:
                inside = (t >= start) & (t < end)
                x[:10, inside] += 150e-6 * np.sin(2 * np.pi * 5 * t[inside])
            info = mne.create_info(names, fs, ch_types=["eeg"] * 19 + ["ecg"], verbose="error")
            raw = mne.io.RawArray(x, info, verbose="error")
            raw.set_meas_date(START)
            name = root / f"sub-{subject:02d}" / f"ses-01/eeg/sub-{subject:02d}_ses-01_task-szMonitoring_run-{run:02d}"
            name.parent.mkdir(parents=True, exist_ok=True)
            mne.export.export_raw(f"{name}_eeg.edf", raw, fmt="edf", physical_range="channelwise", verbose="error")
            write_annotations(f"{name}_events.tsv", events, float(seconds))
    return root
