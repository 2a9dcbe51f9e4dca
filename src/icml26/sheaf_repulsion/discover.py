"""Edge-level circuit discovery on a frozen model, and OASR: runs repelled from earlier circuits.

One run optimises one logit per edge with Adam on the objective of :mod:`~icml26.sheaf_repulsion.masks`
(fresh IOI sentences every step from the run's own generator; Gumbel noise from a second one); the
repulsion weight follows the sparsity weight's ramp, as in the reference code. It then keeps the edges
with a positive logit that lie on a path from the embedding to the logits; given held-out sentences, it records
that circuit's metrics every few steps (the discovery curve: has the run converged?). OASR's run k is repelled
from the union of runs 1..k-1; the independent baseline uses the same runs with the repulsion weight
at 0. (The indispensability test searches exhaustively instead: :mod:`~icml26.sheaf_repulsion.minimal`.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from .data import Batch, Language, ioi
from .masks import completeness_loss, density, faithfulness_loss, good_bad, overlap, sparsity_weight, straight_through
from .metrics import circuit_metrics
from .model import EdgeTransformer
from .train import tensors


@dataclass(frozen=True)
class Objective:
    steps: int
    batch_size: int
    lr: float
    sparsity: float  # lambda_sparse's base value
    sparsity_max_times: float
    sparsity_min_times: float
    overlap: float  # lambda_overlap's base value (0: no repulsion)
    overlap_max_times: float  # lambda_overlap follows the same ramp as lambda_sparse (as OASR's code does)
    overlap_min_times: float
    completeness: float  # lambda_complete, from `complete_from` of the steps on
    complete_from: float = 0.8
    temperature: float = 1.0
    init: float = 1.0  # every edge logit starts here: every edge kept


@dataclass(frozen=True)
class Circuit:
    edges: np.ndarray  # bool over the model's edges, finalised
    logits: np.ndarray  # the learnt edge logits
    seconds: float  # the run's wall clock: a measured output, written to timing/ only
    curve: tuple[dict, ...] = ()  # per checkpoint: step and the metrics of the circuit the logits keep then


def discover(
    net: EdgeTransformer,
    objective: Objective,
    *,
    language: Language | int,
    seed: int,
    reference: np.ndarray | None = None,
    every: int = 50,
    held_out: Batch | None = None,
) -> Circuit:
    """One discovery run (progress lines every ``every`` steps; with ``held_out``, the finalised circuit of the
    positive logits is measured on it at each of them)."""
    n = len(net.graph)
    reference_t = torch.as_tensor(
        np.zeros(n, dtype=bool) if reference is None else reference, dtype=torch.bool, device=net.device
    )
    for parameter in net.parameters():
        parameter.requires_grad_(False)
    logits = torch.full((n,), objective.init, device=net.device, requires_grad=True)
    optimiser = torch.optim.Adam([logits], lr=objective.lr)
    sentences, noise = np.random.default_rng(seed), torch.Generator().manual_seed(seed)  # noise drawn on the CPU
    start, curve = time.perf_counter(), []
    for step in range(objective.steps):
        tokens, good, bad = tensors(ioi(objective.batch_size, language, sentences), net.device)
        mask = straight_through(logits, temperature=objective.temperature, generator=noise)
        loss = faithfulness_loss(good_bad(net(tokens, mask), good, bad))
        loss = loss + sparsity_weight(
            step,
            objective.steps,
            base=objective.sparsity,
            max_times=objective.sparsity_max_times,
            min_times=objective.sparsity_min_times,
        ) * density(logits)
        if objective.overlap:
            loss = loss + sparsity_weight(
                step,
                objective.steps,
                base=objective.overlap,
                max_times=objective.overlap_max_times,
                min_times=objective.overlap_min_times,
            ) * overlap(logits, reference_t)
        if objective.completeness and step >= objective.complete_from * objective.steps:
            loss = loss + objective.completeness * completeness_loss(good_bad(net(tokens, 1.0 - mask), good, bad))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if (step + 1) % every == 0 or step + 1 == objective.steps:
            kept, measured = int((logits > 0).sum()), ""
            if held_out is not None:
                circuit = net.graph.finalise(logits.detach().cpu().numpy() > 0)
                curve.append({"step": step + 1, **circuit_metrics(net, held_out, circuit)})
                measured = f", circuit accuracy {curve[-1]['accuracy']:.3f}"
            print(
                f"  step {step + 1}/{objective.steps}: loss {loss.item():.4f}, {kept}/{n} edges kept{measured}, "
                f"{time.perf_counter() - start:.1f} s",
                flush=True,
            )
    learnt = logits.detach().cpu().numpy().copy()
    return Circuit(net.graph.finalise(learnt > 0), learnt, time.perf_counter() - start, tuple(curve))


def repelled_runs(
    net: EdgeTransformer,
    objective: Objective,
    *,
    runs: int,
    language: Language | int,
    seed: int,
    every: int = 50,
    held_out: Batch | None = None,
) -> list[Circuit]:
    """OASR (``objective.overlap`` > 0) or independent seeds (0): run k is repelled from the union of the
    circuits of runs 1..k-1 and uses seed ``seed + k``."""
    circuits: list[Circuit] = []
    union = np.zeros(len(net.graph), dtype=bool)
    for k in range(runs):
        print(f"run {k + 1}/{runs} (repulsion {objective.overlap}, {int(union.sum())} edges to avoid)", flush=True)
        circuits.append(
            discover(net, objective, language=language, seed=seed + k, reference=union, every=every, held_out=held_out)
        )
        union |= circuits[-1].edges
    return circuits
