"""Rule functions of the optifluence pipeline: paths and plain parameters in, files out.

DAG: seeds (split, reference model, self-influence, heuristic canaries) -> optimise_{type} (unrolled
canaries) -> audit_{architecture} (models with the canaries, scores) -> tables (LiRA) -> figures,
verdict; timing (vmap vs a loop, seconds per optimisation step) beside.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_npz, write_csv, write_json, write_npz
from .data import classes


def _architecture(spec: dict):
    from .models import Architecture

    return Architecture(
        spec["name"], spec["kind"], spec["size"], tuple(spec.get("blocks", (3, 4, 6, 3))), spec.get("widen", 1)
    )


def _training(spec: dict):
    from .models import Training

    return Training(**spec)


def seeds(
    sources: list[str],
    images: str,
    seed_sets: str,
    influence_table: str,
    *,
    dataset: str,
    pool: int,
    split: dict,
    architecture: dict,
    training: dict,
    damping: float,
    canaries_per_type: int,
    ablation: list[int],
    seed: int,
    device: str = "cpu",
) -> None:
    """Split the images, train the reference model of the target architecture on the base pool, score every
    candidate's self-influence, and draw the canary sets (final for the heuristic types and IF-Init,
    start points for the optimised ones)."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import canaries, data, influence

    seed_everything(seed)
    pixels, labels = data.load(dataset, sources)
    where = f" from {Path(sources[0]).parent}" if sources else ""
    print(f"{dataset}: {len(labels)} images of {' x '.join(map(str, pixels.shape[1:]))}{where}", flush=True)
    parts = data.split(
        data.pool(pixels, pool), labels, split["base"], split["candidates"], split["seed"], split["test"]
    )
    n_classes = classes(parts)
    scores, accuracy = influence.candidate_influence(
        _architecture(architecture),
        n_classes,
        parts["base_x"],
        parts["base_y"],
        parts["cand_x"],
        parts["cand_y"],
        _training(training),
        damping,
        seed,
        resolve_device(device),
    )
    print(
        f"reference model: training accuracy {accuracy:.3f}; self-influence median {np.median(scores):.3g}, "
        f"max {scores.max():.3g}",
        flush=True,
    )
    sets = canaries.seed_sets(parts["cand_x"], parts["cand_y"], scores, canaries_per_type, ablation, n_classes, seed)
    write_npz(images, **parts)
    write_npz(seed_sets, **{f"{key}/{kind}": value for kind, s in sets.items() for key, value in s.items()})
    chosen = {int(i): kind for kind, s in sets.items() for i in s["source"] if i >= 0}
    write_csv(
        influence_table,
        pd.DataFrame(
            {
                "candidate": np.arange(len(scores)),
                "label": parts["cand_y"],
                "self_influence": scores,
                "rank": np.argsort(np.argsort(-scores, kind="stable"), kind="stable"),
                "canary_type": [chosen.get(i, "") for i in range(len(scores))],
            }
        ).sort_values("rank"),
    )


def optimise(
    images: str,
    seed_sets: str,
    canaries: str,
    trace: str,
    timing: str,
    *,
    kind: str,
    truncation: int,
    architecture: dict,
    training: dict,
    unrolling: dict,
    seed: int,
    device: str = "cpu",
) -> None:
    """Unrolled optimisation of one canary set from its seeds (random candidates or IF-Init)."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from .unroll import Unrolling, optimise

    seed_everything(seed)
    parts, sets = read_npz(images), read_npz(seed_sets, f"x/{kind}", f"y/{kind}")
    settings = Unrolling(**{**unrolling, "truncation": truncation})
    x, rows, seconds = optimise(
        sets[f"x/{kind}"],
        sets[f"y/{kind}"],
        parts["base_x"],
        parts["base_y"],
        _architecture(architecture),
        classes(parts),
        _training(training),
        settings,
        seed,
        name=kind,
        device=resolve_device(device),
    )
    write_npz(canaries, x=x.astype(np.float32), y=sets[f"y/{kind}"])
    write_csv(trace, pd.DataFrame(rows).assign(type=kind, truncation=truncation))
    write_csv(
        timing, pd.DataFrame({"type": kind, "truncation": truncation, "step": range(len(seconds)), "seconds": seconds})
    )


def audit(
    images: str,
    seed_sets: str,
    optimised: list[str],
    scores: str,
    *,
    architecture: dict,
    training: dict,
    types: list[str],
    audit: dict,
    seed: int,
    device: str = "cpu",
) -> None:
    """Train the audit's models of one architecture with every canary inserted at random; score them."""
    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from .audit import audit as run_audit
    from .canaries import membership

    seed_everything(seed)
    parts, sets = read_npz(images), read_npz(seed_sets)
    found = {p.rsplit("/", 1)[-1].removesuffix(".npz"): read_npz(p, "x", "y") for p in optimised}
    xs, ys, kinds = [], [], []
    for kind in types:
        x, y = (found[kind]["x"], found[kind]["y"]) if kind in found else (sets[f"x/{kind}"], sets[f"y/{kind}"])
        xs.append(x)
        ys.append(y)
        kinds += [kind] * len(y)
    canary_x, canary_y = np.concatenate(xs).astype(np.float32), np.concatenate(ys)
    member = membership(audit["models"], len(canary_y), audit["seed"])
    out = run_audit(
        _architecture(architecture),
        classes(parts),
        parts["base_x"],
        parts["base_y"],
        canary_x,
        canary_y,
        member,
        parts["test_x"],
        parts["test_y"],
        _training(training),
        audit["base_fraction"],
        audit["seed"],
        architecture.get("chunk") or audit["chunk"],
        resolve_device(device),
    )
    write_npz(scores, member=member, types=np.array(kinds), **out)


