"""NASA C-MAPSS as survival data for the jet-engine case study: any of its four subsets, combined.

Source: the NASA Prognostics Data Repository's ``train_FD00k.txt``, ``test_FD00k.txt`` and ``RUL_FD00k.txt``
(Saxena et al. 2008; public domain): whitespace-separated, 26 fields a line (a header line, as in the copy under
``../shared/data/cmapss/``, is recognised and skipped). The subsets differ in their operating conditions (readme.txt):
FD001 and FD003 run at one (sea level), FD002 and FD004 at six (the altitude ``op_setting_1`` takes 0 to 42
thousand feet), which is what the paper's subgroups on the operating setting need. Below paper scale only FD001 is
available here (``../shared/data/cmapss``); the paper section reads FD001-FD004 from the fetched folder.

Survival rows (our construction): every ``snapshot_every``-th cycle of every engine is a row whose features are the
sensor readings at that cycle and whose time is the number of cycles still to run. Training engines run to failure
(event at their last cycle). Test engines stop early: ``censored`` (default) treats them as censored at their last
observed cycle; ``failures_from_rul`` uses the provided true RUL to place their failure. Rows of one engine are
correlated, so splits are by engine (the ``engine`` column: ``<subset>_<train|test>_<unit>``).
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
CONDITIONS = {"FD001": 1, "FD002": 6, "FD003": 1, "FD004": 6}  # operating conditions of each subset (readme.txt)
SUBSETS = tuple(CONDITIONS)


def _header(path: Path) -> int:
    """1 when the file starts with a header line (a first field that is not a number), else 0."""
    with open(path, errors="replace") as stream:
        first = stream.readline().split()
    try:
        float(first[0]) if first else 0.0
    except ValueError:
        return 1
    return 0


def _read(path: str | Path, subset: str) -> pd.DataFrame:
    """One C-MAPSS table of ``subset``, checked: 26 numeric fields on every line, engines 1..N in order each with
    cycles 1, 2, ..., and the subset's number of operating conditions (the altitude rounded to thousands of feet)."""
    path = checked(path)
    skip = _header(path)
    try:
        frame = pd.read_csv(path, sep=r"\s+", header=None, skiprows=skip, usecols=range(26))
    except (ValueError, pd.errors.ParserError) as error:
        fail(path, f"not a whitespace-separated C-MAPSS table ({' '.join(str(error).split())})")
    frame.columns = COLUMNS
    numeric = frame.apply(pd.to_numeric, errors="coerce")
    bad = numeric.isna().any(axis=1).to_numpy()
    if bad.any():
        fail(path, f"line {int(np.argmax(bad)) + 1 + skip} does not have 26 numeric fields (truncated or garbled)")
    units = numeric["unit"].astype(int)
    count = int(units.max())
    if sorted(units.unique()) != list(range(1, count + 1)) or not units.is_monotonic_increasing:
        fail(path, f"expected engines 1..N in order, found {units.nunique()} engines ({units.min()}..{count})")
    expected_cycles = numeric.groupby("unit").cumcount() + 1
    if not (numeric["cycle"].astype(int) == expected_cycles).all():
        line = int(np.argmax((numeric["cycle"].astype(int) != expected_cycles).to_numpy())) + 1 + skip
        fail(path, f"line {line}: cycles of an engine must run 1, 2, 3, ... (a line is missing or out of order)")
    found = int(numeric["op_setting_1"].round().nunique())
    if found != CONDITIONS[subset]:
        expected = CONDITIONS[subset]
        fail(path, f"{found} operating conditions, where {subset} has {expected} (is it another subset's file?)")
    return numeric.astype({"unit": int, "cycle": int})


def _read_rul(path: str | Path, test: pd.DataFrame, test_path: str | Path) -> np.ndarray:
    """The remaining lives of the test engines, one non-negative number a line; as many as ``test`` has engines
    (else one line naming the test file, which a cut at a line boundary leaves short, and the RUL file)."""
    path = checked(path)
    column = pd.read_csv(path, sep=r"\s+", header=None, skiprows=_header(path)).iloc[:, 0]
    rul = pd.to_numeric(column, errors="coerce")
    if rul.isna().any() or (rul < 0).any():
        fail(path, f"expected non-negative remaining-life values, {int(rul.isna().sum())} are not numbers")
    engines = int(test["unit"].max())
    if len(rul) != engines:
        fail(test_path, f"{engines} test engines, but {Path(path).name} holds {len(rul)} remaining-life values")
    return rul.to_numpy()


