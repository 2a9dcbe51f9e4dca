"""The experiment steps the rules call: a dataset of instances with targets, training, saving and loading a
model, evaluation of NetDiff (raw and repaired) and of the heuristics as shares of the target's throughput,
partial diffusion over mobility traces, and the inference timings."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from . import heuristics, training
from .denoiser import Denoiser
from .diffusion import MarginalTransitions
from .simulator import Channel, Instance, Topology, metrics, place
from .target import target


def dataset(nodes: list[int], count: int, radius: float, channel: Channel, seed: int, rounds: int = 20):
    """``count`` instances with N drawn from ``nodes`` (uniform), each with its target topology."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        instance = place(int(rng.choice(nodes)), radius, rng)
        out.append((instance, target(instance, channel, rounds)[0]))
    return out


@dataclass
class Trained:
    model: Denoiser
    edge_q: MarginalTransitions
    parity_q: MarginalTransitions
    losses: list[float]


def train(
    model: Denoiser,
    data: list[tuple[Instance, Topology]],
    channel: Channel,
    *,
    steps: int,
    diffusion_steps: int,
    batch_size: int,
    lr: float,
    aux: float,
    seed: int,
    log: Callable[[str], None] = print,
    log_every: int = 50,
) -> Trained:
    """Adam on batches of one node count at a time (drawn in proportion to the data)."""
    rng, generator = np.random.default_rng(seed), torch.Generator().manual_seed(seed)
    by_n: dict[int, list] = {}
    for example in data:
        by_n.setdefault(example[0].n, []).append(example)
    encoded = {n: training.encode(group, channel) for n, group in sorted(by_n.items())}
    edge_m, parity_m = training.marginals(data)
    edge_q, parity_q = MarginalTransitions(edge_m, diffusion_steps), MarginalTransitions(parity_m, diffusion_steps)
    sizes = np.array([len(by_n[n]) for n in encoded], float)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    losses, start = [], time.perf_counter()
    for step in range(1, steps + 1):
        n = list(encoded)[rng.choice(len(encoded), p=sizes / sizes.sum())]
        pick = torch.as_tensor(rng.choice(len(by_n[n]), size=min(batch_size, len(by_n[n])), replace=False))
        batch = training.Encoded(**{k: v[pick] for k, v in encoded[n].__dict__.items()})
        parts = training.losses(
            model, batch, edge_q, parity_q, int(rng.integers(1, diffusion_steps + 1)), generator, aux
        )
        optimiser.zero_grad()
        parts["total"].backward()
        optimiser.step()
        losses.append(parts["total"].item())
        if step % log_every == 0 or step == steps:
            log(f"step {step}/{steps} loss {np.mean(losses[-log_every:]):.4f} ({time.perf_counter() - start:.0f} s)")
    return Trained(model, edge_q, parity_q, losses)


def _row(index: int, instance: Instance, method: str, topology: Topology, channel: Channel, reference: float):
    found = metrics(instance, topology, channel)
    return {"instance": index, "nodes": instance.n, "method": method, **found, "share": found["throughput"] / reference}


def evaluate(
    trained: Trained,
    data: list[tuple[Instance, Topology]],
    channel: Channel,
    seed: int,
    name: str = "netdiff",
    log: Callable[[str], None] = print,
) -> list[dict]:
    """Per test instance: the metrics of the model's topology as generated (``<name>_raw``) and repaired
    (``<name>``), with its share of the target's throughput. Instances of one N are generated as one batch."""
    generator, start = torch.Generator().manual_seed(seed), time.perf_counter()
    rows = []
    by_n: dict[int, list[int]] = {}
    for index, (instance, _) in enumerate(data):
        by_n.setdefault(instance.n, []).append(index)
    for n, indices in sorted(by_n.items()):
        batch = training.encode([data[i] for i in indices], channel)
        edges, parity, link = training.generate(trained.model, batch, trained.edge_q, trained.parity_q, generator)
        for k, index in enumerate(indices):
            instance, best = data[index]
            raw, repaired = training.repair(instance, channel, edges[k].numpy(), parity[k].numpy(), link[k].numpy())
            reference = metrics(instance, best, channel)["throughput"]
            rows.append(_row(index, instance, f"{name}_raw", raw, channel, reference))
            rows.append(_row(index, instance, name, repaired, channel, reference))
        log(f"N={n}: {len(indices)} instances generated and repaired ({time.perf_counter() - start:.0f} s)")
    return sorted(rows, key=lambda r: r["instance"])


