"""The learners that turn one seed example into knowledge, and the base model they start from.

- *pretraining* (the base model): supervised next-token training on every corpus problem's answer
  (:func:`pretraining_examples`); a share of the examples carry a solved problem in context: half of those
  the same problem told otherwise (the same worked examples in another narrative or DSL), half an unrelated
  one. Ours: with unrelated demonstrations only, or related ones with other worked examples, a model this
  small learnt to ignore the context (ICL pass@1 on D0, a copy of the demonstration, stayed at the base
  model's ~0.01), and ICL would measure nothing;
- *SFT*: the same loss on the seeds' D0 references;
- *RFT* (rejection-sampling fine-tuning): sample programs for each D0 prompt from the current model,
  keep those that pass the hidden tests, fine-tune on them (:func:`rft_examples`);
- *RL*: GRPO with the execution reward (1 when the program passes every hidden test) on the D0 prompts
  (:func:`grpo_step`, the toolkit's clipped surrogate and group advantages);
- *ICL*: no update; each variant is asked with its seed's D0 problem solved in context.

All of them import ``transformers`` (through the toolkit): import this module inside rule functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from icml26.common.lm.policy_gradient import clipped_surrogate, group_advantages
from icml26.common.lm.sampling import continuation_logprobs
from icml26.common.lm.tokenizer import pad_id

from . import evaluate, prompts
from .evaluate import Item
from .narratives import NARRATIVES
from .variants import Problem
from .world import DSLS, passes


def pretraining_examples(
    tok, corpus: Sequence[Problem], demonstration_share: float, related_share: float, rng: np.random.Generator
) -> list[tuple[list[int], list[int]]]:
    """One (prompt, answer) example per corpus problem; a ``demonstration_share`` of them with a problem solved
    before it: with probability ``related_share`` the same problem told otherwise (its worked examples in
    another narrative-DSL pair, as D1 and D2 are to D0), else another corpus problem drawn at random."""
    pairs = [(n, d) for n in NARRATIVES for d in DSLS]
    examples = []
    for i, problem in enumerate(corpus):
        demo = None
        if rng.random() < demonstration_share:
            if rng.random() < related_share:
                others = [pair for pair in pairs if pair != (problem.narrative, problem.dsl)]
                narrative, dsl = others[int(rng.integers(len(others)))]
                demo = Problem(problem.program, problem.inputs, narrative, dsl)
            else:
                j = int(rng.integers(len(corpus)))
                demo = corpus[j] if j != i else None
        examples.append(prompts.example(tok, problem, demo))
    return examples


def rewards(tok, items: Sequence[Item], continuations: Sequence[Sequence[int]], samples: int) -> torch.Tensor:
    """1.0 for a continuation that is a program passing every hidden test of its item, else 0.0."""
    return torch.tensor(
        [
            float(passes(prompts.program_text(tok, ids), items[i // samples].problem.dsl, items[i // samples].tests))
            for i, ids in enumerate(continuations)
        ]
    )


def rft_examples(
    model, tok, items: Sequence[Item], *, samples: int, max_new_tokens: int, temperature: float, seed: int
) -> list[tuple[list[int], list[int]]]:
    """The correct programs among ``samples`` sampled for each item, as fine-tuning examples with the prompts
    they were sampled from."""
    prompts_, continuations = evaluate.sample_programs(
        model, tok, items, samples=samples, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed
    )
    reward = rewards(tok, items, continuations, samples)
    return [(prompts_[i], continuations[i]) for i in np.flatnonzero(reward.numpy() > 0)]


@dataclass(frozen=True)
class GRPOSettings:
    group: int = 8  # programs sampled per prompt
    lr: float = 1e-4
    clip: float = 0.2
    temperature: float = 1.0
    max_new_tokens: int = 24


def grpo_step(model, tok, optimizer, items: Sequence[Item], settings: GRPOSettings, seed: int) -> dict:
    """One GRPO update on ``items``: sample a group per prompt, reward by execution, one clipped-surrogate
    step (a single update per batch, so the ratio is 1 and the clip only matters for the gradient's form)."""
    prompts_, continuations = evaluate.sample_programs(
        model,
        tok,
        items,
        samples=settings.group,
        max_new_tokens=settings.max_new_tokens,
        temperature=settings.temperature,
        seed=seed,
    )
    reward = rewards(tok, items, continuations, settings.group)
    advantages = group_advantages(reward, settings.group)
    model.train()
    logprobs, mask = continuation_logprobs(model, prompts_, continuations, pad_id(tok))
    loss = clipped_surrogate(logprobs, logprobs.detach(), advantages, mask, clip=settings.clip)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    model.eval()
    return {"loss": loss.item(), "reward": reward.mean().item()}
