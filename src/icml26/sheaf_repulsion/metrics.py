"""How good a circuit is, and the attribution-patching (EAP-style) edge ranking.

For a circuit C (a 0/1 mask) on held-out IOI sentences, with LD = logit(IO) - logit(S) at the last
position:

- accuracy: the share of sentences where the circuit alone prefers IO to S;
- faithfulness: mean LD of the circuit over mean LD of the full model (1 = as good as the model);
- completeness: the complement (every edge C drops, alone) should be at chance: its IO-over-S accuracy,
  0.5 at chance;
- density: |C| over all edges.

EAP scores every edge by the first-order effect of removing it (zero ablation) on mean LD: the
gradient of mean LD with respect to the edge's mask weight at the full model, which is exactly
source output . d LD / d destination input summed over sentences and positions (ours: the mask makes
it one backward pass).
"""

from __future__ import annotations

import time

import numpy as np
import torch

from .data import Batch
from .masks import good_bad
from .model import EdgeTransformer
from .train import tensors


def logit_difference(net: EdgeTransformer, batch: Batch, mask: torch.Tensor | None = None) -> torch.Tensor:
    """LD per sentence."""
    tokens, good, bad = tensors(batch, net.device)
    pair = good_bad(net(tokens, mask), good, bad)
    return pair[:, 0] - pair[:, 1]


@torch.no_grad()
def circuit_metrics(net: EdgeTransformer, batch: Batch, circuit: np.ndarray) -> dict[str, float]:
    kept = torch.as_tensor(np.asarray(circuit, dtype=bool), dtype=torch.float32, device=net.device)
    full = logit_difference(net, batch).mean().item()
    alone = logit_difference(net, batch, kept)
    complement = logit_difference(net, batch, 1.0 - kept)
    return {
        "edges": int(kept.sum()),
        "density": kept.mean().item(),
        "accuracy": (alone > 0).float().mean().item(),
        "faithfulness": alone.mean().item() / full,
        "complement_accuracy": (complement > 0).float().mean().item(),
    }


def attribution_scores(net: EdgeTransformer, batch: Batch) -> np.ndarray:
    """d mean(LD) / d mask_e at the full model, for every edge (EAP with zero ablation)."""
    mask = torch.ones(len(net.graph), device=net.device, requires_grad=True)
    logit_difference(net, batch, mask).mean().backward()
    return mask.grad.cpu().numpy().copy()


def top_edges(scores: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` edges with the largest |score| (ties by edge order) as a boolean circuit."""
    order = np.lexsort((np.arange(len(scores)), -np.abs(scores)))
    chosen = np.zeros(len(scores), dtype=bool)
    chosen[order[:count]] = True
    return chosen


@torch.no_grad()
def acdc_lite(net: EdgeTransformer, batch: Batch, threshold: float, every: int = 100) -> np.ndarray:
    """ACDC-lite: from the full model, visit the edges from the logits backwards (destinations in reverse
    forward order) and remove each one for good if the KL divergence of the last position's next-token
    distribution from the full model's grows by at most ``threshold``; returns the finalised circuit
    (progress lines every ``every`` edges)."""
    tokens, _, _ = tensors(batch, net.device)
    reference = torch.log_softmax(net(tokens)[:, -1], dim=-1)
    mask = torch.ones(len(net.graph), device=net.device)

    def divergence() -> float:
        current = torch.log_softmax(net(tokens, mask)[:, -1], dim=-1)
        return torch.sum(reference.exp() * (reference - current), dim=-1).mean().item()

    current, start = 0.0, time.perf_counter()
    for visited, edge in enumerate(reversed(range(len(net.graph))), start=1):
        mask[edge] = 0.0
        trial = divergence()
        if trial - current <= threshold:
            current = trial
        else:
            mask[edge] = 1.0
        if visited % every == 0:
            print(
                f"  ACDC-lite: {visited}/{len(net.graph)} edges visited, {int(mask.sum())} kept, KL {current:.4f}, "
                f"{time.perf_counter() - start:.1f} s",
                flush=True,
            )
    return net.graph.finalise(mask.cpu().numpy() > 0)