def load(
    train: list[str | Path],
    test: list[str | Path],
    rul: list[str | Path],
    subsets: list[str],
    snapshot_every: int,
    test_engines: str = "censored",
) -> pd.DataFrame:
    """Survival rows from each subset's training, test and RUL files (in ``subsets``' order; each file checked, see
    :func:`_read`), the subsets one after another with a ``subset`` column."""
    if test_engines not in TEST_ENGINES:
        raise ValueError(f"test_engines must be one of {TEST_ENGINES}, got {test_engines!r}")
    unknown = [s for s in subsets if s not in SUBSETS]
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: not a C-MAPSS subset (expected {', '.join(SUBSETS)})")
    frames = [
        _subset(*files, subset, snapshot_every, test_engines)
        for *files, subset in zip(train, test, rul, subsets, strict=True)
    ]
    return pd.concat(frames, ignore_index=True)


def _subset(train, test, rul, subset: str, snapshot_every: int, test_engines: str) -> pd.DataFrame:
    train, test_path = _read(train, subset), test
    test = _read(test_path, subset)
    rul = _read_rul(rul, test, test_path)
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
        engine = f"{subset}_{split}_" + frame["unit"].astype(str)
        rows = frame.assign(time=remaining + 1.0, event=event, engine=engine, subset=subset)
        parts.append(rows[(rows["cycle"] - 1) % snapshot_every == 0])
    out = pd.concat(parts, ignore_index=True)
    return out[["engine", "subset", "cycle", "time", "event", "op_setting_1", "op_setting_2", "op_setting_3", *SENSORS]]


ALTITUDES = (0.0, 10.0, 20.0, 25.0, 35.0, 42.0)  # thousands of feet: the six-condition subsets' operating points


def write_replica(folder: str | Path, engines: int = 12, cycles: tuple[int, int] = (150, 250), seed: int = 0) -> Path:
    """``train_FD00k.txt``, ``test_FD00k.txt`` and ``RUL_FD00k.txt`` for the four subsets in NASA's own layout (no
    header, 26 space-separated fields, two trailing spaces), ``engines`` engines per file, for tests and
    ``make gpu-check`` (the real FD002-FD004 cannot be fetched here). Each engine degrades at its own rate over
    ``cycles`` cycles; FD002/FD004 draw each cycle's operating condition from the six altitudes, shifting the
    sensors as the real conditions do. Not the real data: the files' format, sizes aside."""
    rng = np.random.default_rng(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    base = rng.uniform(1.0, 1500.0, len(SENSORS))
    for subset, conditions in CONDITIONS.items():
        for split in ("train", "test"):
            lines, remaining = [], []
            for unit in range(1, engines + 1):
                life = int(rng.integers(*cycles))
                seen = life if split == "train" else int(rng.integers(life // 3, life - 5))
                rate = rng.uniform(0.5, 1.5)
                for cycle in range(1, seen + 1):
                    altitude = rng.choice(ALTITUDES) if conditions > 1 else 0.0
                    settings = (altitude + rng.normal(0, 0.003), rng.normal(0, 0.0003), 100.0)
                    wear = rate * (cycle / life) ** 2
                    sensors = base * (1 - 0.004 * altitude) * (1 + 0.01 * wear) + rng.normal(0, 0.05, len(SENSORS))
                    fields = [f"{unit}", f"{cycle}", *(f"{v:.4f}" for v in settings), *(f"{v:.4f}" for v in sensors)]
                    lines.append(" ".join(fields) + "  ")
                remaining.append(life - seen)
            (folder / f"{split}_{subset}.txt").write_text("\n".join(lines) + "\n")
            if split == "test":
                (folder / f"RUL_{subset}.txt").write_text("".join(f"{r}  \n" for r in remaining))
    return folder
