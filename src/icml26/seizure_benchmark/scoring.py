"""SzCORE scoring: ``timescoring`` for each recording, our per-subject aggregation on top.

Event scoring uses timescoring's defaults, which are the SzCORE rules (30 s tolerance before onset,
60 s after the end, any overlap, events < 90 s apart merged, events split at 300 s); sample scoring
is at 1 Hz. The per-subject aggregation re-implements what ``szcore-evaluation`` does (that package
needs Python >= 3.12): per subject, TP, FP, reference events and duration are summed over its
recordings and sensitivity, precision, F1 and FP/day computed from the sums; the corpus score is the
mean (and standard deviation, ddof 0) over subjects, NaNs skipped. The alternative average reports
F1 as the harmonic mean of the averaged sensitivity and precision.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from timescoring import scoring
from timescoring.annotations import Annotation

COUNTS = ["tp", "fp", "ref_true", "duration_s"]
METRICS = ["sensitivity", "precision", "f1", "fp_per_day"]


def score_recording(
    reference: list[tuple[float, float]], hypothesis: list[tuple[float, float]], duration_s: float
) -> dict[str, float]:
    """Event and sample counts of one recording (keys ``event_tp``, ``sample_fp``, ...)."""
    n = int(round(duration_s))
    ref, hyp = Annotation(reference, 1, n), Annotation(hypothesis, 1, n)
    out = {}
    for kind, result in (("event", scoring.EventScoring(ref, hyp)), ("sample", scoring.SampleScoring(ref, hyp))):
        out.update(
            {f"{kind}_tp": float(result.tp), f"{kind}_fp": float(result.fp), f"{kind}_ref_true": float(result.refTrue)}
        )
    out["duration_s"] = float(duration_s)
    return out


def metrics(tp, fp, ref_true, duration_s) -> dict[str, np.ndarray]:
    """timescoring's formulas applied to summed counts (arrays or scalars)."""
    tp, fp, ref_true, duration_s = (np.asarray(v, dtype=float) for v in (tp, fp, ref_true, duration_s))
    with np.errstate(invalid="ignore", divide="ignore"):
        sensitivity = np.where(ref_true > 0, tp / ref_true, np.nan)
        precision = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        f1 = np.where(ref_true + fp > 0, 2 * tp / (2 * tp + fp + ref_true - tp), np.nan)
    return {"sensitivity": sensitivity, "precision": precision, "f1": f1, "fp_per_day": fp / (duration_s / 86400.0)}


def per_subject(recordings: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sum each subject's recordings (grouped by ``by`` + subject) and score the sums."""
    keys = [*by, "subject"]
    rows = []
    for kind in ("event", "sample"):
        cols = [f"{kind}_tp", f"{kind}_fp", f"{kind}_ref_true"]
        sums = recordings.groupby(keys, sort=True)[[*cols, "duration_s"]].sum().reset_index()
        m = metrics(sums[cols[0]], sums[cols[1]], sums[cols[2]], sums["duration_s"])
        part = sums[keys].copy()
        part.insert(len(keys), "scoring", kind)
        part["tp"], part["fp"], part["ref_true"] = sums[cols[0]], sums[cols[1]], sums[cols[2]]
        part["duration_s"] = sums["duration_s"]
        for name in METRICS:
            part[name] = m[name]
        rows.append(part)
    return pd.concat(rows, ignore_index=True)


def aggregate(subjects: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Mean and std over subjects of each metric, and the alternative F1 from averaged S and P."""
    groups = subjects.groupby([*by, "scoring"], sort=True)
    out = groups[METRICS].agg(lambda v: float(np.nanmean(v)) if np.isfinite(v).any() else np.nan)
    std = groups[METRICS].agg(lambda v: float(np.nanstd(v)) if np.isfinite(v).any() else np.nan)
    out = out.join(std.add_suffix("_std"))
    s, p = out["sensitivity"], out["precision"]
    out["f1_from_means"] = np.where(s + p > 0, 2 * s * p / (s + p), np.nan)
    out["subjects"] = groups.size()
    return out.reset_index()
