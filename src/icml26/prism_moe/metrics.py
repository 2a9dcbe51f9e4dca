"""Per-task metrics, the multi-task Delta_m and a bootstrap over seeds and test images.

Each test image leaves sufficient statistics per task (:func:`image_stats`; pixels whose label is missing,
``tasks.IGNORE``, depth 0 or a zero normal, are left out): a confusion matrix per label task, the depth squared error,
true/false positives and false negatives of a binary map at fixed thresholds, and the summed normal angle error.
Sums of them over any set of images give the dataset metrics (:func:`scores`), so a bootstrap resample is a weighted
sum, not a re-evaluation:

- ``miou`` (``parts_miou`` for human parts): mean over classes (with a non-empty union) of the confusion-matrix IoU
  (higher is better);
- ``depth_rmse``: root mean squared depth error per pixel (lower);
- ``edge_f1``: the best F1 over the thresholds ``THRESHOLDS`` (pixel-exact, dataset-wide: the ODS convention
  without the usual matching tolerance -- ours) (higher);
- ``saliency_maxf``: the best F-measure with beta^2 = 0.3 over the same thresholds, dataset-wide, as the paper's
  evaluation reports saliency (higher);
- ``normal_angle``: mean angle in degrees between predicted and true normals (lower).

``delta_m`` is the usual multi-task measure ``mean_t s_t (M_t - R_t) / R_t x 100`` (``s_t = +1`` if higher is
better, ``-1`` if lower) over the data set's tasks. The reference ``R`` is ours: the multi-task student trained from
scratch on the same data for as many steps (the paper's single-task baselines are not run here); the comparisons
between students do not depend on the choice beyond the scale of ``R``.
"""

from __future__ import annotations

import numpy as np

from .tasks import HIGHER_IS_BETTER, IGNORE, METRICS, TASKS

THRESHOLDS = np.round(np.linspace(0.05, 0.95, 19), 2)
EDGE_THRESHOLDS = THRESHOLDS
BETA2 = {"edge_f1": 1.0, "saliency_maxf": 0.3}  # F-measure weights: F1 for edges, the saliency convention


def image_stats(prediction: dict[str, np.ndarray], target: dict[str, np.ndarray], tasks: dict[str, int]) -> dict:
    """Per-image sufficient statistics of ``tasks`` (task -> output channels, ``tasks.of``). ``prediction``: labels
    ``[n, H, W]``, depth ``[n, H, W]``, binary maps as probabilities ``[n, H, W]``, normals as unit vectors
    ``[n, 3, H, W]``; ``target`` alike."""
    out = {}
    for task, channels in tasks.items():
        kind, truth, guess = TASKS[task].kind, target[task], prediction[task]
        n = len(truth)
        if kind == "labels":
            valid = (truth != IGNORE).reshape(n, -1)
            pairs = truth.reshape(n, -1).astype(np.int64) * channels + guess.reshape(n, -1)
            out[f"{task}_confusion"] = np.stack(
                [np.bincount(p[v], minlength=channels * channels) for p, v in zip(pairs, valid)]
            ).reshape(n, channels, channels)
        elif kind == "depth":
            valid = truth != 0
            error = np.where(valid, (guess - truth).astype(np.float64) ** 2, 0.0)
            out["depth_se"], out["depth_pixels"] = error.reshape(n, -1).sum(1), valid.reshape(n, -1).sum(1)
        elif kind == "binary":
            valid = (truth != IGNORE).reshape(n, 1, -1)
            above = guess.reshape(n, 1, -1) >= THRESHOLDS[None, :, None]
            positive = truth.reshape(n, 1, -1) == 1
            out[f"{task}_tp"] = (above & positive & valid).sum(2)
            out[f"{task}_fp"] = (above & ~positive & valid).sum(2)
            out[f"{task}_fn"] = (~above & positive & valid).sum(2)
        else:
            valid = (truth != 0).any(1)
            cosine = np.clip((guess * truth).sum(1), -1, 1).astype(np.float64)
            angle = np.where(valid, np.degrees(np.arccos(cosine)), 0.0)
            out["normals_angle_sum"], out["normals_pixels"] = angle.reshape(n, -1).sum(1), valid.reshape(n, -1).sum(1)
    return out