def baselines(data: list[tuple[Instance, Topology]], channel: Channel, seed: int) -> list[dict]:
    """Per test instance: the target and every heuristic, with their shares of the target's throughput."""
    rng = np.random.default_rng(seed)
    rows = []
    for index, (instance, best) in enumerate(data):
        reference = metrics(instance, best, channel)["throughput"]
        built = {"target": (best, channel), **heuristics.every(instance, channel, rng)}
        rows += [_row(index, instance, method, t, used, reference) for method, (t, used) in built.items()]
    return rows


def save(trained: Trained, path: str, description: dict) -> None:
    """The denoiser's weights and the diffusion's marginals in safetensors (same weights, same bytes), its
    settings, the number of diffusion steps and ``description`` in the metadata (one JSON value)."""
    import json
    from dataclasses import asdict

    from safetensors.torch import save_file

    tensors = {f"model.{k}": v.detach().cpu().contiguous() for k, v in trained.model.state_dict().items()}
    tensors |= {"edge_marginal": trained.edge_q.m, "parity_marginal": trained.parity_q.m}
    about = {
        "settings": asdict(trained.model.settings),
        "diffusion_steps": trained.edge_q.steps,
        "description": description,
    }
    metadata = {"netdiff": json.dumps(about, sort_keys=True)}  # one key: safetensors writes several in hash order
    save_file(tensors, path, metadata=metadata)


def load(path: str) -> Trained:
    """A model written by :func:`save`; a file that is not one raises ``ValueError`` naming what is missing."""
    import json

    from safetensors import safe_open

    from .denoiser import DenoiserSettings

    try:
        with safe_open(path, framework="pt") as f:
            metadata = f.metadata() or {}
            tensors = {k: f.get_tensor(k) for k in f.keys()}
    except Exception as error:  # safetensors raises its own error types for a garbled header
        raise ValueError(f"not a safetensors file ({type(error).__name__}: {error})") from None
    missing = [k for k in ("netdiff", "edge_marginal", "parity_marginal") if k not in {**metadata, **tensors}]
    if missing:
        raise ValueError(f"not a netdiff model (no {', '.join(missing)})")
    about = json.loads(metadata["netdiff"])
    model = Denoiser(DenoiserSettings(**about["settings"]))
    try:
        model.load_state_dict({k.removeprefix("model."): v for k, v in tensors.items() if k.startswith("model.")})
    except RuntimeError as error:
        raise ValueError(f"weights do not fit its settings ({str(error).splitlines()[0]})") from None
    steps = int(about["diffusion_steps"])
    edge_q = MarginalTransitions(tensors["edge_marginal"], steps)
    return Trained(model.eval(), edge_q, MarginalTransitions(tensors["parity_marginal"], steps), [])


def _topology_tensors(topologies: list[Topology], n: int) -> tuple[torch.Tensor, torch.Tensor]:
    edges = torch.as_tensor(np.stack([t.adjacency(n) for t in topologies]), dtype=torch.long)
    return edges, torch.as_tensor(np.stack([t.parity for t in topologies]), dtype=torch.long)


def restart(trained: Trained, batch: training.Encoded, previous, k: int, generator: torch.Generator):
    """Partial diffusion: ``previous`` (edge and parity tensors) re-noised to step ``k`` and denoised ``k`` steps;
    full diffusion from noise when there is no previous topology or ``k >= T``."""
    full = previous is None or k >= trained.edge_q.steps
    start, from_step = (None, None) if full else (previous, k)
    return training.generate(
        trained.model, batch, trained.edge_q, trained.parity_q, generator, start=start, from_step=from_step
    )


def partial_sweep(
    trained: Trained,
    traces: list[list[Instance]],
    channel: Channel,
    restarts: list[int],
    seed: int,
    rounds: int = 20,
    log: Callable[[str], None] = print,
) -> list[dict]:
    """Partial diffusion over mobility traces (same N and length; generated as one batch per frame): at every
    frame after the first, each restart step ``k`` re-noises the previous frame's topology (its own chain's) to
    ``k`` and denoises ``k`` steps; ``k = T`` is full diffusion from noise. Rows: trace, frame, restart, share of
    the frame's target throughput, churn against the previous topology, connectivity (repaired topologies)."""
    from .mobility import churn

    rows = []
    steps = trained.edge_q.steps
    frames = list(zip(*traces))  # frames[f][trace]
    targets = [[target(x, channel, rounds)[0] for x in frame] for frame in frames]
    references = [[metrics(x, t, channel)["throughput"] for x, t in zip(f, ts)] for f, ts in zip(frames, targets)]
    start_time = time.perf_counter()
    for k in restarts:
        generator = torch.Generator().manual_seed(seed)
        previous: list[Topology] | None = None
        for index, frame in enumerate(frames):
            batch = training.encode(list(zip(frame, targets[index])), channel)
            start = None if previous is None else _topology_tensors(previous, frame[0].n)
            edges, parity, link = restart(trained, batch, start, k, generator)
            current = [
                training.repair(x, channel, edges[b].numpy(), parity[b].numpy(), link[b].numpy())[1]
                for b, x in enumerate(frame)
            ]
            if previous is not None:
                for b, (x, topology) in enumerate(zip(frame, current)):
                    found = metrics(x, topology, channel)
                    rows.append(
                        {
                            "trace": b,
                            "frame": index,
                            "restart": k,
                            "denoising_steps": min(k, steps),
                            "share": found["throughput"] / references[index][b],
                            "churn": churn(previous[b], topology),
                            "connected": found["connected"],
                        }
                    )
            previous = current
        log(f"restart {k}: {len(frames) - 1} frames x {len(traces)} traces ({time.perf_counter() - start_time:.0f} s)")
    return rows


