"""Scoring a model on problems: sample programs, run each on the problem's hidden tests with the
interpreter of its DSL (never the model's word for it), count the correct ones.

One row per problem: ``correct`` of ``samples`` programs pass every hidden test (pass@1 = correct /
samples; :mod:`.passk` for k > 1). Sampling goes through the LM toolkit in batches of about ``batch``
prompts, each seeded with ``seed`` plus the index of its first item, so a rerun gives the same scores.
Imports ``transformers`` (through the toolkit): import inside the rule functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from icml26.common.lm.sampling import generate
from icml26.common.lm.tokenizer import pad_id

from . import prompts
from .variants import Problem
from .world import passes

Tests = list[tuple[list[int], list[int]]]


@dataclass(frozen=True)
class Item:
    """One problem to score: where it comes from, the problem, its hidden tests, an optional demonstration."""

    seed: int
    variant: str
    problem: Problem
    tests: Tests
    demonstration: Problem | None = None


def judge(texts: Sequence[str], problem: Problem, tests: Tests) -> int:
    """How many of ``texts`` are programs in the problem's DSL that pass every hidden test."""
    return sum(passes(text, problem.dsl, tests) for text in texts)


def sample_programs(
    model, tok, items: Sequence[Item], *, samples: int, max_new_tokens: int, temperature: float, seed: int
) -> tuple[list[list[int]], list[list[int]]]:
    """``samples`` continuations for each item's prompt: (prompts, continuations), item-major."""
    prompts_ = [prompts.example(tok, item.problem, item.demonstration)[0] for item in items for _ in range(samples)]
    out = generate(
        model,
        prompts_,
        max_new_tokens=max_new_tokens,
        stop_ids=[tok.eos_token_id],
        pad_id=pad_id(tok),
        temperature=temperature,
        seed=seed,
    )
    return prompts_, out.continuations()


def score(
    model,
    tok,
    items: Sequence[Item],
    *,
    samples: int,
    max_new_tokens: int,
    temperature: float,
    seed: int,
    batch: int = 64,
) -> list[dict]:
    """Rows (seed, variant, samples, correct) for every item, ``samples`` programs sampled for each."""
    rows = []
    per_call = max(1, batch // samples)
    for start in range(0, len(items), per_call):
        chunk = items[start : start + per_call]
        _, continuations = sample_programs(
            model,
            tok,
            chunk,
            samples=samples,
            max_new_tokens=max_new_tokens,
            temperature=temperature,
            seed=seed + start,
        )
        texts = [prompts.program_text(tok, ids) for ids in continuations]
        for i, item in enumerate(chunk):
            mine = texts[i * samples : (i + 1) * samples]
            rows.append(
                {
                    "seed": item.seed,
                    "variant": item.variant,
                    "samples": samples,
                    "correct": judge(mine, item.problem, item.tests),
                }
            )
    return rows
