"""Training NetDiff (or the baseline) on target topologies, and generating a topology from it (ours in detail).

- Targets are encoded as edge classes (link or not, symmetric, zero out of range) and parities. One diffusion time
  per batch; edges and parities are noised by their own marginal transitions (marginals from the training
  targets). The loss: cross-entropy on the in-range pairs (upper triangle), the parity cross-entropy under the
  better of the two global colourings (a topology's parities are defined up to a swap), and, weighted by
  ``aux``, the spec's constraint losses on the predicted link probabilities ``P``: squared excess over one of
  every (node, sector) load ``sum_j P_ij [sector_ij = s]``, and the expected links between equal parities.
- :func:`generate` runs the reverse chain jointly over edges and parities (out-of-range pairs held at "no link"),
  from noise or, for partial diffusion, from a previous topology noised to ``from_step``; :func:`repair` then
  drops what breaks a constraint (out of range, all but the most likely link of an over-full sector, links between
  equal parities) and the caller reports raw and repaired topologies separately.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch.nn import functional as F

from . import features
from .denoiser import DenoiserSettings
from .diffusion import MarginalTransitions
from .simulator import Channel, Instance, Topology, sector_of


@dataclass(frozen=True)
class Encoded:
    nodes: torch.Tensor  # [B, N, 5]
    pairs: torch.Tensor  # [B, N, N, 5 + 2K]
    in_range: torch.Tensor  # [B, N, N] bool
    sectors: torch.Tensor  # [B, N, N] long: sector of j seen from i
    edges: torch.Tensor  # [B, N, N] long, the target's links
    parity: torch.Tensor  # [B, N] long


def encode(examples: list[tuple[Instance, Topology]], channel: Channel) -> Encoded:
    """A batch of instances with the same N and their target topologies."""
    nodes, pairs, ranges, sectors, edges, parity = [], [], [], [], [], []
    for instance, topology in examples:
        nodes.append(features.node_features(instance))
        pairs.append(features.pair_features(instance, channel))
        ranges.append(instance.in_range())
        sectors.append(sector_of(instance, channel.sectors))
        edges.append(topology.adjacency(instance.n))
        parity.append(topology.parity)
    stack = lambda xs, dtype: torch.as_tensor(np.stack(xs), dtype=dtype)  # noqa: E731
    return Encoded(
        stack(nodes, torch.float32),
        stack(pairs, torch.float32),
        stack(ranges, torch.bool),
        stack(sectors, torch.long),
        stack(edges, torch.long),
        stack(parity, torch.long),
    )


def symmetric(classes: torch.Tensor, in_range: torch.Tensor) -> torch.Tensor:
    """The upper triangle mirrored, zero out of range."""
    upper = torch.triu(classes, diagonal=1)
    return (upper + upper.transpose(1, 2)) * in_range


STATE = 2  # the one-hot noisy state appended to every node (parity) and pair (edge class)


def denoiser_settings(sectors: int, **sizes) -> DenoiserSettings:
    """Settings whose input widths fit :func:`model_inputs` for ``sectors`` sectors; ``sizes``: the rest."""
    return DenoiserSettings(
        node_features=features.NODE_FEATURES + STATE, edge_features=features.edge_features(sectors) + STATE, **sizes
    )


def model_inputs(batch: Encoded, edges: torch.Tensor, parity: torch.Tensor):
    return (
        torch.cat([batch.nodes, F.one_hot(parity, STATE).float()], dim=-1),
        torch.cat([batch.pairs, F.one_hot(edges, STATE).float()], dim=-1),
    )


def run_model(model, nodes: torch.Tensor, pairs: torch.Tensor, in_range: torch.Tensor, time: torch.Tensor):
    """The denoiser's edge and parity logits, computed on the model's device (a GPU at paper scale) and returned on
    the CPU, where the diffusion's noise, posteriors and losses stay: CPU generators draw the same samples on every
    device, and on a CPU-only run nothing moves."""
    device = next(model.parameters(), nodes).device  # a model without parameters runs where its inputs are
    edge_logits, parity_logits = model(*(x.to(device) for x in (nodes, pairs, in_range, time)))
    return edge_logits.cpu(), parity_logits.cpu()


def parity_loss(logits: torch.Tensor, parity: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of ``[B, N, 2]`` parity logits under the better of each graph's two colourings."""
    per_graph = [
        torch.minimum(F.cross_entropy(row, target), F.cross_entropy(row, 1 - target))
        for row, target in zip(logits, parity)
    ]
    return torch.stack(per_graph).mean()