def weighted(stats: dict, weights: np.ndarray) -> dict:
    """Sums of per-image stats with image weights ``[..., n]`` (ones: the whole set; counts: a resample)."""
    return {k: np.tensordot(weights, v.astype(np.float64), axes=([-1], [0])) for k, v in stats.items()}


def _f_measure(totals: dict, task: str, beta2: float) -> np.ndarray:
    tp, fp, fn = totals[f"{task}_tp"], totals[f"{task}_fp"], totals[f"{task}_fn"]
    if beta2 == 1:
        f = np.where(tp > 0, 2 * tp / np.maximum(2 * tp + fp + fn, 1), 0.0)
    else:
        f = np.where(tp > 0, (1 + beta2) * tp / np.maximum((1 + beta2) * tp + beta2 * fn + fp, 1), 0.0)
    return f.max(axis=-1)


def scores(totals: dict) -> dict[str, np.ndarray]:
    """The metrics of every task in summed stats (any leading shape), in ``tasks.TASKS`` order."""
    found = {}
    for task, spec in TASKS.items():
        if spec.kind == "labels" and f"{task}_confusion" in totals:
            confusion = totals[f"{task}_confusion"]
            hits = np.diagonal(confusion, axis1=-2, axis2=-1)
            union = confusion.sum(-1) + confusion.sum(-2) - hits
            found[spec.metric] = np.nanmean(np.where(union > 0, hits / np.maximum(union, 1), np.nan), axis=-1)
        elif spec.kind == "depth" and "depth_se" in totals:
            found[spec.metric] = np.sqrt(totals["depth_se"] / totals["depth_pixels"])
        elif spec.kind == "binary" and f"{task}_tp" in totals:
            found[spec.metric] = _f_measure(totals, task, BETA2[spec.metric])
        elif spec.kind == "normals" and "normals_angle_sum" in totals:
            found[spec.metric] = totals["normals_angle_sum"] / totals["normals_pixels"]
    return found


def _images(stats: dict) -> int:
    return len(next(iter(stats.values())))


def overall(stats: dict) -> dict[str, float]:
    """The metrics over every image of ``stats``."""
    return {k: float(v) for k, v in scores(weighted(stats, np.ones(_images(stats)))).items()}


def delta_m(values: dict[str, np.ndarray], reference: dict[str, np.ndarray], tasks=None) -> np.ndarray:
    """Multi-task Delta_m in percent of ``values`` against ``reference`` (same metric keys), over ``tasks`` (by
    default every task whose metric both hold)."""
    if tasks is None:
        metrics = [m for m in HIGHER_IS_BETTER if m in values and m in reference]
    else:
        metrics = [METRICS[t] for t in tasks]
    terms = [(1 if HIGHER_IS_BETTER[m] else -1) * (values[m] - reference[m]) / reference[m] for m in metrics]
    return 100 * np.mean(terms, axis=0)


def bootstrap_delta_m(
    stats: dict[str, list[dict]], reference: str, *, resamples: int, seed: int
) -> dict[str, np.ndarray]:
    """Delta_m of every method (``stats``: method -> one stats dict per seed, on the same test images) in
    ``resamples`` draws that resample the test images jointly, every draw averaging all seeds: the images' variance
    alone (the seeds' enters through Student's t, ``common.bootstrap.student_t``; a few seeds are never
    resampled)."""
    from ..common.bootstrap import resample_weights

    weights = resample_weights(_images(next(iter(stats.values()))[0]), resamples, seed)
    metrics = {}
    for method, per_seed in stats.items():
        per = [scores(weighted(s, weights)) for s in per_seed]  # seeds x {metric: [R]}
        metrics[method] = {m: np.stack([p[m] for p in per]).mean(0) for m in per[0]}
    return {method: delta_m(values, metrics[reference]) for method, values in metrics.items()}
