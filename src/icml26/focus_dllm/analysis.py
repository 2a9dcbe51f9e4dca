"""Does attention importance predict which tokens get decoded? The spec's correlation analysis on the steps a
dense decoder observed (:func:`.decoding.decode` with ``observe``): Spearman's rho of ``Δ`` with confidence,
the AUROC of ``Δ`` for "decoded this step", and for each selector the recall of the decoded tokens within the
``K`` it retains (``K`` as FOCUS sets it with ``alpha``). scipy and scikit-learn compute the statistics.

Selectors: ``delta`` (FOCUS), ``i0``, ``i1``, ``minus_delta``, ``leftmost`` (the first K masked positions),
``random`` (K drawn with a seeded generator), ``oracle`` (the K most confident: what a perfect predictor of the
decoder's choice would keep). Ours: pooled over every sequence and step with at least two masked tokens (a step
with one masked token decodes it whatever the selector). The decoded fraction (the share of masked tokens a step
decodes) counts, in those steps, only the answer's own positions when a step says which they are (``answer``,
from :func:`mark_answers`): the ``<eos>`` padding after a short answer is decoded en masse and would inflate it.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import spearmanr
from sklearn.metrics import roc_auc_score

from .selection import retain_target

SELECTORS = ("delta", "i0", "i1", "minus_delta", "leftmost", "random", "oracle")


def _scores(step: dict, selector: str, rng: np.random.Generator) -> np.ndarray:
    i0, i1 = np.asarray(step["i0"]), np.asarray(step["i1"])
    n = len(i0)
    return {
        "delta": lambda: i1 - i0,
        "i0": lambda: i0,
        "i1": lambda: i1,
        "minus_delta": lambda: i0 - i1,
        "leftmost": lambda: -np.arange(n, dtype=float),
        "random": lambda: rng.random(n),
        "oracle": lambda: np.asarray(step["confidence"]),
    }[selector]()


def recall(steps: list[dict], selector: str, alpha: float, seed: int = 0) -> float:
    """Decoded tokens found among the K each step's selector keeps, over all decoded tokens."""
    rng = np.random.default_rng(seed)
    found = total = 0
    for step in steps:
        decoded = np.asarray(step["decoded"], dtype=bool)
        if len(decoded) < 2:
            continue
        k = retain_target(len(decoded), step["mean_decoded"], alpha)
        scores = _scores(step, selector, rng)
        kept = np.argsort(-scores, kind="stable")[:k]
        found += int(decoded[kept].sum())
        total += int(decoded.sum())
    return found / total if total else float("nan")


def mark_answers(steps: list[dict], answer_lengths: list[int], block_size: int) -> list[dict]:
    """Each observed step with ``answer``: per masked token, whether its position lies inside its sequence's answer
    (``answer_lengths[sequence]`` tokens; later positions are ``<eos>`` padding)."""
    return [
        s | {"answer": [s["block"] * block_size + p < answer_lengths[s["sequence"]] for p in s["position"]]}
        for s in steps
    ]


def decoded_fraction(steps: list[dict]) -> float:
    """Mean over steps with at least two masked tokens of the share of their masked answer tokens decoded."""
    shares = []
    for step in steps:
        if len(step["decoded"]) < 2:
            continue
        decoded = np.asarray(step["decoded"], dtype=bool)
        answer = np.asarray(step.get("answer", [True] * len(decoded)), dtype=bool)
        if answer.any():
            shares.append(decoded[answer].mean())
    return float(np.mean(shares)) if shares else float("nan")


def correlation(steps: list[dict]) -> dict:
    """Spearman's rho of Δ with confidence and the AUROC of Δ for "decoded this step", pooled, with the
    fraction of masked answer tokens decoded per step (:func:`decoded_fraction`)."""
    rows = [s for s in steps if len(s["decoded"]) >= 2]
    delta = np.concatenate([np.asarray(s["i1"]) - np.asarray(s["i0"]) for s in rows])
    confidence = np.concatenate([s["confidence"] for s in rows])
    decoded = np.concatenate([s["decoded"] for s in rows]).astype(bool)
    both = decoded.any() and not decoded.all()
    return {
        "spearman_delta_confidence": float(spearmanr(delta, confidence).statistic),
        "auroc_delta_decoded": float(roc_auc_score(decoded, delta)) if both else float("nan"),
        "decoded_fraction": decoded_fraction(steps),
        "tokens": int(len(delta)),
    }
