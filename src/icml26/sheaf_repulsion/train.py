"""Training the IOI model from scratch (the stand-in for GPT-2, which cannot be loaded here).

AdamW on the cross-entropy of the final position's next token (the indirect object), fresh sentences
every step from one seeded generator, until ``steps`` steps or held-out accuracy above ``target``;
progress lines every ``every`` steps. Accuracy is top-1 over the whole vocabulary; the circuits are
judged by the logit difference of the right and the wrong name (:mod:`~icml26.sheaf_repulsion.masks`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from .data import LENGTH, Batch, ioi, vocabulary
from .model import EdgeTransformer


@dataclass(frozen=True)
class Architecture:
    layers: int
    heads: int
    width: int
    mlp_width: int
    names: int

    def build(self) -> EdgeTransformer:
        return EdgeTransformer(len(vocabulary(self.names)), LENGTH, self.layers, self.heads, self.width, self.mlp_width)


def tensors(batch: Batch, device: torch.device | str = "cpu") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return tuple(torch.from_numpy(a).to(device) for a in (batch.tokens, batch.good, batch.bad))


@torch.no_grad()
def accuracy(net: EdgeTransformer, batch: Batch, mask: torch.Tensor | None = None) -> float:
    """Share of sentences whose most likely next token is the indirect object."""
    tokens, good, _ = tensors(batch, net.device)
    return (net(tokens, mask)[:, -1].argmax(-1) == good).float().mean().item()


def train(
    arch: Architecture,
    *,
    steps: int,
    batch_size: int,
    lr: float,
    weight_decay: float,
    target: float,
    held_out: Batch,
    seed: int,
    every: int = 50,
    device: str = "cpu",
) -> tuple[EdgeTransformer, list[dict]]:
    """The trained model and its curve (step, loss, held-out accuracy); the elapsed time goes to the log only.
    The weights are initialised on the CPU, so a GPU run starts from the same model."""
    torch.manual_seed(seed)
    net = arch.build().to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    rng = np.random.default_rng(seed)
    curve, start = [], time.perf_counter()
    for step in range(1, steps + 1):
        tokens, good, _ = tensors(ioi(batch_size, arch.names, rng), device)
        loss = F.cross_entropy(net(tokens)[:, -1], good)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % every == 0 or step == steps:
            net.eval()
            curve.append({"step": step, "loss": loss.item(), "accuracy": accuracy(net, held_out)})
            net.train()
            print(
                f"step {step}/{steps}: loss {loss.item():.4f}, held-out accuracy {curve[-1]['accuracy']:.3f}, "
                f"{time.perf_counter() - start:.1f} s",
                flush=True,
            )
            if curve[-1]["accuracy"] >= target:
                break
    net.eval()
    return net, curve
