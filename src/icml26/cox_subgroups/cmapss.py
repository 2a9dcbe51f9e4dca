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

SENSORS = ["T2", "T24", "T30", "T50", "P2", "P15", "P30", "Nf", "Nc", "epr", "Ps30", "phi", "NRf", "NRc", "BPR",
           "farB", "htBleed", "Nf_dmd", "PCNfR_dmd", "W31", "W32"]
COLUMNS = ["unit", "cycle", "op_setting_1", "op_setting_2", "op_setting_3", *SENSORS]
TEST_ENGINES = ("censored", "failures_from_rul")


def _read(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise FileNotFoundError(f"C-MAPSS file not found: {path} (see ../shared/data/README.md)")
    frame = pd.read_csv(path, sep=r"\s+", header=None, skiprows=1, usecols=range(26))
    frame.columns = COLUMNS
    return frame


def load_fd001(source_dir: str | Path, snapshot_every: int, test_engines: str = "censored") -> pd.DataFrame:
    if test_engines not in TEST_ENGINES:
        raise ValueError(f"test_engines must be one of {TEST_ENGINES}, got {test_engines!r}")
    source = Path(source_dir)
    train, test = _read(source / "train_FD001.txt"), _read(source / "test_FD001.txt")
    rul = pd.read_csv(source / "RUL_FD001.txt", sep=r"\s+", header=None, skiprows=1).iloc[:, 0].to_numpy()
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
