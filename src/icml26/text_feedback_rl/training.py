"""The RL methods of the spec and one run of a method from the warm-started policy.

Methods (:data:`METHODS`), all GRPO with the toolkit's clipped surrogate, group advantages (scaled by the
group's standard deviation) and k3 KL to the warm-started policy:

- ``grpo_single``: first turn only, scalar reward ``r0``;
- ``grpo_multi``: both turns, trajectory return ``r0 + r1`` as every token's advantage source, the
  surrogate on ``y0 | x0`` plus the surrogate on ``y1 | x1``;
- ``sd``: ``grpo_multi`` plus ``sd_weight`` times the self-distillation term on ``y1 | x0``;
- ``fm``: ``grpo_multi`` plus ``fm_weight`` times the feedback-modelling loss;
- ``sd_fm``: both terms;
- ``sd_turn2_baseline``, ``sd_importance``: ``sd`` with the ablations' advantage or weight.

Ours, where the spec is silent: SD and FM are *added to* multi-turn GRPO (the spec says so for FM; for SD it
keeps the second turn learning, and makes ``grpo_multi`` the one-term ablation of both), one update per batch
(the ratio is 1 and the clip only shapes the gradient), Adam with a constant learning rate.
Imports ``transformers`` (through the toolkit): import inside rule functions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from icml26.common.lm.policy_gradient import clipped_surrogate, group_advantages
from icml26.common.lm.sampling import continuation_logprobs, generate
from icml26.common.lm.tokenizer import pad_id

from . import dialogue, objectives
from .tasks import Problem, Task


@dataclass(frozen=True)
class Method:
    turns: int = 2
    sd: str | None = None  # "first_turn" or "second_turn": which baseline the SD advantage uses
    importance: bool = False  # SD weighted by the full sequence ratio π(y1|x0)/π(y1|x1)
    fm: bool = False


METHODS = {
    "grpo_single": Method(turns=1),
    "grpo_multi": Method(),
    "sd": Method(sd="first_turn"),
    "fm": Method(fm=True),
    "sd_fm": Method(sd="first_turn", fm=True),
    "sd_turn2_baseline": Method(sd="second_turn"),
    "sd_importance": Method(sd="first_turn", importance=True),
}


@dataclass(frozen=True)
class RLSettings:
    """A config's ``rl`` block."""

    steps: int = 100
    prompts: int = 8  # problems per update
    group: int = 8  # first-turn answers per problem
    lr: float = 1e-3
    clip: float = 0.2
    kl_coef: float = 0.02
    temperature: float = 1.0
    sd_weight: float = 1.0
    fm_weight: float = 1.0
    eval_every: int = 20


def _surrogate(model, reference, prompts, continuations, advantages, settings: RLSettings, pad_id: int):
    logprobs, mask = continuation_logprobs(model, prompts, continuations, pad_id)
    ref = None
    if settings.kl_coef:
        with torch.no_grad():
            ref, _ = continuation_logprobs(reference, prompts, continuations, pad_id)
    loss = clipped_surrogate(
        logprobs, logprobs.detach(), advantages, mask, clip=settings.clip, kl_coef=settings.kl_coef, ref_logprobs=ref
    )
    return loss, logprobs, mask


