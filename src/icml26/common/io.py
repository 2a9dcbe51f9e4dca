"""Canonical, atomic file writing.

Every file a rule produces goes through these helpers so that (1) the same
content always gives the same bytes (sorted JSON keys, fixed float format,
``\\n`` line ends) and (2) an interrupted job never leaves a half-written
output: data is written to a temporary file in the same folder and renamed.
"""

from __future__ import annotations

import io as _bytes
import json
import math
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

FLOAT_FORMAT = "%.10g"
"""Ten significant digits: stable across runs, far below any claim's tolerance."""


_UMASK = os.umask(0)
os.umask(_UMASK)


class MissingInputError(FileNotFoundError):
    """A rule function was given an input path that does not exist."""


def require(*paths: str | os.PathLike) -> None:
    """Fail with a message naming every missing input file."""
    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing:
        raise MissingInputError("missing input file(s): " + ", ".join(missing))


TMP_PREFIX = ".icml26-tmp."  # every temporary file of an atomic write; .dvcignore'd, removed by the next run


def temporary_sibling(path: str | os.PathLike) -> Path:
    """The one temporary name of ``path`` (for writers that cannot use :func:`atomic_path`: folders, EDF)."""
    return Path(path).with_name(f"{TMP_PREFIX}{Path(path).name}")


def remove_leftovers(path: str | os.PathLike) -> list[Path]:
    """Delete what a killed job left while writing ``path`` (its temporary siblings); return them."""
    path = Path(path)
    found = [
        p
        for p in (*path.parent.glob(f"{TMP_PREFIX}{path.name}.*"), temporary_sibling(path))
        if p.exists() or p.is_symlink()
    ]
    for leftover in found:
        shutil.rmtree(leftover) if leftover.is_dir() and not leftover.is_symlink() else leftover.unlink()
    return found


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` on success only."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f"{TMP_PREFIX}{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs should look like any file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _canonical(value: Any) -> Any:
    """Round floats to ``FLOAT_FORMAT`` and turn numpy scalars/arrays into plain Python."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return float(FLOAT_FORMAT % value)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    raise TypeError(f"cannot write {type(value).__name__} to canonical JSON")


def write_json(path: str | os.PathLike, data: Any) -> None:
    """Write ``data`` as sorted, indented JSON with canonical floats."""
    text = json.dumps(_canonical(data), indent=2, sort_keys=True, allow_nan=False) + "\n"
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def read_json(path: str | os.PathLike) -> Any:
    require(path)
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_csv(path: str | os.PathLike, frame: pd.DataFrame) -> None:
    """Write a table without index, with canonical floats and ``\\n`` line ends."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")


def read_csv(path: str | os.PathLike) -> pd.DataFrame:
    require(path)
    return pd.read_csv(path)


def read_csvs(paths: list[str | os.PathLike]) -> pd.DataFrame:
    """The per-job tables of a fan-in rule, stacked in the order given."""
    return pd.concat([read_csv(p) for p in paths], ignore_index=True)


def write_text(path: str | os.PathLike, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write arrays as an ``.npz`` archive with fixed member timestamps (``np.savez`` stamps the clock)."""
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            buffer = _bytes.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, buffer.getvalue())


def read_npz(path: str | os.PathLike, *keys: str) -> dict[str, np.ndarray]:
    """Read the named arrays (all of them when none are named) of an ``.npz`` file.

    A missing file or key is an error naming the file.
    """
    require(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in (keys or data.files) if k in data.files}
            found = sorted(data.files)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not a readable .npz file ({error or type(error).__name__})") from None
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise ValueError(f"{path}: missing array(s) {missing}; found {found}")
    return arrays
