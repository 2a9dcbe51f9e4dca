"""One learner's run from the base model: updates on the seeds' D0 problems, the model scored on every
variant at each checkpoint (its *curve*, which :mod:`.matched` reads at a common D0 level).

All learners train on every seed's D0 problem at once (ours: one run per learner, not one per seed; the
far variants compute no seed's algorithm, so seeds do not leak into each other's D3/D4). A checkpoint is a
count of optimizer updates (0: the base model itself):

- SFT: one AdamW step on a batch of D0 references per update;
- RFT: every ``steps_per_round`` updates, ``samples`` programs are drawn for each D0 prompt from the current
  model and the correct ones become the fine-tuning set until the next round (a round that finds none
  keeps the previous set; before the first success there is nothing to learn from and the model stays);
- RL: one GRPO step (:func:`.learners.grpo_step`) per update.

Imports ``transformers`` (through the toolkit): import inside rule functions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from icml26.common.lm.sft import answer_batch
from icml26.common.lm.tokenizer import pad_id

from . import learners, prompts
from .evaluate import Item

LEARNERS = ("sft", "rft", "rl")


@dataclass(frozen=True)
class RunSettings:
    """A config's ``learners.<name>`` block."""

    checkpoints: tuple[int, ...]  # update counts at which every variant is scored
    lr: float
    batch_size: int = 16  # SFT/RFT examples per update
    steps_per_round: int = 4  # RFT: updates between two sampling rounds
    samples: int = 8  # RFT: programs drawn per D0 prompt per round
    group: int = 8  # RL: programs per prompt in a GRPO group
    temperature: float = 1.0  # RFT/RL sampling temperature
    clip: float = 0.2  # RL: the surrogate's clip
    max_new_tokens: int = 24


def _supervised_update(model, optimizer, examples, batch_size: int, pad_id: int, rng: np.random.Generator) -> float:
    chosen = rng.choice(len(examples), size=min(batch_size, len(examples)), replace=False)
    model.train()
    loss = model(**answer_batch([examples[i] for i in sorted(chosen)], pad_id, model.device)).loss
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    model.eval()
    return loss.item()


def run(
    learner: str,
    model,
    tok,
    d0_items: Sequence[Item],
    settings: RunSettings,
    *,
    seed: int,
    score: Callable[[object, int], list[dict]],
    log: Callable[[str], None] = print,
) -> tuple[list[dict], list[dict]]:
    """Train ``model`` in place with ``learner`` on ``d0_items``; ``score(model, checkpoint)`` gives the
    rows of one checkpoint. Returns (score rows with ``learner`` and ``checkpoint``, one progress row per
    update: update, loss or reward, seconds)."""
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {LEARNERS}, got {learner!r}")
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=0.0)
    references = [prompts.example(tok, item.problem) for item in d0_items]
    grpo = learners.GRPOSettings(
        group=settings.group,
        lr=settings.lr,
        clip=settings.clip,
        temperature=settings.temperature,
        max_new_tokens=settings.max_new_tokens,
    )
    kept: list = []
    rows, progress = [], []
    start = time.perf_counter()
    for update in range(max(settings.checkpoints) + 1):
        if update in settings.checkpoints:
            found = score(model, update)
            rows += [{"learner": learner, "checkpoint": update, **row} for row in found]
            d0 = [r["correct"] / r["samples"] for r in found if r["variant"] == "D0"]
            reached = f"D0 pass@1 {np.mean(d0):.3f}" if d0 else "scored"
            log(f"{learner} update {update}: {reached} ({time.perf_counter() - start:.0f} s)")
        if update == max(settings.checkpoints):
            break
        if learner == "sft":
            value = _supervised_update(model, optimizer, references, settings.batch_size, pad_id(tok), rng)
        elif learner == "rft":
            if update % settings.steps_per_round == 0:
                found = learners.rft_examples(
                    model,
                    tok,
                    d0_items,
                    samples=settings.samples,
                    max_new_tokens=settings.max_new_tokens,
                    temperature=settings.temperature,
                    seed=seed + update,
                )
                kept = found or kept
            value = (
                _supervised_update(model, optimizer, kept, settings.batch_size, pad_id(tok), rng)
                if kept
                else float("nan")
            )
        else:
            value = learners.grpo_step(model, tok, optimizer, d0_items, grpo, seed + update)["reward"]
        progress.append(
            {"learner": learner, "update": update + 1, "value": value, "seconds": time.perf_counter() - start}
        )
    return rows, progress
