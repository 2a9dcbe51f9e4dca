"""Axis-aligned boxes in subgroup-feature space, stored as ``(2, d)``: row 0 lows, row 1 highs."""

from __future__ import annotations

import numpy as np


def bounding_box(Z: np.ndarray) -> np.ndarray:
    Z = np.atleast_2d(Z)
    return np.vstack([Z.min(axis=0), Z.max(axis=0)])


def inside(Z: np.ndarray, box: np.ndarray) -> np.ndarray:
    return np.all((Z >= box[0]) & (Z <= box[1]), axis=1)


def volume(box: np.ndarray) -> float:
    return float(np.prod(np.clip(box[1] - box[0], 0, None)))


def intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.vstack([np.maximum(a[0], b[0]), np.minimum(a[1], b[1])])


def volume_f1(found: np.ndarray, truth: np.ndarray, domain: np.ndarray) -> float:
    """F1 of volume overlap: precision vol(R^ n R*)/vol(R^), recall vol(R^ n R*)/vol(R*) (within the domain)."""
    found, truth = intersection(found, domain), intersection(truth, domain)
    common = volume(intersection(found, truth))
    if common == 0:
        return 0.0
    precision, recall = common / volume(found), common / volume(truth)
    return 2 * precision * recall / (precision + recall)


def grow(Z: np.ndarray, rejected: np.ndarray, domain: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Grow a box from ``centre`` until each face meets a rejected point (DDGroup's expansion).

    An L-infinity ball grows from the centre in the directions still free; the first rejected point it
    touches fixes the face it touches, and points beyond that face are dropped. Faces never touched stay at
    the domain. A rejected point that no free direction can exclude is ignored.
    """
    P = np.atleast_2d(Z[rejected]) - centre
    box = np.array(domain, dtype=float)
    d = box.shape[1]
    free = np.ones((2, d), dtype=bool)  # row 0: the -x_j face, row 1: the +x_j face
    while P.shape[0] and free.any():
        signed = np.stack([-P, P], axis=1)  # (m, 2, d): how far each free face must move to reach the point
        reach = np.where(free[None] & (signed > 0), signed, -np.inf).reshape(len(P), -1)
        radius = reach.max(axis=1)  # the L-infinity radius at which the growing box touches the point
        excludable = np.isfinite(radius)
        P, reach, radius = P[excludable], reach[excludable], radius[excludable]
        if not P.shape[0]:
            break
        i = int(np.argmin(radius))
        side, j = divmod(int(np.argmax(reach[i])), d)
        box[side, j] = P[i, j] + centre[j]
        free[side, j] = False
        sign = 1 if side else -1
        P = P[sign * P[:, j] < radius[i]]
    return box
