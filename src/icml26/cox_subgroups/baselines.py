"""Baseline subgroup finders, each proposing candidate boxes in subgroup space.

Base (the whole domain), Random (bounding boxes of ``2 d`` random points),
Survival tree (scikit-survival's log-rank tree; one box per leaf), Cox tree
(greedy splits minimising the size-weighted EPE of the two children's Cox
fits; ours, after the paper's description) and PRIM (peeling ``peel`` of the
rows off one face at a time, keeping the peel whose remaining box has the
lowest EPE, until the support floor). Selection among candidates is common to
all methods (:func:`icml26.cox_subgroups.selection.select`).
"""

from __future__ import annotations

import numpy as np
from sksurv.tree import SurvivalTree
from sksurv.util import Surv

from . import boxes, cox, metrics


def base(domain: np.ndarray) -> list[np.ndarray]:
    return [domain.copy()]


def random_boxes(Z: np.ndarray, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    k = 2 * Z.shape[1]
    return [boxes.bounding_box(Z[rng.choice(len(Z), size=k, replace=False)]) for _ in range(count)]


def _leaf_boxes(tree, domain: np.ndarray) -> list[np.ndarray]:
    """Boxes of the leaves of a fitted sklearn-style tree (``tree_`` arrays)."""
    t = tree.tree_
    out = []

    def walk(node, box):
        if t.children_left[node] == t.children_right[node]:
            out.append(box)
            return
        j, thr = t.feature[node], t.threshold[node]
        left, right = box.copy(), box.copy()
        left[1, j] = min(left[1, j], thr)
        right[0, j] = max(right[0, j], thr)
        walk(t.children_left[node], left)
        walk(t.children_right[node], right)

    walk(0, domain.copy())
    return out


def survival_tree(
    data: cox.Survival, Z: np.ndarray, domain: np.ndarray, *, max_depth: int, min_fraction: float, seed: int
) -> list[np.ndarray]:
    tree = SurvivalTree(max_depth=max_depth, min_samples_leaf=max(2, int(min_fraction * len(data))), random_state=seed)
    tree.fit(Z, Surv.from_arrays(data.event, data.time))
    return _leaf_boxes(tree, domain)


def _epe_in(data: cox.Survival, mask: np.ndarray, alpha: float) -> float:
    part = data.subset(mask)
    if not part.event.any():
        return np.inf
    value = metrics.epe(part, cox.fit(part, alpha))
    return value if np.isfinite(value) else np.inf


def cox_tree(
    data: cox.Survival,
    Z: np.ndarray,
    domain: np.ndarray,
    *,
    max_depth: int,
    min_fraction: float,
    n_thresholds: int,
    alpha: float,
) -> list[np.ndarray]:
    min_rows = max(2, int(min_fraction * len(data)))
    leaves = []

    def split(mask, box, depth):
        best = None
        if depth < max_depth:
            for j in range(Z.shape[1]):
                values = Z[mask, j]
                for thr in np.unique(np.quantile(values, np.linspace(0, 1, n_thresholds + 2)[1:-1])):
                    left = mask & (Z[:, j] <= thr)
                    right = mask & (Z[:, j] > thr)
                    nl, nr = left.sum(), right.sum()
                    if nl < min_rows or nr < min_rows:
                        continue
                    score = (nl * _epe_in(data, left, alpha) + nr * _epe_in(data, right, alpha)) / (nl + nr)
                    if best is None or score < best[0]:
                        best = (score, j, thr, left, right)
        if best is None:
            leaves.append(box)
            return
        _, j, thr, left, right = best
        lbox, rbox = box.copy(), box.copy()
        lbox[1, j], rbox[0, j] = thr, thr
        split(left, lbox, depth + 1)
        split(right, rbox, depth + 1)

    split(np.ones(len(data), dtype=bool), domain.copy(), 0)
    return leaves


def prim(
    data: cox.Survival, Z: np.ndarray, domain: np.ndarray, *, peel: float, min_fraction: float, alpha: float
) -> list[np.ndarray]:
    box, mask = domain.copy(), np.ones(len(data), dtype=bool)
    path = [box.copy()]
    while mask.sum() * (1 - peel) >= min_fraction * len(data):
        best = None
        for j in range(Z.shape[1]):
            values = Z[mask, j]
            for side, cut in ((0, np.quantile(values, peel)), (1, np.quantile(values, 1 - peel))):
                keep = mask & ((Z[:, j] >= cut) if side == 0 else (Z[:, j] <= cut))
                if keep.sum() == mask.sum() or keep.sum() < min_fraction * len(data):
                    continue
                score = _epe_in(data, keep, alpha)
                if best is None or score < best[0]:
                    best = (score, j, side, cut, keep)
        if best is None:
            break
        _, j, side, cut, mask = best
        box[side, j] = cut
        path.append(box.copy())
    return path
