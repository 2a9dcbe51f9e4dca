"""Real seizure statistics from public seizure lists: durations and inter-seizure intervals.

Source: the CHB-MIT ``chbXX-summary.txt`` files (ODC-By 1.0) and the Siena Scalp EEG
``Seizures-list-PNXX.txt`` files (CC-BY 4.0), as shipped with epilepsy2bids' test data and copied
into ``shared/data/eeg_annotations/``. The simulator draws its seizure durations and inter-seizure
intervals from the table this module builds.

- Durations come from both corpora. A Siena entry whose end is more than ``max_duration_s`` after its
  start is kept in the table but flagged ``plausible = False`` (PN00's third seizure reads
  18.28.29 -> 19.29.29, a 61-minute seizure inside a 41-minute registration: a typo in the list).
- Intervals (onset to onset of consecutive seizures of one subject) come from CHB-MIT only, where file
  start times give an absolute clock (times past 24:00 and a clock that goes backwards mark a new
  day). Siena lists give clock times without dates, so their intervals are unknown.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

COLUMNS = ["source", "subject", "file", "kind", "seconds", "plausible"]


def _clock(text: str) -> int:
    h, m, s = (int(v) for v in re.split(r"[:.]", text.strip()))
    return 3600 * h + 60 * m + s


def parse_chbmit(path: str | Path) -> pd.DataFrame:
    """Durations and intervals from one CHB-MIT summary file."""
    text = Path(path).read_text(errors="replace")
    subject = Path(path).name.split("-")[0]
    rows, onsets, day, last_start = [], [], 0, None
    for block in re.split(r"\n(?=File Name:)", text):
        name = re.search(r"File Name:\s*(\S+)", block)
        start = re.search(r"File Start Time:\s*([\d:]+)", block)
        if not name or not start:
            continue
        clock = _clock(start.group(1))
        if last_start is not None and clock < last_start:
            day += 1
        last_start = clock
        file_start = day * 86400 + clock
        starts = [int(v) for v in re.findall(r"Seizure(?: \d+)? Start Time:\s*(\d+)", block)]
        ends = [int(v) for v in re.findall(r"Seizure(?: \d+)? End Time:\s*(\d+)", block)]
        if len(starts) != len(ends):
            raise ValueError(f"{path}: {name.group(1)} has {len(starts)} seizure starts and {len(ends)} ends")
        for s, e in zip(starts, ends):
            rows.append(("chbmit", subject, name.group(1), "duration", float(e - s), True))
            onsets.append(file_start + s)
    for a, b in zip(onsets, onsets[1:]):
        rows.append(("chbmit", subject, "", "interval", float(b - a), True))
    return pd.DataFrame(rows, columns=COLUMNS)


def parse_siena(path: str | Path, max_duration_s: float) -> pd.DataFrame:
    """Durations from one Siena seizure list (clock times hh.mm.ss; may cross midnight)."""
    text = Path(path).read_text(errors="replace")
    subject = Path(path).stem.split("-")[-1]
    rows = []
    for block in re.split(r"\n(?=Seizure n)", text):
        name = re.search(r"File name:\s*(\S+)", block)
        start = re.search(r"Seizure start time:\s*([\d.]+)", block, re.IGNORECASE)
        end = re.search(r"Seizure end time:\s*([\d.]+)", block, re.IGNORECASE)
        if not (name and start and end):
            continue
        seconds = (_clock(end.group(1)) - _clock(start.group(1))) % 86400
        rows.append(("siena", subject, name.group(1), "duration", float(seconds), seconds <= max_duration_s))
    return pd.DataFrame(rows, columns=COLUMNS)


def statistics(source_dir: str | Path, max_duration_s: float) -> pd.DataFrame:
    """Every seizure list under ``source_dir`` (``chb*-summary.txt``, ``Seizures-list-*.txt``)."""
    source = Path(source_dir)
    chb = sorted(source.glob("chb*-summary.txt"))
    siena = sorted(source.glob("Seizures-list-*.txt"))
    if not chb or not siena:
        raise FileNotFoundError(f"{source}: expected chb*-summary.txt and Seizures-list-*.txt seizure lists")
    frames = [parse_chbmit(p) for p in chb] + [parse_siena(p, max_duration_s) for p in siena]
    table = pd.concat(frames, ignore_index=True)
    if not ((table["kind"] == "duration") & table["plausible"]).any() or not (table["kind"] == "interval").any():
        raise ValueError(f"{source}: the seizure lists gave no usable durations or intervals")
    return table


def usable(table: pd.DataFrame, kind: str) -> pd.Series:
    """The plausible values of one kind (``duration`` or ``interval``), in seconds."""
    return table.loc[(table["kind"] == kind) & table["plausible"].astype(bool), "seconds"].astype(float)
