"""The canary sets: three heuristic baselines, IF-Init, and the seeds of the two optimised types.

Types (K canaries each, every canary inserted into a random half of the audited models):

- ``random_in``: candidate images with their true labels (in-distribution);
- ``mislabeled``: candidate images with a wrong label drawn uniformly from the other classes;
- ``ood``: out-of-distribution images, ours: uniform noise pixels with a random label;
- ``ifinit``: the candidates of highest self-influence under a reference model, true labels;
- ``unrolled_random``: unrolled optimisation started from random candidates (no IF-Init);
- ``optifluence``: unrolled optimisation started from IF-Init seeds (the paper's method);
- ``optifluence_k<k>``: the same with another truncation length (the ablation).

All sets are inserted into the same models, so no two types may share a seed image (a duplicate of a
member would leak its membership to the other): the influence-ranked types take the top of the
self-influence ranking in turn (ranks 0, n, 2n, ... for the first of n such types, 1, n+1, ... for the
second), the random types disjoint random draws from the remaining candidates.
"""

from __future__ import annotations

import numpy as np

HEURISTIC = ("random_in", "mislabeled", "ood")
BASE_TYPES = (*HEURISTIC, "ifinit", "unrolled_random", "optifluence")


def ablation_type(truncation: int) -> str:
    return f"optifluence_k{truncation}"


def all_types(ablation: list[int]) -> list[str]:
    return [*BASE_TYPES, *(ablation_type(k) for k in ablation)]


def truncations(truncation: int, ablation: list[int]) -> dict[str, int]:
    """Each optimised type and the truncation length it is optimised with."""
    return {"unrolled_random": truncation, "optifluence": truncation, **{ablation_type(k): k for k in ablation}}


RANDOM_SEEDED = ("random_in", "mislabeled", "unrolled_random")


def influence_ranked(ablation: list[int]) -> list[str]:
    return ["ifinit", "optifluence", *(ablation_type(k) for k in ablation)]


def seeds_needed(per_type: int, ablation: list[int]) -> int:
    """Distinct candidate images the sets take (``ood`` is generated)."""
    return per_type * (len(influence_ranked(ablation)) + len(RANDOM_SEEDED))


def seed_sets(
    cand_x: np.ndarray,
    cand_y: np.ndarray,
    influence: np.ndarray,
    per_type: int,
    ablation: list[int],
    classes: int,
    seed: int,
) -> dict[str, dict[str, np.ndarray]]:
    """``{type: {"x", "y", "source"}}``: canaries of the heuristic types and IF-Init, start points of the
    optimised ones; ``source`` is the candidate index (-1: generated)."""
    rng = np.random.default_rng(seed)
    ranked_types = influence_ranked(ablation)
    needed = seeds_needed(per_type, ablation)
    if needed > len(cand_y):
        raise ValueError(
            f"{needed} distinct seed images needed ({per_type} per type), only {len(cand_y)} candidates "
            f"(raise split.candidates or lower canaries_per_type)"
        )
    ranking = np.argsort(-influence, kind="stable")
    taken = ranking[: per_type * len(ranked_types)]
    picks = {t: taken[i :: len(ranked_types)] for i, t in enumerate(ranked_types)}
    rest = rng.permutation(np.setdiff1d(np.arange(len(cand_y)), taken))
    for i, t in enumerate(RANDOM_SEEDED):
        picks[t] = rest[i * per_type : (i + 1) * per_type]
    sets = {t: {"x": cand_x[idx], "y": cand_y[idx].copy(), "source": idx} for t, idx in picks.items()}
    sets["mislabeled"]["y"] = (sets["mislabeled"]["y"] + rng.integers(1, classes, per_type)) % classes
    sets["ood"] = {
        "x": rng.random((per_type, *cand_x.shape[1:])).astype(np.float32),
        "y": rng.integers(0, classes, per_type),
        "source": np.full(per_type, -1),
    }
    return {t: sets[t] for t in all_types(ablation)}


def membership(models: int, canaries: int, seed: int) -> np.ndarray:
    """Which model trains on which canary (models x canaries): for each canary an independent random half
    of the models (ours: exactly half rather than independent coins, so every canary has M/2 IN and M/2
    OUT models and LiRA's fits never run short)."""
    rng = np.random.default_rng([seed, 1])
    half = np.arange(models) < models // 2
    return np.stack([rng.permutation(half) for _ in range(canaries)], axis=1)