def rl_step(
    model,
    reference,
    tok,
    task: Task,
    problems: Sequence[Problem],
    method: Method,
    settings: RLSettings,
    optimizer,
    *,
    max_new_tokens: int,
    seed: int,
) -> dict[str, float]:
    """One update of ``method`` on ``problems``: roll out, score with the critic, one optimizer step.
    Returns the batch's rewards, loss terms and the seconds of each phase."""
    group, pad = settings.group, pad_id(tok)
    clock = time.perf_counter()
    x0 = [dialogue.first_prompt(tok, p) for p in problems for _ in range(group)]
    owner = [p for p in problems for _ in range(group)]

    def sample(prompts, offset):
        out = generate(
            model,
            prompts,
            max_new_tokens=max_new_tokens,
            stop_ids=[tok.eos_token_id],
            pad_id=pad,
            temperature=settings.temperature,
            seed=seed + offset,
        )
        return out.continuations()

    y0 = sample(x0, 0)
    tokens = sum(len(y) for y in y0)
    rollout = time.perf_counter() - clock
    words0 = [dialogue.answer_words(tok, y) for y in y0]
    r0 = torch.tensor([task.reward(p, w) for p, w in zip(owner, words0)])
    c0 = [task.critique(p, w) for p, w in zip(owner, words0)]
    scoring = time.perf_counter() - clock - rollout
    stats = {"reward_first": r0.mean().item()}
    if method.turns == 2:
        clock2 = time.perf_counter()
        x1 = [dialogue.second_prompt(tok, p, y, c) for p, y, c in zip(owner, y0, c0)]
        y1 = sample(x1, 1)
        tokens += sum(len(y) for y in y1)
        rollout += time.perf_counter() - clock2
        clock2 = time.perf_counter()
        r1 = torch.tensor([task.reward(p, dialogue.answer_words(tok, y)) for p, y in zip(owner, y1)])
        scoring += time.perf_counter() - clock2
        stats["reward_second"] = r1.mean().item()
    clock = time.perf_counter()
    model.train()
    if method.turns == 1:
        loss, _, _ = _surrogate(model, reference, x0, y0, group_advantages(r0, group), settings, pad)
    else:
        advantages = group_advantages(r0 + r1, group)
        first, _, _ = _surrogate(model, reference, x0, y0, advantages, settings, pad)
        second, logprobs_x1, mask_x1 = _surrogate(model, reference, x1, y1, advantages, settings, pad)
        loss = first + second
    if method.sd:
        logprobs_x0, mask = continuation_logprobs(model, x0, y1, pad)
        advantages = (
            objectives.first_turn_advantages(r1, r0, group)
            if method.sd == "first_turn"
            else objectives.second_turn_advantages(r1, group)
        )
        weights = objectives.importance_weights(logprobs_x0, logprobs_x1, mask, mask_x1) if method.importance else None
        distill = objectives.self_distillation_loss(logprobs_x0, mask, advantages, weights)
        loss = loss + settings.sd_weight * distill
        stats["sd_loss"] = distill.item()
    if method.fm:
        pairs = [dialogue.feedback_example(tok, p, y, c) for p, y, c in zip(owner, y0, c0)]
        logprobs, mask = continuation_logprobs(model, [a for a, _ in pairs], [b for _, b in pairs], pad)
        modelling = objectives.feedback_loss(logprobs, mask)
        loss = loss + settings.fm_weight * modelling
        stats["fm_loss"] = modelling.item()
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    model.eval()
    stats |= {
        "loss": loss.item(),
        "rollout_s": rollout,
        "scoring_s": scoring,
        "update_s": time.perf_counter() - clock,
        "tokens": tokens,
    }
    return stats


def run(
    method_name: str,
    model,
    reference,
    tok,
    task: Task,
    train: Sequence[Problem],
    settings: RLSettings,
    *,
    max_new_tokens: int,
    seed: int,
    evaluate: Callable[[object, int], dict],
    log: Callable[[str], None] = print,
) -> tuple[list[dict], list[dict]]:
    """Train ``model`` in place with one method; ``evaluate(model, step)`` gives a learning-curve point every
    ``eval_every`` steps (and at 0 and the end). Returns (curve points, one progress row per step)."""
    if method_name not in METHODS:
        raise ValueError(f"unknown method {method_name!r} (one of {', '.join(METHODS)})")
    method = METHODS[method_name]
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.lr)
    curve, progress = [], []
    start = time.perf_counter()
    for step in range(settings.steps + 1):
        if step % settings.eval_every == 0 or step == settings.steps:
            point = {"step": step, **evaluate(model, step)}
            curve.append(point)
            shown = ", ".join(f"{k} {v:.3f}" for k, v in point.items() if k != "step")
            log(f"{method_name} step {step}/{settings.steps}: {shown} ({time.perf_counter() - start:.0f} s)")
        if step == settings.steps:
            break
        chosen = rng.choice(len(train), size=settings.prompts, replace=False)
        stats = rl_step(
            model,
            reference,
            tok,
            task,
            [train[i] for i in chosen],
            method,
            settings,
            optimizer,
            max_new_tokens=max_new_tokens,
            seed=seed * 100_003 + 2 * step,
        )
        progress.append({"step": step + 1, **stats})
    return curve, progress
