"""Edge masks and the terms of the discovery objective (DiscoGP-style, as the spec and OASR state them).

One logit per edge. A mask is drawn with the straight-through Gumbel-sigmoid: the forward value is
exactly 0 or 1 (hard threshold of the noisy sigmoid), the gradient is the sigmoid's. The objective is

    CE([logit_good, logit_bad], good) + lambda_sparse(epoch) * mean sigmoid(l)
        + lambda_overlap(epoch) * sum_{e in ref} sigmoid(l_e) / |ref|   (OASR's repulsion)
        + lambda_complete * CE_uniform(complement)                       (from 80 % of training on)

where ``ref`` is the union of the circuits found by earlier runs and the complement model keeps exactly
the edges the circuit drops. ``lambda_sparse`` rises linearly over the first 80 % of the epochs to
``max_times`` its base value, then falls linearly to ``min_times`` of it at the end; OASR's code ramps
``lambda_overlap`` the same way (:func:`sparsity_weight` serves both).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def straight_through(
    logits: torch.Tensor, *, temperature: float = 1.0, generator: torch.Generator | None = None
) -> torch.Tensor:
    """A {0, 1} mask whose gradient is that of sigmoid((logits + logistic noise) / temperature); without a
    ``generator`` no noise, so the mask is the threshold ``logits > 0`` (for evaluation)."""
    noisy = logits
    if generator is not None:
        u = torch.rand(logits.shape, generator=generator, dtype=logits.dtype).to(logits.device).clamp(1e-6, 1 - 1e-6)
        noisy = logits + torch.log(u) - torch.log1p(-u)  # logistic noise = the difference of two Gumbels
    soft = torch.sigmoid(noisy / temperature)
    hard = (noisy > 0).to(soft.dtype)  # not soft > 0.5: sigmoid rounds tiny logits to exactly 0.5
    return hard + (soft - soft.detach())  # forward: exactly hard (x - x == 0); backward: d soft


def sparsity_weight(
    epoch: float, epochs: float, *, base: float, max_times: float, min_times: float, warmup: float = 0.8
) -> float:
    """lambda_sparse at ``epoch`` of ``epochs``: base at 0, base * max_times at warmup * epochs, then
    linearly down to base * min_times at ``epochs``."""
    turn = warmup * epochs
    if epoch <= turn:
        return base * (1 + (max_times - 1) * epoch / turn) if turn else base * max_times
    return base * (max_times - (max_times - min_times) * (epoch - turn) / (epochs - turn))


def density(logits: torch.Tensor) -> torch.Tensor:
    """The sparsity term: the mean keep-probability over all edges."""
    return torch.sigmoid(logits).mean()


def overlap(logits: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """OASR's repulsion: the mean keep-probability over the edges of ``reference`` (boolean), 0 without
    any (the first run)."""
    if not reference.any():
        return logits.new_zeros(())
    return torch.sigmoid(logits[reference]).sum() / reference.sum()


def good_bad(logits: torch.Tensor, good: torch.Tensor, bad: torch.Tensor) -> torch.Tensor:
    """(batch, 2): the final position's logits of the right and the wrong answer."""
    last = logits[:, -1]
    rows = torch.arange(last.shape[0])
    return torch.stack([last[rows, good], last[rows, bad]], dim=-1)


def faithfulness_loss(pair: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the right answer against the wrong one."""
    return F.cross_entropy(pair, torch.zeros(pair.shape[0], dtype=torch.long, device=pair.device))


def completeness_loss(pair: torch.Tensor) -> torch.Tensor:
    """Cross-entropy against (1/2, 1/2): the complement model should not tell the answers apart."""
    return F.cross_entropy(pair, torch.full_like(pair, 0.5))
