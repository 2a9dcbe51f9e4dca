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

from ..common.sources import checked, fail

COLUMNS = ["source", "subject", "file", "kind", "seconds", "plausible"]


TIME = r"(\d{1,2}[.:]\d{2}[.:]\d{2})"
COMMON_LINES = {  # lines both formats have; every line of a list must match one pattern of its format
    "blank": r"\s*",
    "rate": r"Data Sampling Rate:\s*\d+\s*Hz\s*",
    "channels": r"Channels (?:in EDF files|changed):\s*",
    "channel": r"Channel \d+:.*",
}
CHBMIT_LINES = {
    "rule": r"\*+\s*",
    "file": r"File Name:\s*(\S+)\s*",
    "file_start": rf"File Start Time:\s*{TIME}\s*",
    "file_end": rf"File End Time:\s*{TIME}\s*",
    "count": r"Number of Seizures in File:\s*(\d+)\s*",
    "start": r"Seizure(?: \d+)? Start Time:\s*(\d+)\s*seconds\s*",
    "end": r"Seizure(?: \d+)? End Time:\s*(\d+)\s*seconds\s*",
}
SIENA_LINES = {
    "patient": r"PN\d+\s*",
    "seizure": r"Seizure n \d+.*",
    "file": r"File name:\s*(\S+)\s*",
    "registration": rf"Registration (?:start|end) time:\s*{TIME}\s*",
    "start": rf"Seizure start time:\s*{TIME}\s*",
    "end": rf"Seizure end time:\s*{TIME}\s*",
}


def _clock(text: str) -> int:
    h, m, s = (int(v) for v in re.split(r"[:.]", text.strip()))
    return 3600 * h + 60 * m + s


def _lines(path: Path, patterns: dict[str, str]) -> list[tuple[int, str, str | None]]:
    """``(line number, kind, first group)`` for every line; a line no pattern matches stops the run."""
    compiled = {kind: re.compile(rf"(?i){pattern}") for kind, pattern in {**COMMON_LINES, **patterns}.items()}
    try:
        text = checked(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        fail(path, f"not a text seizure list ({error.reason} at byte {error.start})")
    parsed = []
    for number, line in enumerate(text.splitlines(), start=1):
        kind = next((k for k, rx in compiled.items() if rx.fullmatch(line)), None)
        if kind is None:
            fail(path, f"line {number} is not part of the seizure-list format: {line.strip()[:60]!r}")
        match = compiled[kind].fullmatch(line)
        parsed.append((number, kind, match.group(1) if match.groups() else None))
    return parsed


def _blocks(parsed: list, opener: str) -> list[list]:
    """The lines from each ``opener`` line to the next (the header before the first is dropped)."""
    blocks = []
    for entry in parsed:
        if entry[1] == opener:
            blocks.append([])
        if blocks:
            blocks[-1].append(entry)
    return blocks


def _only(path: Path, block: list, kind: str) -> str:
    values = [value for _, k, value in block if k == kind]
    if len(values) != 1:
        fail(path, f"line {block[0][0]}: the entry starting here has {len(values)} '{kind}' lines, expected 1")
    return values[0]


def parse_chbmit(path: str | Path) -> pd.DataFrame:
    """Durations and intervals from one CHB-MIT summary file (every line checked)."""
    path = Path(path)
    subject = path.name.split("-")[0]
    rows, onsets, day, last_start = [], [], 0, None
    blocks = _blocks(_lines(path, CHBMIT_LINES), "file")
    if not blocks:
        fail(path, "no 'File Name:' entries: not a CHB-MIT summary")
    for block in blocks:
        name, clock = _only(path, block, "file"), _clock(_only(path, block, "file_start"))
        if last_start is not None and clock < last_start:
            day += 1
        last_start = clock
        file_start = day * 86400 + clock
        starts = [int(v) for _, k, v in block if k == "start"]
        ends = [int(v) for _, k, v in block if k == "end"]
        count = int(_only(path, block, "count"))
        if not len(starts) == len(ends) == count:
            fail(
                path,
                f"line {block[0][0]}: {name} declares {count} seizures but lists {len(starts)} start and "
                f"{len(ends)} end times",
            )
        for s, e in zip(starts, ends):
            if e <= s:
                fail(path, f"line {block[0][0]}: {name} has a seizure ending at {e} s, not after its start {s} s")
            rows.append(("chbmit", subject, name, "duration", float(e - s), True))
            onsets.append(file_start + s)
    for a, b in zip(onsets, onsets[1:]):
        rows.append(("chbmit", subject, "", "interval", float(b - a), True))
    return pd.DataFrame(rows, columns=COLUMNS)


def parse_siena(path: str | Path, max_duration_s: float) -> pd.DataFrame:
    """Durations from one Siena seizure list (clock times hh.mm.ss; may cross midnight; every line checked)."""
    path = Path(path)
    subject = path.stem.split("-")[-1]
    blocks = _blocks(_lines(path, SIENA_LINES), "seizure")
    if not blocks:
        fail(path, "no 'Seizure n' entries: not a Siena seizure list")
    rows = []
    for block in blocks:
        name = _only(path, block, "file")
        seconds = (_clock(_only(path, block, "end")) - _clock(_only(path, block, "start"))) % 86400
        rows.append(("siena", subject, name, "duration", float(seconds), seconds <= max_duration_s))
    return pd.DataFrame(rows, columns=COLUMNS)


LIST_PATTERNS = ("chb*-summary.txt", "Seizures-list-*.txt")


def list_files(source_dir: str | Path) -> list[Path]:
    """The seizure lists in a folder (what the statistics rule declares as its inputs)."""
    return sorted(p for pattern in LIST_PATTERNS for p in Path(source_dir).glob(pattern))


def statistics(lists: list[str | Path], max_duration_s: float) -> pd.DataFrame:
    """Durations and intervals from CHB-MIT summaries (``chb*-summary.txt``) and Siena lists
    (``Seizures-list-*.txt``); both kinds are needed."""
    paths = sorted(Path(p) for p in lists)
    chb = [p for p in paths if p.match(LIST_PATTERNS[0])]
    siena = [p for p in paths if p.match(LIST_PATTERNS[1])]
    if not chb or not siena or len(chb) + len(siena) != len(paths):
        raise FileNotFoundError(
            f"seizure lists: need chb*-summary.txt and Seizures-list-*.txt files, got "
            f"{', '.join(map(str, paths)) or 'none'}"
        )
    frames = [parse_chbmit(p) for p in chb] + [parse_siena(p, max_duration_s) for p in siena]
    table = pd.concat(frames, ignore_index=True)
    if not ((table["kind"] == "duration") & table["plausible"]).any() or not (table["kind"] == "interval").any():
        raise ValueError(f"{', '.join(map(str, paths))}: the seizure lists gave no usable durations or intervals")
    return table


def usable(table: pd.DataFrame, kind: str) -> pd.Series:
    """The plausible values of one kind (``duration`` or ``interval``), in seconds."""
    return table.loc[(table["kind"] == kind) & table["plausible"].astype(bool), "seconds"].astype(float)
