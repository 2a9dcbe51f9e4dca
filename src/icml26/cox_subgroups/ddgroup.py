"""DDGroup for Cox subgroups (the paper's main algorithm) and its three variants.

1. Core group: among the ``floor(p n)``-nearest-neighbour neighbourhoods (in
   subgroup space) of every training point, the one whose Cox fit scores best.
2. Rejection: score every training point against the core's Cox model and
   reject the bottom ``t`` fraction.
3. Expansion: grow a box from the core mean until each face meets a rejected
   point (:func:`boxes.grow`).

Variants (``VARIANTS``): ``dg`` (core by EPE, rejection by CRS tail score),
``dg_ci`` (C-index and a per-point concordance score), ``dg_pl`` (partial
likelihood and a per-point likelihood score), ``dg_ne`` (EPE core, no
rejection or expansion: the core's bounding box). The per-point scores of the
C-index and partial-likelihood variants are ours (see :func:`point_scores`).
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors

from . import boxes, cox, crs, metrics

VARIANTS = ("dg", "dg_ci", "dg_pl", "dg_ne")
CORE_SCORE = {"dg": "epe", "dg_ci": "c_index", "dg_pl": "partial_likelihood", "dg_ne": "epe"}


def model_score(kind: str, data: cox.Survival, beta: np.ndarray) -> float:
    """Lower is better: EPE, minus the C-index, or the mean negative log partial likelihood."""
    if kind == "epe":
        return metrics.epe(data, beta)
    if kind == "c_index":
        return -metrics.c_index(data, beta)
    if kind == "partial_likelihood":
        return metrics.mean_negative_partial_likelihood(data, beta)
    raise ValueError(f"unknown score {kind!r}")


def core_group(data: cox.Survival, Z: np.ndarray, p: float, kind: str, alpha: float) -> np.ndarray:
    """Indices of the best-scoring ``floor(p n)``-NN neighbourhood (rows of the time-sorted data)."""
    k = max(2, int(p * len(data)))
    _, neighbours = NearestNeighbors(n_neighbors=k).fit(Z).kneighbors(Z)
    best, best_score = None, np.inf
    for hood in neighbours:
        hood = np.sort(hood)
        part = data.subset(hood)
        if not part.event.any():
            continue
        score = model_score(kind, part, cox.fit(part, alpha))
        if np.isfinite(score) and score < best_score:
            best, best_score = hood, score
    if best is None:
        raise ValueError("no neighbourhood with an event: cannot choose a core group")
    return best


def point_scores(kind: str, data: cox.Survival, core: cox.Survival, beta: np.ndarray) -> np.ndarray:
    """Per-point conformity to the core's model; low = reject.

    ``epe``: log CRS tail score. ``c_index``: fraction of the point's comparable pairs with core members that
    the model orders correctly. ``partial_likelihood``: for a failure, log of its partial-likelihood factor
    in the core's risk set; for a censored point, log of its Breslow survival to its censoring time.
    """
    if kind == "epe":
        return crs.log_tail_scores(data, core, beta)
    eta_core = core.X @ beta
    a_core = np.exp(eta_core)
    suffix = np.concatenate([np.cumsum(a_core[::-1])[::-1], [0.0]])
    out = np.empty(len(data))
    for i in range(len(data)):
        eta, t, event = float(data.X[i] @ beta), data.time[i], bool(data.event[i])
        m = int(np.searchsorted(core.time, t, side="left"))
        if kind == "c_index":
            before = core.event[:m]
            concordant = np.sum(eta_core[:m][before] > eta)
            comparable = before.sum()
            if event:
                concordant += np.sum(eta_core[m:] <= eta)
                comparable += len(core) - m
            out[i] = concordant / comparable if comparable else 0.0
        elif kind == "partial_likelihood":
            a = np.exp(eta)
            if event:
                out[i] = np.log(a / (a + suffix[m]))
            else:
                fails = np.nonzero(core.event[:m])[0]
                out[i] = -np.sum(a / (a + suffix[fails]))
        else:
            raise ValueError(f"unknown score {kind!r}")
    return out


def candidates(
    variant: str,
    data: cox.Survival,
    Z: np.ndarray,
    domain: np.ndarray,
    *,
    core_sizes: list[float],
    thresholds: list[float],
    alpha: float,
) -> list[dict]:
    """Every box the variant proposes over its grid, with its grid point."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    kind = CORE_SCORE[variant]
    out = []
    for p in core_sizes:
        core_rows = core_group(data, Z, p, kind, alpha)
        if variant == "dg_ne":
            out.append({"box": boxes.bounding_box(Z[core_rows]), "core_size": p, "threshold": float("nan")})
            continue
        core = data.subset(core_rows)
        scores = point_scores(kind, data, core, cox.fit(core, alpha))
        centre = Z[core_rows].mean(axis=0)
        for t in thresholds:
            rejected = scores < np.quantile(scores, t) if t > 0 else np.zeros(len(scores), dtype=bool)
            out.append({"box": boxes.grow(Z, rejected, domain, centre), "core_size": p, "threshold": t})
    return out
