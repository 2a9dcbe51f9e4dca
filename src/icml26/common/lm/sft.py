"""Supervised fine-tuning with the loss on answer tokens only.

An example is ``(prompt ids, answer ids)``; the model learns to continue the prompt with the answer, the
prompt itself is context (labels -100). AdamW, linear warm-up then cosine decay
(``transformers.get_cosine_schedule_with_warmup``), gradient clipping, batches drawn by a seeded
permutation per epoch: the same seed and data give the same weights on CPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from transformers import PreTrainedModel, get_cosine_schedule_with_warmup

from ..config import ConfigError, settings_from
from .sampling import check_fits

IGNORE = -100  # the label transformers' loss skips


@dataclass(frozen=True)
class SFTSettings:
    """A config's ``sft`` block."""

    steps: int = 1000
    batch_size: int = 32
    lr: float = 3e-3
    warmup_steps: int = 50
    weight_decay: float = 0.0
    clip_norm: float = 1.0
    log_every: int = 100

    @classmethod
    def from_config(cls, block: dict[str, Any], key: str = "sft") -> SFTSettings:
        settings = settings_from(cls, block, key)
        if settings.warmup_steps >= settings.steps:
            raise ConfigError(
                f"{key}.warmup_steps: {settings.warmup_steps} is not below {key}.steps ({settings.steps})"
            )
        return settings


def answer_batch(
    examples: Sequence[tuple[Sequence[int], Sequence[int]]], pad_id: int, device
) -> dict[str, torch.Tensor]:
    """Right-padded ``input_ids``, ``attention_mask`` and ``labels`` (answer tokens only) for one batch."""
    width = max(len(p) + len(a) for p, a in examples)
    ids = torch.full((len(examples), width), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), width), IGNORE, dtype=torch.long)
    attention = torch.zeros((len(examples), width), dtype=torch.long)
    for row, (prompt, answer) in enumerate(examples):
        n = len(prompt) + len(answer)
        ids[row, :n] = torch.as_tensor([*prompt, *answer])
        labels[row, len(prompt) : n] = torch.as_tensor(list(answer))
        attention[row, :n] = 1
    return {"input_ids": ids.to(device), "attention_mask": attention.to(device), "labels": labels.to(device)}


def sft(
    model: PreTrainedModel,
    examples: Sequence[tuple[Sequence[int], Sequence[int]]],
    settings: SFTSettings,
    *,
    seed: int,
    pad_id: int,
    log: Callable[[str], None] = print,
) -> list[float]:
    """Train ``model`` in place on ``examples``; return the loss of every step.

    Every ``settings.log_every`` steps one progress line goes to ``log`` (the job's log under Snakemake).
    """
    if not examples:
        raise ValueError("sft needs at least one example")
    check_fits(model, max(len(p) for p, _ in examples), max(len(a) for _, a in examples))
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    schedule = get_cosine_schedule_with_warmup(optimizer, settings.warmup_steps, settings.steps)
    order = torch.Generator().manual_seed(seed)
    queue: list[int] = []
    losses = []
    model.train()
    for step in range(1, settings.steps + 1):
        if len(queue) < settings.batch_size:
            queue.extend(torch.randperm(len(examples), generator=order).tolist())
        batch, queue = queue[: settings.batch_size], queue[settings.batch_size :]
        loss = model(**answer_batch([examples[i] for i in batch], pad_id, model.device)).loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), settings.clip_norm)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if step % settings.log_every == 0 or step == settings.steps:
            log(f"sft step {step}/{settings.steps}: loss {loss.item():.4f}, lr {schedule.get_last_lr()[0]:.2e}")
    model.eval()
    return losses


def sft_with_progress(
    model: PreTrainedModel,
    examples: Sequence[tuple[Sequence[int], Sequence[int]]],
    settings: SFTSettings,
    *,
    seed: int,
    pad_id: int,
    label: str = "",
) -> tuple[list[float], float]:
    """:func:`sft` with each progress line printed as ``<label> <line> (<elapsed> s)`` (what a job's log shows);
    returns the losses and the seconds it took."""
    import time

    start = time.perf_counter()
    prefix = f"{label} " if label else ""
    losses = sft(
        model,
        examples,
        settings,
        seed=seed,
        pad_id=pad_id,
        log=lambda line: print(f"{prefix}{line} ({time.perf_counter() - start:.0f} s)", flush=True),
    )
    return losses, time.perf_counter() - start


def window_means(losses: Sequence[float], every: int) -> tuple[list[int], list[float]]:
    """The mean loss over each logging window, as the steps ending the windows (``every``, ``2·every``, ...)
    and their means: what a paper's loss table shows (a trailing partial window is left out)."""
    ends = list(range(every, len(losses) + 1, every))
    return ends, [float(np.mean(losses[end - every : end])) for end in ends]
