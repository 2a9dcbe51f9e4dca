"""Batched sampling with per-token log-probabilities, and the log-probability of given continuations.

Generation is ``model.generate`` (KV cache, stop tokens, temperature, top-k) on left-padded prompts; the
log-probability of each drawn token is read from the same step's processed scores, i.e. under the
distribution it was actually drawn from. At temperature 1 without top-k that is the model's own
log-probability, which :func:`continuation_logprobs` recomputes (with gradients) for a policy update.

The log-probabilities are gathered step by step (:class:`DrawnLogprobs`, a logits processor that also applies
transformers' own temperature and top-k warpers, so it sees the scores the token is drawn from): asking
``generate`` for ``output_scores`` instead keeps every step's full-vocabulary scores and stacks them, which at a
real tokenizer's 32,000 tokens cost a third more time than generation itself and memory growing with
vocabulary x steps (issue 56). The raw logits are kept only when asked for (``raw_logits=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from transformers import GenerationConfig, LogitsProcessor, LogitsProcessorList, PreTrainedModel
from transformers.generation.logits_process import TemperatureLogitsWarper, TopKLogitsWarper

from .model import context_length


@dataclass
class Samples:
    """Generated continuations, right-padded: ``tokens[i, :lengths[i]]`` is row i's continuation (its stop
    token included when it stopped); ``logprobs`` the sampling distribution's log-probability of each."""

    tokens: torch.Tensor  # [batch, steps] long
    logprobs: torch.Tensor  # [batch, steps] float, 0 past a row's length
    mask: torch.Tensor  # [batch, steps] bool, True on generated tokens
    raw_logits: torch.Tensor | None = None  # [batch, steps, vocab] before temperature / top-k, when asked for

    @property
    def lengths(self) -> torch.Tensor:
        return self.mask.sum(dim=1)

    def continuations(self) -> list[list[int]]:
        return [row[:n].tolist() for row, n in zip(self.tokens, self.lengths.tolist())]


class DrawnLogprobs(LogitsProcessor):
    """Applies the sampling warpers and records the log-probability of each drawn token under the warped scores.

    A step's token is only known at the next call (``input_ids`` then ends with it) or, for the last step, from
    the finished sequences (:meth:`finish`), so one step's scores are held until then: memory independent of the
    number of steps.
    """

    def __init__(self, warpers: Sequence[LogitsProcessor] = ()):
        self.warpers = list(warpers)
        self.pending: torch.Tensor | None = None  # the last step's warped scores, awaiting its token
        self.logprobs: list[torch.Tensor] = []

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        self._settle(input_ids[:, -1])
        for warper in self.warpers:
            scores = warper(input_ids, scores)
        self.pending = scores
        return scores

    def _settle(self, drawn: torch.Tensor) -> None:
        if self.pending is not None:
            self.logprobs.append(torch.log_softmax(self.pending, dim=-1).gather(-1, drawn[:, None]).squeeze(-1))
            self.pending = None

    def finish(self, new_tokens: torch.Tensor) -> torch.Tensor:
        """``[batch, steps]`` log-probabilities of ``new_tokens``, the continuations ``generate`` returned."""
        self._settle(new_tokens[:, -1])
        if len(self.logprobs) != new_tokens.shape[1]:
            raise RuntimeError(f"{len(self.logprobs)} steps scored for {new_tokens.shape[1]} generated tokens")
        return torch.stack(self.logprobs, dim=1)


def check_fits(model: PreTrainedModel, prompt_tokens: int, new_tokens: int) -> None:
    """A prompt that does not fit the context is an error naming both lengths, never a silent truncation."""
    context = context_length(model)
    if prompt_tokens + new_tokens > context:
        raise ValueError(
            f"a prompt of {prompt_tokens} tokens plus {new_tokens} new tokens does not fit the "
            f"model's context of {context} tokens"
        )


def left_padded(prompts: Sequence[Sequence[int]], pad_id: int, device) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, prompt in enumerate(prompts):
        if prompt:
            ids[row, width - len(prompt) :] = torch.as_tensor(prompt)
            mask[row, width - len(prompt) :] = 1
    return ids.to(device), mask.to(device)


