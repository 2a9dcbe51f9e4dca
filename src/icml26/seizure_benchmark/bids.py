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
    frame = pd.read_csv(path, sep="\t")
    missing = [c for c in ("onset", "duration", "eventType", "recordingDuration") if c not in frame.columns]
    if missing or frame.empty:
        raise ValueError(f"{path}: not a SzCORE annotation TSV (missing columns {missing} or no rows)")
    seizures = frame[frame["eventType"].astype(str).str.lower() != BACKGROUND]
    events = [(float(o), float(o) + float(d)) for o, d in zip(seizures["onset"], seizures["duration"])]
    return events, float(frame["recordingDuration"].iloc[0])
