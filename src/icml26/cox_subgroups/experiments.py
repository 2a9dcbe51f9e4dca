"""One run: every method proposes boxes on a training split, one is selected and scored on the test split."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from . import baselines, ddgroup, selection

METHODS = ("base", "random", "survival_tree", "cox_tree", "prim", "dg", "dg_ci", "dg_pl", "dg_ne")


def propose(method: str, train: selection.Rows, domain: np.ndarray, settings: dict, seed: int) -> list[np.ndarray]:
    alpha, floor = settings["cox_alpha"], settings["min_fraction"]
    if method == "base":
        return baselines.base(domain)
    if method == "random":
        return baselines.random_boxes(train.Z, settings["random_boxes"], np.random.default_rng([seed, 7]))
    if method == "survival_tree":
        return baselines.survival_tree(
            train.data, train.Z, domain, max_depth=settings["tree_depth"], min_fraction=floor, seed=seed
        )
    if method == "cox_tree":
        return baselines.cox_tree(
            train.data,
            train.Z,
            domain,
            max_depth=settings["tree_depth"],
            min_fraction=floor,
            n_thresholds=settings["tree_thresholds"],
            alpha=alpha,
        )
    if method == "prim":
        return baselines.prim(train.data, train.Z, domain, peel=settings["prim_peel"], min_fraction=floor, alpha=alpha)
    if method in ddgroup.VARIANTS:
        grid = settings["thresholds"]
        thresholds = list(np.linspace(grid["low"], grid["high"], grid["points"]))
        return [
            c["box"]
            for c in ddgroup.candidates(
                method,
                train.data,
                train.Z,
                domain,
                core_sizes=settings["core_sizes"],
                thresholds=thresholds,
                alpha=alpha,
            )
        ]
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def run(
    train: selection.Rows,
    test: selection.Rows,
    domain: np.ndarray,
    truth: np.ndarray | None,
    *,
    methods: list[str],
    settings: dict,
    seed: int,
    z_scale: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows of (method, selected box, scores, best F1 over its candidates) and, separately, each method's
    seconds (they vary run to run).

    ``z_scale = (mean, std)`` reports boxes of standardised subgroup features in original units.
    """
    centre, spread = z_scale if z_scale is not None else (0.0, 1.0)
    rows, timing = [], []
    for method in methods:
        start = time.perf_counter()
        candidates = propose(method, train, domain, settings, seed)
        chosen = selection.select(
            candidates, train, domain, min_fraction=settings["min_fraction"], alpha=settings["cox_alpha"]
        )
        seconds = time.perf_counter() - start
        scores = selection.evaluate(chosen, test, domain, truth)
        scores["best_f1"] = selection.best_f1(candidates, domain, truth)
        box = chosen.box * spread + centre
        rows.append(
            {
                "method": method,
                "candidates": len(candidates),
                **scores,
                "box_low": ";".join(f"{v:.6g}" for v in box[0]),
                "box_high": ";".join(f"{v:.6g}" for v in box[1]),
            }
        )
        timing.append({"method": method, "seconds": seconds})
        print(
            f"  {method}: F1 {scores['f1']:.3f} test EPE {scores['test_epe']:.3f} "
            f"support {scores['test_support']:.2f} ({seconds:.1f} s)",
            flush=True,
        )
    return pd.DataFrame(rows), pd.DataFrame(timing)