@torch.no_grad()
def generate(
    model: PreTrainedModel,
    prompts: Sequence[Sequence[int]],
    *,
    max_new_tokens: int,
    stop_ids: Sequence[int],
    pad_id: int,
    greedy: bool = False,
    temperature: float = 1.0,
    top_k: int = 0,
    seed: int | None = None,
    raw_logits: bool = False,
) -> Samples:
    """Continue every prompt (token ids) until a stop token or ``max_new_tokens``.

    Sampling draws from torch's global generator; ``seed`` reseeds it in a forked RNG for this call only,
    so a run is reproducible without disturbing the caller's random stream. ``raw_logits`` keeps every step's
    logits (``[batch, steps, vocab]``: for inspection and tests, not for training loops).
    """
    if not prompts or any(len(p) == 0 for p in prompts):
        raise ValueError("every prompt needs at least one token (start it with the bos token)")
    check_fits(model, max(len(p) for p in prompts), max_new_tokens)
    if not greedy and temperature <= 0:
        raise ValueError(f"temperature must be > 0 when sampling, got {temperature}")
    ids, attention = left_padded(prompts, pad_id, model.device)
    warpers = [] if greedy else [TemperatureLogitsWarper(temperature)] if temperature != 1.0 else []
    if top_k and not greedy:
        warpers.append(TopKLogitsWarper(top_k=top_k, min_tokens_to_keep=1))  # as generate would build them
    drawn = DrawnLogprobs(warpers)
    config = GenerationConfig(
        max_new_tokens=max_new_tokens,
        do_sample=not greedy,
        temperature=None,  # applied by ``drawn``, so the log-probabilities see them
        top_k=0,  # not None: generate reads an unset top_k as its default, 50
        top_p=None,
        eos_token_id=list(stop_ids),
        pad_token_id=pad_id,
        return_dict_in_generate=True,
        output_logits=raw_logits,
    )
    with torch.random.fork_rng(devices=[] if model.device.type == "cpu" else [model.device]):
        if seed is not None:
            torch.manual_seed(seed)
        out = model.generate(
            input_ids=ids,
            attention_mask=attention,
            generation_config=config,
            logits_processor=LogitsProcessorList([drawn]),
        )
    tokens = out.sequences[:, ids.shape[1] :]
    logprobs = drawn.finish(tokens)
    mask = _up_to_first_stop(tokens, stop_ids)
    return Samples(
        tokens=tokens.masked_fill(~mask, pad_id),
        logprobs=logprobs.masked_fill(~mask, 0.0),
        mask=mask,
        raw_logits=torch.stack(out.logits, dim=1).float() if raw_logits else None,
    )


def _up_to_first_stop(tokens: torch.Tensor, stop_ids: Sequence[int]) -> torch.Tensor:
    is_stop = torch.isin(tokens, torch.as_tensor(list(stop_ids), device=tokens.device))
    stops_before = torch.cumsum(is_stop.long(), dim=1) - is_stop.long()  # stop tokens strictly before
    return stops_before == 0


def continuation_logprobs(
    model: PreTrainedModel, prompts: Sequence[Sequence[int]], continuations: Sequence[Sequence[int]], pad_id: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probabilities of each continuation given its prompt (the prompt itself is not scored).

    Returns ``(logprobs, mask)``, both ``[batch, longest continuation]``, right-padded; differentiable, so
    ``(logprobs * mask).sum(1)`` is the sequence log-probability a policy gradient needs.
    """
    if len(prompts) != len(continuations):
        raise ValueError(f"{len(prompts)} prompts but {len(continuations)} continuations")
    lengths = [len(p) + len(c) for p, c in zip(prompts, continuations)]
    check_fits(model, max(len(p) for p in prompts), max(len(c) for c in continuations))
    width, longest = max(lengths), max(len(c) for c in continuations)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, (prompt, continuation) in enumerate(zip(prompts, continuations)):
        ids[row, : lengths[row]] = torch.as_tensor([*prompt, *continuation])
        attention[row, : lengths[row]] = 1
    ids, attention = ids.to(model.device), attention.to(model.device)
    logits = model(input_ids=ids, attention_mask=attention).logits.float()
    token_logprobs = torch.log_softmax(logits[:, :-1], dim=-1).gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    steps = torch.arange(longest, device=ids.device)
    starts = torch.as_tensor([len(p) - 1 for p in prompts], device=ids.device)
    counts = torch.as_tensor([len(c) for c in continuations], device=ids.device)
    mask = steps.unsqueeze(0) < counts.unsqueeze(1)
    index = (starts.unsqueeze(1) + steps.unsqueeze(0)).clamp(max=width - 2)
    return token_logprobs.gather(1, index).masked_fill(~mask, 0.0), mask
