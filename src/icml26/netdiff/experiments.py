"""The experiment steps the rules will call: a dataset of instances with targets, training, and evaluation of
NetDiff (raw and repaired) beside the heuristics as shares of the target's throughput."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
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


def evaluate(trained: Trained, data: list[tuple[Instance, Topology]], channel: Channel, seed: int) -> list[dict]:
    """Per test instance and method: the metrics and the share of the target's throughput."""
    rows = []
    generator = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    omni = Channel(sectors=1, side_db=channel.side_db, alpha=channel.alpha, power=channel.power, noise=channel.noise)
    for index, (instance, best) in enumerate(data):
        batch = training.encode([(instance, best)], channel)
        edges, parity, link = training.generate(trained.model, batch, trained.edge_q, trained.parity_q, generator)
        raw, repaired = training.repair(instance, channel, edges[0].numpy(), parity[0].numpy(), link[0].numpy())
        reference = metrics(instance, best, channel)["throughput"]
        built = {
            "target": (best, channel),
            "netdiff_raw": (raw, channel),
            "netdiff": (repaired, channel),
            "greedy": (heuristics.greedy(instance, channel), channel),
            "mutual_nearest": (heuristics.mutual_nearest(instance, channel), channel),
            "random_feasible": (heuristics.random_feasible(instance, channel, rng), channel),
            "omnidirectional": (heuristics.omnidirectional(instance), omni),
        }
        for method, (topology, used) in built.items():
            found = metrics(instance, topology, used)
            rows.append(
                {
                    "instance": index,
                    "nodes": instance.n,
                    "method": method,
                    **found,
                    "share": found["throughput"] / reference,
                }
            )
    return rows


def _topology_tensors(topology: Topology, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    edges = torch.zeros(1, n, n, dtype=torch.long)
    for i, j in topology.links:
        edges[0, i, j] = edges[0, j, i] = 1
    return edges, torch.as_tensor(topology.parity, dtype=torch.long)[None]


def partial_sweep(
    trained: Trained,
    frames: list[Instance],
    channel: Channel,
    restarts: list[int],
    seed: int,
    rounds: int = 20,
) -> list[dict]:
    """Partial diffusion over a mobility trace: at every frame after the first, each restart step ``k`` re-noises
    the previous frame's topology (its own chain's) to ``k`` and denoises ``k`` steps; ``k = T`` is full diffusion
    from noise. Rows: frame, restart, share of the frame's target throughput, churn against the previous
    topology, connectivity (repaired topologies)."""
    from .mobility import churn

    rows = []
    steps = trained.edge_q.steps
    targets = [target(frame, channel, rounds)[0] for frame in frames]
    for k in restarts:
        generator = torch.Generator().manual_seed(seed)
        previous = None
        for index, (frame, best) in enumerate(zip(frames, targets)):
            batch = training.encode([(frame, best)], channel)
            start = None if previous is None or k >= steps else _topology_tensors(previous, frame.n)
            edges, parity, link = training.generate(
                trained.model,
                batch,
                trained.edge_q,
                trained.parity_q,
                generator,
                start=start,
                from_step=None if start is None else k,
            )
            _, repaired = training.repair(frame, channel, edges[0].numpy(), parity[0].numpy(), link[0].numpy())
            found = metrics(frame, repaired, channel)
            reference = metrics(frame, best, channel)["throughput"]
            if previous is not None:
                rows.append(
                    {
                        "restart": k,
                        "frame": index,
                        "share": found["throughput"] / reference,
                        "churn": churn(previous, repaired),
                        "connected": found["connected"],
                        "denoising_steps": steps if start is None else k,
                    }
                )
            previous = repaired
    return rows
