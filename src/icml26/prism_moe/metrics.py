"""Per-task metrics, the multi-task Delta_m and a bootstrap over seeds and test images.

Each test image leaves sufficient statistics (:func:`image_stats`): a segmentation confusion matrix, the depth
squared error, edge true/false positives and false negatives at fixed thresholds, and the summed normal angle
error. Sums of them over any set of images give the dataset metrics (:func:`scores`), so a bootstrap resample is
a weighted sum, not a re-evaluation:

- ``miou``: mean over classes (with a non-empty union) of the confusion-matrix IoU (higher is better);
- ``depth_rmse``: root mean squared depth error per pixel (lower);
- ``edge_f1``: the best F1 over the thresholds ``EDGE_THRESHOLDS`` (pixel-exact, dataset-wide: the ODS
  convention without the usual matching tolerance -- ours) (higher);
- ``normal_angle``: mean angle in degrees between predicted and true normals (lower).

``delta_m`` is the usual multi-task measure ``mean_t s_t (M_t - R_t) / R_t x 100`` (``s_t = +1`` if higher is
better, ``-1`` if lower). The reference ``R`` is ours: the multi-task student trained from scratch on the same
data for as many steps (the paper's single-task baselines are not run here); the comparisons between students do
not depend on the choice beyond the scale of ``R``.
"""

from __future__ import annotations

import numpy as np

TASKS = ("seg", "depth", "edges", "normals")
METRICS = {"seg": "miou", "depth": "depth_rmse", "edges": "edge_f1", "normals": "normal_angle"}
HIGHER_IS_BETTER = {"miou": True, "depth_rmse": False, "edge_f1": True, "normal_angle": False}
EDGE_THRESHOLDS = np.round(np.linspace(0.05, 0.95, 19), 2)


def image_stats(prediction: dict[str, np.ndarray], target: dict[str, np.ndarray], classes: int) -> dict:
    """Per-image sufficient statistics. ``prediction``: ``seg`` labels ``[n, H, W]``, ``depth`` ``[n, H, W]``,
    ``edges`` probabilities ``[n, H, W]``, ``normals`` unit vectors ``[n, 3, H, W]``; ``target`` alike."""
    n = len(target["seg"])
    pairs = target["seg"].reshape(n, -1).astype(np.int64) * classes + prediction["seg"].reshape(n, -1)
    confusion = np.stack([np.bincount(p, minlength=classes * classes) for p in pairs]).reshape(n, classes, classes)
    depth_se = ((prediction["depth"] - target["depth"]).astype(np.float64) ** 2).reshape(n, -1).sum(1)
    edges = prediction["edges"].reshape(n, 1, -1) >= EDGE_THRESHOLDS[None, :, None]
    truth = target["edges"].reshape(n, 1, -1).astype(bool)
    cosine = np.clip((prediction["normals"] * target["normals"]).sum(1), -1, 1).astype(np.float64)
    return {
        "confusion": confusion,
        "depth_se": depth_se,
        "edge_tp": (edges & truth).sum(2),
        "edge_fp": (edges & ~truth).sum(2),
        "edge_fn": (~edges & truth).sum(2),
        "angle_sum": np.degrees(np.arccos(cosine)).reshape(n, -1).sum(1),
        "pixels": np.full(n, target["seg"][0].size),
    }


def weighted(stats: dict, weights: np.ndarray) -> dict:
    """Sums of per-image stats with image weights ``[..., n]`` (ones: the whole set; counts: a resample)."""
    return {k: np.tensordot(weights, v.astype(np.float64), axes=([-1], [0])) for k, v in stats.items()}


def scores(totals: dict) -> dict[str, np.ndarray]:
    """The four metrics from summed stats (any leading shape)."""
    confusion = totals["confusion"]
    hits = np.diagonal(confusion, axis1=-2, axis2=-1)
    union = confusion.sum(-1) + confusion.sum(-2) - hits
    iou = np.where(union > 0, hits / np.maximum(union, 1), np.nan)
    tp, fp, fn = totals["edge_tp"], totals["edge_fp"], totals["edge_fn"]
    f1 = np.where(tp > 0, 2 * tp / np.maximum(2 * tp + fp + fn, 1), 0.0)
    return {
        "miou": np.nanmean(iou, axis=-1),
        "depth_rmse": np.sqrt(totals["depth_se"] / totals["pixels"]),
        "edge_f1": f1.max(axis=-1),
        "normal_angle": totals["angle_sum"] / totals["pixels"],
    }


def overall(stats: dict) -> dict[str, float]:
    """The four metrics over every image of ``stats``."""
    return {k: float(v) for k, v in scores(weighted(stats, np.ones(len(stats["pixels"])))).items()}


def delta_m(
    values: dict[str, np.ndarray], reference: dict[str, np.ndarray], tasks: tuple[str, ...] = TASKS
) -> np.ndarray:
    """Multi-task Delta_m in percent of ``values`` against ``reference`` (same metric keys), over ``tasks``."""
    terms = [
        (1 if HIGHER_IS_BETTER[m] else -1) * (values[m] - reference[m]) / reference[m]
        for m in (METRICS[t] for t in tasks)
    ]
    return 100 * np.mean(terms, axis=0)


def bootstrap_delta_m(
    stats: dict[str, list[dict]], reference: str, *, resamples: int, seed: int
) -> dict[str, np.ndarray]:
    """Delta_m of every method (``stats``: method -> one stats dict per seed, on the same test images) in
    ``resamples`` draws that resample the test images jointly, every draw averaging all seeds: the images' variance
    alone (the seeds' enters through Student's t, ``common.bootstrap.student_t``; a few seeds are never
    resampled)."""
    rng = np.random.default_rng(seed)
    n = len(next(iter(stats.values()))[0]["pixels"])
    images = rng.integers(n, size=(resamples, n))
    weights = np.stack([np.bincount(row, minlength=n) for row in images]).astype(np.float64)
    metrics = {}
    for method, per_seed in stats.items():
        per = [scores(weighted(s, weights)) for s in per_seed]  # seeds x {metric: [R]}
        metrics[method] = {m: np.stack([p[m] for p in per]).mean(0) for m in HIGHER_IS_BETTER}
    return {method: delta_m(values, metrics[reference]) for method, values in metrics.items()}