def losses(model, batch: Encoded, edge_q, parity_q, t: int, generator: torch.Generator, aux: float) -> dict:
    steps = edge_q.steps
    noisy_edges = symmetric(edge_q.noise(batch.edges, t, generator), batch.in_range)
    noisy_parity = parity_q.noise(batch.parity, t, generator)
    nodes, pairs = model_inputs(batch, noisy_edges, noisy_parity)
    time = torch.full((len(batch.nodes),), t / steps)
    edge_logits, parity_logits = run_model(model, nodes, pairs, batch.in_range, time)
    upper = torch.triu(batch.in_range, diagonal=1)
    edge = F.cross_entropy(edge_logits[upper], batch.edges[upper])
    parity = parity_loss(parity_logits, batch.parity)
    link = torch.softmax(edge_logits, -1)[..., 1] * batch.in_range
    load = torch.zeros(*link.shape[:2], int(batch.sectors.max()) + 1).scatter_add(2, batch.sectors, link)
    sector = (F.relu(load - 1) ** 2).mean()
    q = torch.softmax(parity_logits, -1)[..., 1]
    same = q[:, :, None] * q[:, None, :] + (1 - q[:, :, None]) * (1 - q[:, None, :])
    half_duplex = (link * same).sum() / link.sum().clamp(min=1e-6)
    total = edge + parity + aux * (sector + half_duplex)
    return {"total": total, "edge": edge, "parity": parity, "sector": sector, "half_duplex": half_duplex}


def marginals(examples: list[tuple[Instance, Topology]]) -> tuple[torch.Tensor, torch.Tensor]:
    """The diffusion's marginals: the share of links among the in-range pairs of the training targets, and 1/2
    for each parity (a colouring and its swap are the same topology)."""
    links = sum(len(topology.links) for _, topology in examples)
    pairs = sum(int(np.triu(instance.in_range(), 1).sum()) for instance, _ in examples)
    half = torch.tensor([0.5, 0.5], dtype=torch.float64)
    return torch.tensor([1 - links / pairs, links / pairs], dtype=torch.float64), half


@torch.no_grad()
def generate(
    model,
    batch: Encoded,
    edge_q: MarginalTransitions,
    parity_q: MarginalTransitions,
    generator: torch.Generator,
    *,
    greedy: bool = False,
    start: tuple[torch.Tensor, torch.Tensor] | None = None,
    from_step: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Reverse chain over edges and parities; returns (edge classes, parities, last link probabilities)."""
    top = edge_q.steps if from_step is None else from_step
    shape_e, shape_p = batch.edges.shape, batch.parity.shape

    def draw(probs: torch.Tensor, shape) -> torch.Tensor:
        if greedy:
            return probs.argmax(-1)
        flat = probs.reshape(-1, probs.shape[-1]).float()
        return torch.multinomial(flat, 1, generator=generator).reshape(shape)

    if start is None:
        edges = draw(edge_q.m.expand(*shape_e, 2), shape_e)
        parity = draw(parity_q.m.expand(*shape_p, 2), shape_p)
    else:
        edges, parity = edge_q.noise(start[0], top, generator), parity_q.noise(start[1], top, generator)
    edges = symmetric(edges, batch.in_range)
    link = torch.zeros(shape_e)
    for t in range(top, 0, -1):
        nodes, pairs = model_inputs(batch, edges, parity)
        edge_logits, parity_logits = run_model(
            model, nodes, pairs, batch.in_range, torch.full((len(batch.nodes),), t / edge_q.steps)
        )
        edge_probs, parity_probs = torch.softmax(edge_logits, -1), torch.softmax(parity_logits, -1)
        link = edge_probs[..., 1] * batch.in_range
        edges = symmetric(draw(edge_q.posterior(edges, t, edge_probs), shape_e), batch.in_range)
        parity = draw(parity_q.posterior(parity, t, parity_probs), shape_p)
    return edges, parity, link


def repair(instance: Instance, channel: Channel, edges: np.ndarray, parity: np.ndarray, link: np.ndarray):
    """The generated topology as is, and repaired: out-of-range links, all but the most likely link of an
    over-full (node, sector) and links between equal parities dropped; then, while the graph is disconnected, the
    most likely feasible link between two components added (flipping the parities of the smaller component when
    both ends share one, which keeps every existing link valid). Returns (raw, repaired)."""
    import networkx as nx

    chosen = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(edges, 1)))]
    raw = Topology.of(chosen, parity)
    sector, in_range = sector_of(instance, channel.sectors), instance.in_range()
    parity = np.array(parity, int)
    kept, used = [], set()
    ends = lambda i, j: {(i, int(sector[i, j])), (j, int(sector[j, i]))}  # noqa: E731
    for i, j in sorted(chosen, key=lambda e: (-link[e], e)):
        if in_range[i, j] and parity[i] != parity[j] and not ends(i, j) & used:
            kept.append((i, j))
            used |= ends(i, j)
    graph = nx.Graph(kept)
    graph.add_nodes_from(range(instance.n))
    pairs = sorted(((int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(in_range, 1)))), key=lambda e: (-link[e], e))
    while not nx.is_connected(graph):
        component = {node: c for c, members in enumerate(nx.connected_components(graph)) for node in members}
        joining = [(i, j) for i, j in pairs if component[i] != component[j] and not ends(i, j) & used]
        if not joining:
            break  # the sectors leave no way to join the components: reported as disconnected
        i, j = joining[0]
        if parity[i] == parity[j]:
            smaller = min(nx.node_connected_component(graph, i), nx.node_connected_component(graph, j), key=len)
            parity[list(smaller)] = 1 - parity[list(smaller)]
        graph.add_edge(i, j)
        used |= ends(i, j)
    return raw, Topology.of(graph.edges, parity)