def tables(
    scores: list[str],
    tpr_table: str,
    roc_table: str,
    accuracy_table: str,
    ablation_table: str,
    *,
    architectures: list[str],
    target: str,
    truncation: int,
    ablation: list[int],
    fpr: float,
) -> None:
    """LiRA on every audit: TPR at the operating FPR (with a bootstrap interval) and AUC per canary type
    and architecture, ROC points, model accuracy, and the truncation ablation."""
    from . import tables as build

    rows, roc, acc = [], [], []
    for arch, path in zip(architectures, scores):
        run = read_npz(path)
        more, points = build.per_type(arch, run["scores"], run["member"], run["types"], fpr)
        rows += more
        roc += points
        acc.append(build.accuracy(arch, run["test_accuracy"], run["train_accuracy"]))
        print(f"{arch}: " + ", ".join(f"{r['type']} {r['tpr']:.3f}" for r in more), flush=True)
    tpr = pd.DataFrame(rows)
    write_csv(tpr_table, tpr)
    write_csv(roc_table, pd.DataFrame(roc))
    write_csv(accuracy_table, pd.DataFrame(acc))
    write_csv(ablation_table, build.ablation(tpr, target, truncation, ablation))


def timing(
    images: str,
    steps: list[str],
    vmap_table: str,
    step_table: str,
    machine: str,
    *,
    architecture: dict,
    training: dict,
    timing: dict,
    device: str = "cpu",
) -> None:
    """Models trained per second with batched weights (vmap) and with a Python loop over the same models,
    interleaved repeats and medians (docs/ARCHITECTURE.md, "Measured outputs"); seconds per canary
    optimisation step, from the optimisation jobs."""
    import torch

    from ..common.device import resolve_device
    from ..common.timing import interleaved, medians, write_machine
    from .models import population, schedule, train, train_one_by_one

    device = resolve_device(device)
    parts = read_npz(images, "base_x", "base_y", "classes")
    arch, settings = _architecture(architecture), _training({**training, "steps": timing["steps"]})
    x, y = torch.tensor(parts["base_x"], device=device), torch.tensor(parts["base_y"], device=device)
    weights = torch.ones(timing["models"], len(x), device=device)
    skeleton, params = population(arch, x.shape[1:], classes(parts), list(range(timing["models"])), device)
    order = schedule(len(x), settings, 0)

    def synced(run):  # a GPU's queued work belongs to the call that queued it
        return lambda: (run(), torch.cuda.synchronize() if device == "cuda" else None)

    seconds = medians(
        interleaved(
            {
                "vmap": synced(lambda: train(skeleton, params, x, y, weights, settings, order=order)),
                "loop": synced(lambda: train_one_by_one(skeleton, params, x, y, weights, settings, order)),
            },
            timing["repeats"],
        )
    )
    write_csv(
        vmap_table,
        pd.DataFrame(
            [
                {
                    "method": name,
                    "models": timing["models"],
                    "steps": timing["steps"],
                    "seconds": s,
                    "models_per_second": timing["models"] / s,
                    "speedup_over_loop": seconds["loop"] / s,
                }
                for name, s in seconds.items()
            ]
        ),
    )
    per_step = read_csvs(steps)
    summary = (
        per_step.groupby(["type", "truncation"], sort=False)["seconds"]
        .agg(median="median", p95=lambda s: float(np.quantile(s, 0.95)), steps="count")
        .reset_index()
    )
    write_csv(step_table, summary)
    write_machine(machine)
    print(
        f"vmap {seconds['loop'] / seconds['vmap']:.1f}x faster than a loop over {timing['models']} models", flush=True
    )


def figures(
    roc_table: str,
    tpr_table: str,
    accuracy_table: str,
    ablation_table: str,
    traces: list[str],
    *,
    target: str,
    architectures: list[str],
    fpr: float,
    **outputs: str,
) -> None:
    """LiRA's ROC per canary type on the target architecture (roc), TPR at the operating FPR per canary
    type and architecture (transfer), TPR against the truncation length with the optimisation traces
    (ablation), and the optifluence objective against outer steps with the convergence premise's windows
    (convergence)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    tpr = read_csv(tpr_table)
    with figure_set(outputs) as paths:
        save_figure(plots.roc(read_csv(roc_table), tpr, target, fpr), *paths("roc"))
        save_figure(plots.transfer(tpr, read_csv(accuracy_table), architectures, fpr), *paths("transfer"))
        objective = read_csvs(traces)
        save_figure(plots.ablation(read_csv(ablation_table), objective, fpr), *paths("ablation"))
        save_figure(plots.convergence_curve(objective), *paths("convergence"))


def verdict(
    tpr_table: str,
    accuracy_table: str,
    trace: str,
    claims: str,
    metrics: str,
    *,
    target: str,
    transfer: list[str],
    fpr: float,
    substitution: str,
) -> None:
    """Judge the spec's claims (``trace``: the optifluence type's objective per outer step, for the convergence
    premise) and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    tpr, objective = read_csv(tpr_table), read_csv(trace)
    judged = [
        verdicts.beats_heuristics(tpr, target, fpr, objective),
        verdicts.times_in_distribution(tpr, target, fpr),
        verdicts.transfers(tpr, transfer, fpr, objective),
    ]
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.headline}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    accuracy = read_csv(accuracy_table)
    write_json(
        metrics,
        {
            "tpr_at_fpr": {f"{r.architecture}/{r.type}": r.tpr for r in tpr.itertuples()},
            "auc": {f"{r.architecture}/{r.type}": r.auc for r in tpr.itertuples()},
            "test_accuracy": {r.architecture: r.test_accuracy for r in accuracy.itertuples()},
            "fpr": fpr,
        },
    )
