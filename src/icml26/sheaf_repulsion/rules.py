"""Rule functions of the sheaf_repulsion pipeline: paths and plain parameters in, files out.

DAG: model (trained from scratch, or the user's checkpoint at paper scale) -> discover_{oasr,independent}
-> baselines (EAP at the OASR circuits' mean size, ACDC-lite) and minimal (3-edge search, indispensability)
-> tables -> figures, verdict; timing (what each method costs) beside. The model is stored as an npz of
its state dict (byte-stable, unlike a pickle); held-out sentences come from ``seed + 1`` so they are the
same in every job.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_npz, write_csv, write_json, write_npz


def _architecture(spec: dict, names: int):
    from .train import Architecture

    return Architecture(names=names, **spec)


def _held_out(size: int, language, seed: int):
    from .data import ioi

    return ioi(size, language, np.random.default_rng(seed + 1))


def _objective(spec: dict):
    from .discover import Objective

    return Objective(**spec)


def load_model(path: str, architecture: dict, names: int, device: str = "cpu"):
    """The model from an npz of its state dict (ours, the user's checkpoint of this architecture, or a converted
    GPT-2, whose sizes the npz itself gives) on ``device`` (a config value: auto | cpu | cuda), and the IOI
    language it reads (stored beside a GPT-2's weights; ours from ``names`` otherwise). One clear error naming
    the file when it does not match the configured architecture."""
    import torch

    from ..common.device import resolve_device
    from .data import Language
    from .model import EdgeTransformer

    try:
        arrays = read_npz(path)
        state = {k: torch.from_numpy(v) for k, v in arrays.items() if not k.startswith("ioi.")}
        if "b_out.0" in state:  # a GPT-2 read from its Hugging Face folder by the model rule
            net, language = EdgeTransformer.from_state(state), Language.from_arrays(arrays)
        else:
            net, language = _architecture(architecture, names).build(), Language.ours(names)
            net.load_state_dict(state)
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        summary = " ".join(str(error).split())[:300]
        raise ValueError(f"{path}: not a state dict of the configured {architecture} model ({summary})") from None
    net.eval()
    return net.to(resolve_device(device)), language


def model(
    checkpoint: list[str],
    weights: str,
    training_table: str,
    *,
    names: int,
    architecture: dict,
    training: dict,
    held_out: int,
    seed: int,
    device: str,
) -> None:
    """Train the IOI model from scratch (``checkpoint`` empty), or take the user's checkpoint and only measure it:
    an npz state dict of the configured architecture, or a Hugging Face GPT-2 folder (the paper's model,
    :mod:`.gpt2`), stored converted with the IOI language of its tokenizer beside the weights."""
    from pathlib import Path

    from ..common.device import resolve_device
    from .data import Language
    from .train import accuracy, train

    language = Language.ours(names)
    if checkpoint and Path(checkpoint[0]).is_dir():
        from .gpt2 import edge_model

        net, language = edge_model(checkpoint[0])
        net = net.to(resolve_device(device))
    elif checkpoint:
        net, language = load_model(checkpoint[0], architecture, names, device)
    held = _held_out(held_out, language, seed)
    if checkpoint:
        curve = [{"step": 0, "loss": float("nan"), "accuracy": accuracy(net, held)}]
        print(f"{checkpoint[0]}: held-out accuracy {curve[0]['accuracy']:.3f}", flush=True)
    else:
        net, curve = train(
            _architecture(architecture, names), held_out=held, seed=seed, device=resolve_device(device), **training
        )
    stored = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    write_npz(weights, **stored, **(language.arrays() if net.b_out is not None else {}))
    write_csv(training_table, pd.DataFrame(curve, columns=["step", "loss", "accuracy"]))


def discover(
    weights: str,
    circuits: str,
    curve: str,
    timing: str,
    *,
    method: str,
    names: int,
    architecture: dict,
    discovery: dict,
    runs: int,
    held_out: int,
    curve_every: int,
    seed: int,
    device: str,
) -> None:
    """``runs`` discovery runs of ``method``: OASR (each repelled from the earlier circuits) or independent
    seeds (``discovery["overlap"]`` = 0); ``curve``: every ``curve_every`` steps, the metrics on the held-out
    sentences of the circuit each run keeps then; each run's seconds go to ``timing``."""
    from .discover import repelled_runs

    net, language = load_model(weights, architecture, names, device)
    held = _held_out(held_out, language, seed)
    found = repelled_runs(
        net, _objective(discovery), runs=runs, language=language, seed=seed, every=curve_every, held_out=held
    )
    write_npz(circuits, edges=np.stack([c.edges for c in found]), logits=np.stack([c.logits for c in found]))
    points = [{"method": method, "run": k, **row} for k, c in enumerate(found) for row in c.curve]
    write_csv(curve, pd.DataFrame(points))
    write_csv(
        timing,
        pd.DataFrame(
            {"method": method, "run": range(runs), "steps": discovery["steps"], "seconds": [c.seconds for c in found]}
        ),
    )


def baselines(
    weights: str,
    oasr: str,
    circuits: str,
    timing: str,
    *,
    names: int,
    architecture: dict,
    held_out: int,
    acdc_threshold: float,
    acdc_sentences: int,
    seed: int,
    device: str,
) -> None:
    """Attribution patching's top edges (as many as the OASR circuits' mean size, finalised) and ACDC-lite
    (on the first ``acdc_sentences`` held-out sentences: one forward pass per edge); the seconds of each
    go to ``timing``."""
    import time

    from .metrics import acdc_lite, attribution_scores, top_edges

    net, language = load_model(weights, architecture, names, device)
    held = _held_out(held_out, language, seed)
    size = round(float(read_npz(oasr, "edges")["edges"].sum(axis=1).mean()))
    start = time.perf_counter()
    scores = attribution_scores(net, held)
    eap = net.graph.finalise(top_edges(scores, size))
    middle = time.perf_counter()
    acdc = acdc_lite(net, held.first(acdc_sentences), acdc_threshold)
    end = time.perf_counter()
    print(
        f"EAP: {int(eap.sum())} edges (top {size}, finalised), {middle - start:.2f} s; "
        f"ACDC-lite: {int(acdc.sum())} edges, {end - middle:.1f} s",
        flush=True,
    )
    write_npz(circuits, edges=np.stack([eap, acdc]), scores=scores)
    write_csv(
        timing,
        pd.DataFrame(
            {
                "method": ["eap", "acdc"],
                "sentences": [held_out, acdc_sentences],
                "seconds": [middle - start, end - middle],
            }
        ),
    )


def minimal(
    weights: str,
    minimal_table: str,
    *,
    names: int,
    architecture: dict,
    held_out: int,
    size: int,
    candidates: int,
    tolerance: float,
    seed: int,
    device: str,
) -> None:
    """The best closed ``size``-edge circuit among the ``candidates`` edges with the largest attribution
    scores, and the best circuit of that size without each of its edges."""
    from .metrics import attribution_scores, top_edges
    from .minimal import closed_circuits, indispensable_edges
    from .tables import minimal_table as table

    net, language = load_model(weights, architecture, names, device)
    held = _held_out(held_out, language, seed)
    pool = top_edges(attribution_scores(net, held), candidates)
    found = closed_circuits(net, held, pool, size)
    if not found:
        print(f"no closed {size}-edge circuit among the top {candidates} edges", flush=True)
        write_csv(minimal_table, table(net.graph, (), 0.0, {}))
        return
    accuracy, best = found[0]
    without = indispensable_edges(net, held, best, pool, accuracy, tolerance)
    print(f"best {size}-edge circuit: {[net.graph.edges[e].name for e in best]}, accuracy {accuracy:.3f}", flush=True)
    write_csv(minimal_table, table(net.graph, best, accuracy, without))


def tables(
    weights: str,
    oasr: str,
    independent: str,
    baseline: str,
    curves: list[str],
    circuits_table: str,
    overlap_table: str,
    discovery_table: str,
    *,
    names: int,
    architecture: dict,
    held_out: int,
    criteria: dict,
    seed: int,
    device: str,
) -> None:
    """Every circuit's metrics on the held-out sentences, the pairwise overlap of each method's runs, and the
    discovery curves of both methods in one table."""
    from .metrics import circuit_metrics
    from .tables import circuit_table
    from .tables import overlap_table as overlaps

    net, language = load_model(weights, architecture, names, device)
    held = _held_out(held_out, language, seed)
    found = {
        method: list(read_npz(path, "edges")["edges"])
        for method, path in (("oasr", oasr), ("independent", independent))
    }
    eap, acdc = read_npz(baseline, "edges")["edges"]
    found |= {"eap": [eap], "acdc": [acdc]}
    write_csv(
        circuits_table,
        pd.concat(
            [circuit_table(m, [circuit_metrics(net, held, c) for c in cs], criteria) for m, cs in found.items()],
            ignore_index=True,
        ),
    )
    write_csv(overlap_table, pd.concat([overlaps(m, found[m]) for m in ("oasr", "independent")], ignore_index=True))
    write_csv(discovery_table, read_csvs(curves))


def timing(
    weights: str,
    discovery: list[str],
    baselines: str,
    cost_table: str,
    machine: str,
    *,
    names: int,
    architecture: dict,
    batch_size: int,
    repeats: int,
    seed: int,
    device: str,
) -> None:
    """What each method costs: seconds per discovery run (from the discovery jobs) and per step, per
    forward pass with and without an edge mask (interleaved repeats, medians; docs/ARCHITECTURE.md,
    "Measured outputs"), and one EAP ranking and one ACDC-lite run (from the baselines job)."""
    import torch

    from ..common.timing import interleaved, medians, write_machine
    from .data import ioi
    from .train import tensors

    net, language = load_model(weights, architecture, names, device)
    tokens, _, _ = tensors(ioi(batch_size, language, np.random.default_rng(seed)), net.device)
    mask = (torch.rand(len(net.graph), generator=torch.Generator().manual_seed(seed)) < 0.5).float().to(net.device)

    def timed(*args):
        def run():
            net(*args)
            if net.device.type == "cuda":
                torch.cuda.synchronize()

        return run

    with torch.no_grad():
        seconds = medians(
            interleaved({"forward pass": timed(tokens), "forward pass with a mask": timed(tokens, mask)}, repeats)
        )
    rows = [{"what": name, "sentences": batch_size, "seconds": s} for name, s in seconds.items()]
    runs = read_csvs(discovery)
    for method, group in runs.groupby("method", sort=False):
        rows.append(
            {
                "what": f"{method} discovery run",
                "sentences": batch_size * int(group["steps"].iloc[0]),
                "seconds": float(group["seconds"].median()),
            }
        )
        rows.append(
            {
                "what": f"{method} discovery step",
                "sentences": batch_size,
                "seconds": float((group["seconds"] / group["steps"]).median()),
            }
        )
    label = {"eap": "EAP ranking", "acdc": "ACDC-lite run"}
    rows += [
        {"what": label[r.method], "sentences": r.sentences, "seconds": r.seconds}
        for r in read_csv(baselines).itertuples()
    ]
    write_csv(cost_table, pd.DataFrame(rows, columns=["what", "sentences", "seconds"]))
    write_machine(machine)
    print(
        f"forward pass {seconds['forward pass'] * 1e3:.1f} ms, with a mask "
        f"{seconds['forward pass with a mask'] * 1e3:.1f} ms "
        f"({batch_size} sentences)",
        flush=True,
    )


def figures(
    circuits_table: str,
    overlap_table: str,
    minimal_table: str,
    discovery_table: str,
    *,
    criteria: dict,
    complete_from: float,
    **outputs: str,
) -> None:
    from ..common.figures import figure_set, save_figure
    from . import plots

    table, overlap, minimal_rows = read_csv(circuits_table), read_csv(overlap_table), read_csv(minimal_table)
    with figure_set(outputs) as paths:
        save_figure(plots.discovery(read_csv(discovery_table), criteria, complete_from), *paths("discovery"))
        save_figure(plots.iou_heatmaps(overlap, table, criteria), *paths("iou"))
        save_figure(plots.iou_by_circuits(overlap), *paths("iou_by_k"))
        save_figure(plots.circuits(table, criteria), *paths("circuits"))
        save_figure(plots.minimal(minimal_rows, criteria), *paths("minimal"))


def verdict(
    circuits_table: str,
    overlap_table: str,
    minimal_table: str,
    training_table: str,
    discovery_table: str,
    claims: str,
    metrics: str,
    *,
    criteria: dict,
    sentences: int,
    substitution: str,
) -> None:
    """Judge the spec's claims and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    table, overlap, minimal_rows = read_csv(circuits_table), read_csv(overlap_table), read_csv(minimal_table)
    model_accuracy = float(read_csv(training_table)["accuracy"].iloc[-1])
    details = verdicts.overlap_details(table, read_csv(discovery_table))  # both overlap claims report them
    judged = [
        verdicts.low_overlap(table, overlap, details, criteria, model_accuracy),
        verdicts.grows_with_circuits(
            overlap, criteria, verdicts.overlap_premises(table, model_accuracy, criteria), details
        ),
        verdicts.dispensable_minimal_circuit(minimal_rows, criteria, model_accuracy, sentences),
    ]
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.headline}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    mean = table.groupby("method")[["edges", "density", "accuracy", "faithfulness", "complement_accuracy"]].mean()
    write_json(
        metrics,
        {
            "model_accuracy": float(read_csv(training_table)["accuracy"].iloc[-1]),
            "mean_by_method": {m: {k: float(v) for k, v in row.items()} for m, row in mean.iterrows()},
            "mean_iou": {m: float(g["iou"].mean()) for m, g in overlap.groupby("method")},
            "mean_chance_iou": {m: float(g["chance_iou"].mean()) for m, g in overlap.groupby("method")},
        },
    )