def _generator_run(trained: Trained, instance: Instance, channel: Channel) -> Callable[[], tuple]:
    """One topology from noise (the full reverse chain) and its repair, as the timed unit."""

    def run():
        batch = training.encode([(instance, Topology.of([], np.zeros(instance.n, int)))], channel)
        generator = torch.Generator().manual_seed(0)
        edges, parity, link = training.generate(trained.model, batch, trained.edge_q, trained.parity_q, generator)
        return training.repair(instance, channel, edges[0].numpy(), parity[0].numpy(), link[0].numpy())

    return run


def inference_seconds(
    models: dict[str, Trained], timing: dict, radius: float, channel: Channel, rounds: int, log: Callable[[str], None]
) -> pd.DataFrame:
    """Median seconds to produce one instance's topology, per method and N: every model's full reverse chain
    (``T`` denoiser calls whatever N) with its repair, each heuristic, and the target generator; the candidates
    of one instance are timed interleaved (common.timing). ``seconds_per_call``: a model's seconds over its
    denoiser calls (repair included), which grows with the N² edges once fixed overheads stop dominating."""
    from ..common.timing import interleaved, medians

    rows = []
    for n in timing["nodes"]:
        rng = np.random.default_rng(n)
        for k in range(timing["instances"]):
            x = place(n, radius, rng)
            candidates = {name: _generator_run(trained, x, channel) for name, trained in models.items()}
            candidates |= {
                "greedy": lambda: heuristics.greedy(x, channel),
                "mutual_nearest": lambda: heuristics.mutual_nearest(x, channel),
                "random_feasible": lambda: heuristics.random_feasible(x, channel, np.random.default_rng(0)),
                "omnidirectional": lambda: heuristics.omnidirectional(x),
                "target": lambda: target(x, channel, rounds),
            }
            for method, seconds in medians(interleaved(candidates, timing["repeats"])).items():
                steps = models[method].edge_q.steps if method in models else 0
                rows.append({"method": method, "nodes": n, "instance": k, "seconds": seconds, "denoiser_calls": steps})
        log(f"N={n}: " + ", ".join(f"{r['method']} {r['seconds'] * 1000:.1f} ms" for r in rows[-len(candidates) :]))
    frame = pd.DataFrame(rows)
    table = frame.groupby(["method", "nodes"], sort=True).agg(
        seconds=("seconds", "median"), denoiser_calls=("denoiser_calls", "first"), instances=("seconds", "size")
    )
    table["seconds_per_call"] = table["seconds"] / table["denoiser_calls"].where(table["denoiser_calls"] > 0)
    return table.reset_index()


def partial_seconds(trained: Trained, partial: dict, radius: float, channel: Channel, repeats: int) -> pd.DataFrame:
    """Median seconds of one partial-diffusion update (re-noise the previous topology to ``k``, denoise ``k``
    steps, repair) per restart step, at ``partial.nodes`` nodes, interleaved over the restart steps."""
    from ..common.timing import interleaved, medians

    rng = np.random.default_rng(partial["seed"])
    instance = place(partial["nodes"], radius, rng)
    previous = heuristics.greedy(instance, channel)
    batch = training.encode([(instance, previous)], channel)
    start = _topology_tensors([previous], instance.n)

    def update(k: int):
        def run():
            edges, parity, link = restart(trained, batch, start, k, torch.Generator().manual_seed(0))
            return training.repair(instance, channel, edges[0].numpy(), parity[0].numpy(), link[0].numpy())

        return run

    seconds = medians(interleaved({str(k): update(k) for k in partial["restarts"]}, repeats))
    return pd.DataFrame([{"restart": k, "nodes": instance.n, "seconds": seconds[str(k)]} for k in partial["restarts"]])
