"""The published results of the 2025 SzCORE challenge (``shared/data/szcore/``, esl-epfl/szcore).

``challenge_results.json`` holds, per entry, the evaluation-set (Dianalund, 65 subjects) sample and
event metrics: per-subject means and standard deviations of sensitivity, precision, F1 and FP/day.
``results.json`` holds per-dataset results of 14 containers on the five public datasets. Missing
values are JSON ``null`` or the string ``"NaN"``; both become NaN.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

METRICS = ("sensitivity", "precision", "f1", "fpRate")


def _number(value) -> float:
    if value is None or (isinstance(value, str) and value.strip().lower() == "nan"):
        return float("nan")
    return float(value)


def _load(path: str | os.PathLike) -> dict:
    try:
        with open(path) as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise FileNotFoundError(f"missing challenge results: {path}") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON ({err})") from err


def _row(results: dict, path) -> dict:
    row = {}
    for kind in ("event", "sample"):
        block = results.get(f"{kind}_results")
        if block is None:
            raise ValueError(f"{path}: an entry has no {kind}_results")
        for m in METRICS:
            row[f"{kind}_{m}"] = _number(block.get(m))
            row[f"{kind}_{m}_std"] = _number(block.get(f"{m}_std"))
    return row


def leaderboard(path: str | os.PathLike) -> pd.DataFrame:
    """One row per entry, sorted by event F1 (per-subject mean, as published), best first.

    ``event_f1_from_means`` is the other aggregation: the harmonic mean of the averaged event
    sensitivity and precision.
    """
    data = _load(path)
    rows = []
    for entry, record in sorted(data.items()):
        if "evaluation_dataset" not in record:
            raise ValueError(f"{path}: entry {entry} has no evaluation_dataset")
        rows.append(
            {
                "entry": entry,
                "algorithm": record.get("algorithm_name", entry),
                **_row(record["evaluation_dataset"], path),
            }
        )
    table = pd.DataFrame(rows)
    s, p = table["event_sensitivity"], table["event_precision"]
    table["event_f1_from_means"] = np.where(s + p > 0, 2 * s * p / (s + p), np.nan)
    table = table.sort_values(["event_f1", "entry"], ascending=[False, True], na_position="last")
    table.insert(0, "position", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)


def per_dataset(path: str | os.PathLike) -> pd.DataFrame:
    """Long table: container x dataset with event and sample metrics."""
    data = _load(path)
    rows = [
        {"container": c, "dataset": d, **_row(r, path)}
        for c, sets in sorted(data.items())
        for d, r in sorted(sets.items())
    ]
    return pd.DataFrame(rows)
