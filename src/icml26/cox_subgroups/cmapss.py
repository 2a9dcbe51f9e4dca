"""NASA C-MAPSS FD001 as survival data for the jet-engine case study.

Source: ``../shared/data/cmapss/`` (NASA Prognostics Data Repository,
Saxena et al. 2008; public domain), whitespace-separated with a header line
naming 31 columns for 26 fields (the first 26 are used). **Difference from the
paper:** the paper's case study uses the six-condition sets FD002/FD004
(altitude subgroups); only the single-condition FD001 is available here, so
the case study runs on FD001, where the operating settings hardly vary.

Survival rows (our construction): every ``snapshot_every``-th cycle of every
engine is a row whose features are the sensor readings at that cycle and whose
time is the number of cycles still to run. Training engines run to failure
(event at their last cycle). Test engines stop early: ``censored`` (default)
treats them as censored at their last observed cycle; ``failures_from_rul``
uses the provided true RUL to place their failure. Rows of one engine are
correlated, so splits are by engine (the ``engine`` column).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..common.sources import checked, fail

SENSORS = [
    "T2",
    "T24",
    "T30",
    "T50",
    "P2",
    "P15",
    "P30",
    "Nf",
    "Nc",
    "epr",
    "Ps30",
    "phi",
    "NRf",
    "NRc",
    "BPR",
    "farB",
    "htBleed",
    "Nf_dmd",
    "PCNfR_dmd",
    "W31",
    "W32",
]
COLUMNS = ["unit", "cycle", "op_setting_1", "op_setting_2", "op_setting_3", *SENSORS]
TEST_ENGINES = ("censored", "failures_from_rul")
UNITS = 100  # FD001 has 100 training and 100 test engines (readme.txt)


def _read(path: str | Path) -> pd.DataFrame:
    """One C-MAPSS table, checked: 26 numeric fields on every line, engines 1..100 each with cycles 1, 2, ..."""
    path = checked(path)
    try:
        frame = pd.read_csv(path, sep=r"\s+", header=None, skiprows=1, usecols=range(26))
    except (ValueError, pd.errors.ParserError) as error:
        fail(path, f"not a whitespace-separated C-MAPSS table ({' '.join(str(error).split())})")
    frame.columns = COLUMNS
    numeric = frame.apply(pd.to_numeric, errors="coerce")
    bad = numeric.isna().any(axis=1).to_numpy()
    if bad.any():
        fail(path, f"line {int(np.argmax(bad)) + 2} does not have 26 numeric fields (truncated or garbled)")
    units = numeric["unit"].astype(int)
    if sorted(units.unique()) != list(range(1, UNITS + 1)) or not units.is_monotonic_increasing:
        fail(
            path,
            f"expected engines 1..{UNITS} in order, found {units.nunique()} engines ({units.min()}..{units.max()})",
        )
    expected_cycles = numeric.groupby("unit").cumcount() + 1
    if not (numeric["cycle"].astype(int) == expected_cycles).all():
        line = int(np.argmax((numeric["cycle"].astype(int) != expected_cycles).to_numpy())) + 2
        fail(path, f"line {line}: cycles of an engine must run 1, 2, 3, ... (a line is missing or out of order)")
    return numeric.astype({"unit": int, "cycle": int})


def _read_rul(path: str | Path) -> np.ndarray:
    path = checked(path)
    rul = pd.to_numeric(pd.read_csv(path, sep=r"\s+", header=None, skiprows=1).iloc[:, 0], errors="coerce")
    if len(rul) != UNITS or rul.isna().any() or (rul < 0).any():
        fail(
            path,
            f"expected {UNITS} non-negative remaining-life values, one per test engine; found {len(rul)} "
            f"({int(rul.isna().sum())} not numbers)",
        )
    return rul.to_numpy()


def load_fd001(
    train: str | Path, test: str | Path, rul: str | Path, snapshot_every: int, test_engines: str = "censored"
) -> pd.DataFrame:
    """Survival rows from the FD001 training, test and RUL files (each checked, see :func:`_read`)."""
    if test_engines not in TEST_ENGINES:
        raise ValueError(f"test_engines must be one of {TEST_ENGINES}, got {test_engines!r}")
    train, test, rul = _read(train), _read(test), _read_rul(rul)
    parts = []
    for frame, offset, split in ((train, None, "train"), (test, rul, "test")):
        last = frame.groupby("unit")["cycle"].transform("max")
        remaining = (last - frame["cycle"]).astype(float)
        if offset is None:
            event = np.ones(len(frame), dtype=int)
        elif test_engines == "failures_from_rul":
            remaining = remaining + offset[frame["unit"].to_numpy() - 1]
            event = np.ones(len(frame), dtype=int)
        else:
            event = np.zeros(len(frame), dtype=int)
        rows = frame.assign(time=remaining + 1.0, event=event, engine=f"{split}_" + frame["unit"].astype(str))
        parts.append(rows[(rows["cycle"] - 1) % snapshot_every == 0])
    out = pd.concat(parts, ignore_index=True)
    return out[["engine", "cycle", "time", "event", "op_setting_1", "op_setting_2", "op_setting_3", *SENSORS]]
