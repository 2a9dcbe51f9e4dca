"""Choosing one box among a method's candidates, and scoring it on held-out rows.

Selection (the spec's, common to every method): among candidate boxes holding
at least ``floor(min_fraction n)`` training rows (the size of a core of the same fraction), the one whose
Cox refit has the lowest training EPE. If no candidate is large enough the method reports no
region (``qualified = False``) and is scored on the whole domain.
Evaluation: the training-fitted Cox model inside the box, on the test rows
inside the box: EPE and C-index; volume F1 against a planted box when known.
The paper's Synth-Counter table instead reports, per replicate, the best volume F1
among a method's candidates (:func:`best_f1`): an oracle that selects with the
planted box, since the minimum-EPE rule returns the whole interval there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import boxes, cox, metrics


@dataclass(frozen=True)
class Rows:
    """Survival rows sorted by time with their subgroup features ``Z`` in the same order."""

    data: cox.Survival
    Z: np.ndarray

    @classmethod
    def build(cls, X, Z, time, event) -> Rows:
        order = np.argsort(np.asarray(time, dtype=float), kind="stable")
        Z = np.asarray(Z, dtype=float)
        Z = Z[:, None] if Z.ndim == 1 else Z
        X = np.asarray(X, dtype=float)
        X = X[:, None] if X.ndim == 1 else X
        return cls(
            cox.Survival(X[order], np.asarray(time, dtype=float)[order], np.asarray(event, dtype=bool)[order]), Z[order]
        )

    def __len__(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Selected:
    box: np.ndarray
    beta: np.ndarray
    train_epe: float
    qualified: bool


def select(
    candidates: list[np.ndarray], train: Rows, domain: np.ndarray, *, min_fraction: float, alpha: float
) -> Selected:
    best = None
    for box in candidates:
        mask = boxes.inside(train.Z, box)
        if mask.sum() < int(min_fraction * len(train)):
            continue
        part = train.data.subset(mask)
        if not part.event.any():
            continue
        beta = cox.fit(part, alpha)
        value = metrics.epe(part, beta)
        if np.isfinite(value) and (best is None or value < best.train_epe):
            best = Selected(box, beta, value, True)
    if best is None:
        beta = cox.fit(train.data, alpha)
        return Selected(domain.copy(), beta, metrics.epe(train.data, beta), False)
    return best


def evaluate(selected: Selected, test: Rows, domain: np.ndarray, truth: np.ndarray | None) -> dict:
    mask = boxes.inside(test.Z, selected.box)
    part = test.data.subset(mask)
    return {
        "qualified": selected.qualified,
        "train_epe": selected.train_epe,
        "test_epe": metrics.epe(part, selected.beta) if len(part) > 1 else float("nan"),
        "test_c_index": metrics.c_index(part, selected.beta),
        "test_support": float(mask.mean()),
        "f1": boxes.volume_f1(selected.box, truth, domain) if truth is not None else float("nan"),
    }


def best_f1(candidates: list[np.ndarray], domain: np.ndarray, truth: np.ndarray | None) -> float:
    """The highest volume F1 against ``truth`` among all candidates, whatever their size (the paper's
    selection for Synth-Counter, §7.1); ``nan`` without a planted box."""
    if truth is None or not candidates:
        return float("nan")
    return max(boxes.volume_f1(box, truth, domain) for box in candidates)
