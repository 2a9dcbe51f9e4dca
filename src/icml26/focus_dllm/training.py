"""Training the block-diffusion LM with the masked-diffusion objective, one block at a time.

A step takes a batch of sequences (prompt blocks, then answer blocks), picks one answer block ``b`` for the batch,
keeps everything before it clean, masks each token of block ``b`` with probability ``t ~ U(t_min, 1)`` (at least
one per sequence), drops everything after it, and minimises ``(1/t) · Σ_masked CE / block_size`` averaged over
the batch (the spec's objective; the ``1/t`` weight makes it the diffusion ELBO). Ours: ``t_min = 0.05`` keeps
the weight bounded, and a sequence's prefix attends block-causally, exactly as at decoding time. The noise is drawn
on the CPU whatever the model's device, so a seed gives every device the same masks and the CPU the same weights.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from .model import BlockDiffusionLM, block_causal_mask


def noised_block(
    block: torch.Tensor, t: torch.Tensor, mask_id: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """``block`` ``[batch, size]`` with each token masked with probability ``t`` ``[batch]``, at least one per row
    (the first position of a row left unmasked by chance). Returns the noised ids and the mask."""
    masked = torch.rand(block.shape, generator=generator) < t[:, None]
    empty = ~masked.any(dim=1)
    masked[empty, torch.randint(block.shape[1], (int(empty.sum()),), generator=generator)] = True
    return torch.where(masked, torch.full_like(block, mask_id), block), masked


def diffusion_loss(
    model: BlockDiffusionLM, sequences: torch.Tensor, first_answer_block: int, block: int, t, generator
) -> torch.Tensor:
    """The masked-diffusion loss of answer block ``block`` (counted from the first answer block)."""
    size, device = model.config.block_size, model.embed.weight.device
    start = (first_answer_block + block) * size
    clean = sequences[:, : start + size]
    noisy, masked = noised_block(clean[:, start:], t, model.config.mask_token_id, generator)
    ids = torch.cat([clean[:, :start], noisy], dim=1).to(device)
    positions = torch.arange(ids.shape[1], device=device).expand(ids.shape[0], -1)
    logits, _ = model(ids, positions, mask=block_causal_mask(ids.shape[1], size, device))
    ce = torch.nn.functional.cross_entropy(
        logits[:, start:].reshape(-1, logits.shape[-1]), clean[:, start:].reshape(-1).to(device), reduction="none"
    ).view(masked.shape)
    return ((ce * masked.to(device)).sum(dim=1) / (t.to(device) * size)).mean()


def train(
    model: BlockDiffusionLM,
    sequences: torch.Tensor,
    prompt_blocks: int,
    *,
    steps: int,
    batch_size: int,
    lr: float,
    seed: int,
    t_min: float = 0.05,
    log: Callable[[str], None] = print,
    log_every: int = 100,
) -> list[float]:
    """AdamW with cosine decay on ``sequences`` ``[n, length]``; returns every step's loss. The same seed gives
    the same weights on CPU."""
    answer_blocks = sequences.shape[1] // model.config.block_size - prompt_blocks
    generator = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    losses = []
    model.train()
    for step in range(1, steps + 1):
        rows = torch.as_tensor(rng.choice(len(sequences), size=batch_size, replace=False))
        t = t_min + (1 - t_min) * torch.rand(batch_size, generator=generator)
        loss = diffusion_loss(model, sequences[rows], prompt_blocks, int(rng.integers(answer_blocks)), t, generator)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if step % log_every == 0 or step == steps:
            log(f"train step {step}/{steps}: loss {loss.item():.4f}")
    model.eval()
    return losses
