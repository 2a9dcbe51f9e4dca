"""Single-turn evaluation (the paper's test-time setting: ``x0 -> y``, no feedback) and, as a training
diagnostic only, the second turn's accuracy.

:func:`single_turn` never builds ``x1`` (a test replaces :func:`.dialogue.second_prompt` with a function that
fails and evaluates a model). Greedy accuracy is one answer per problem; sampled pass@1 is the mean reward of
``samples`` answers drawn at temperature ``temperature``. Generation goes through the LM toolkit in chunks of
``batch`` prompts, each chunk seeded with ``seed`` plus its offset, so a rerun gives the same scores.
Imports ``transformers`` (through the toolkit): import inside rule functions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from icml26.common.lm.sampling import generate
from icml26.common.lm.tokenizer import pad_id

from . import dialogue
from .tasks import Problem, Task


def answers(
    model,
    tok,
    prompts: Sequence[list[int]],
    *,
    max_new_tokens: int,
    greedy: bool,
    temperature: float,
    seed: int,
    batch: int = 256,
) -> list[list[int]]:
    """One continuation per prompt, generated in chunks of ``batch``."""
    found: list[list[int]] = []
    for start in range(0, len(prompts), batch):
        out = generate(
            model,
            prompts[start : start + batch],
            max_new_tokens=max_new_tokens,
            stop_ids=[tok.eos_token_id],
            pad_id=pad_id(tok),
            greedy=greedy,
            temperature=temperature,
            seed=seed + start,
        )
        found += out.continuations()
    return found


def _rewards(tok, task: Task, problems: Sequence[Problem], continuations: Sequence[list[int]]) -> np.ndarray:
    per = len(continuations) // len(problems)
    return np.array(
        [task.reward(problems[i // per], dialogue.answer_words(tok, ids)) for i, ids in enumerate(continuations)]
    )


def single_turn(
    model,
    tok,
    task: Task,
    problems: Sequence[Problem],
    *,
    samples: int,
    temperature: float,
    max_new_tokens: int,
    seed: int,
) -> dict[str, np.ndarray]:
    """Per problem: ``greedy`` (0/1) and ``sampled`` (mean reward of ``samples`` draws), from ``x0`` alone."""
    x0 = [dialogue.first_prompt(tok, p) for p in problems]
    greedy = _rewards(
        tok,
        task,
        problems,
        answers(model, tok, x0, max_new_tokens=max_new_tokens, greedy=True, temperature=1.0, seed=seed),
    )
    drawn = answers(
        model,
        tok,
        [x for x in x0 for _ in range(samples)],
        max_new_tokens=max_new_tokens,
        greedy=False,
        temperature=temperature,
        seed=seed + 1,
    )
    sampled = _rewards(tok, task, problems, drawn).reshape(len(problems), samples).mean(axis=1)
    return {"greedy": greedy, "sampled": sampled}


def second_turn(model, tok, task: Task, problems: Sequence[Problem], *, max_new_tokens: int, seed: int) -> np.ndarray:
    """Training diagnostic: greedy first answer, its critique, greedy revision; 0/1 per problem."""
    x0 = [dialogue.first_prompt(tok, p) for p in problems]
    y0 = answers(model, tok, x0, max_new_tokens=max_new_tokens, greedy=True, temperature=1.0, seed=seed)
    x1 = [
        dialogue.second_prompt(tok, p, y, task.critique(p, dialogue.answer_words(tok, y))) for p, y in zip(problems, y0)
    ]
    y1 = answers(model, tok, x1, max_new_tokens=max_new_tokens, greedy=True, temperature=1.0, seed=seed)
    return _rewards(tok, task, problems, y1)
