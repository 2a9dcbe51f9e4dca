"""The task language the models read and write, and its tokenizer.

A prompt is ``<bos> statement marker <sep>``, where the marker names the answer's DSL (``write-prefix`` for
DSL-A, ``write-postfix`` for DSL-B); the answer is the program's text then ``<eos>``. An in-context prompt
(the ICL learner) puts one solved problem first: ``<bos> statement marker <sep> program <eos> statement
marker <sep>``. Built here: a word-level tokenizer over the closed vocabulary (narratives, DSL tokens,
numbers, markers; :func:`icml26.common.lm.tokenizer.task_tokenizer`). A user's tokenizer (paper scale) writes
each word in as many tokens as it needs, <bos> and <sep> being what
:func:`~icml26.common.lm.tokenizer.bos_ids` and :func:`~icml26.common.lm.tokenizer.sep_ids` give; the
generation budget must then hold the longest answer in its tokens (:func:`check_budget`). The toolkit (and so
``transformers``) is imported inside the functions that need it, so the config checks can read the prompt
bounds for free.
"""

from __future__ import annotations

from collections.abc import Iterable

from .narratives import vocabulary
from .variants import Problem
from .world import MAX_VALUE, PRIMITIVES

MARKERS = {"A": "write-prefix", "B": "write-postfix"}
DSL_TOKENS = ("(", ")", "x", *PRIMITIVES)


def symbols() -> set[str]:
    numbers = {str(k) for k in range(MAX_VALUE + 1)}  # example values and the primitives' arguments
    return vocabulary("A") | vocabulary("B") | set(DSL_TOKENS) | numbers | set(MARKERS.values())


def tokenizer():
    from icml26.common.lm.tokenizer import task_tokenizer

    return task_tokenizer(sorted(symbols()))


def _query(tok, problem: Problem) -> list[int]:
    from icml26.common.lm.tokenizer import encode, sep_ids

    return encode(tok, f"{problem.statement} {MARKERS[problem.dsl]}") + sep_ids(tok)


def example(tok, problem: Problem, demonstration: Problem | None = None) -> tuple[list[int], list[int]]:
    """(prompt ids, answer ids) of ``problem``, with ``demonstration`` solved in context before it."""
    from icml26.common.lm.tokenizer import bos_ids, encode

    prompt = bos_ids(tok)
    if demonstration is not None:
        prompt += _query(tok, demonstration) + encode(tok, demonstration.answer) + [tok.eos_token_id]
    return prompt + _query(tok, problem), encode(tok, problem.answer) + [tok.eos_token_id]


def program_text(tok, ids: list[int]) -> str:
    """The program a model wrote (special tokens dropped), for the interpreters to judge."""
    from icml26.common.lm.tokenizer import decode

    return decode(tok, ids)


def check_reads(tok, folder: str) -> None:
    """A user's tokenizer must write and read back the task language (one line naming the checkpoint folder
    otherwise)."""
    from icml26.common.lm.tokenizer import check_reads as reads

    reads(tok, symbols(), folder, language="the task language")


def check_budget(tok, problems: Iterable[Problem], budget: int, key: str, folder: str) -> None:
    """``budget`` (the config's ``key``) must hold the longest of the problems' answers and its <eos> in ``tok``'s
    tokens (one line naming both otherwise): a budget counted in a word-level tokenizer's tokens can be too
    small for a user's, and cut answers would be scored wrong."""
    from icml26.common.lm.tokenizer import answer_budget
    from icml26.common.lm.tokenizer import check_budget as fits

    fits(budget, answer_budget(tok, [p.answer for p in problems]), key, folder)


LONGEST_ANSWER = 14  # tokens of the longest program (three steps with arguments) plus <eos>


def longest_icl_prompt(examples: int) -> int:
    """An upper bound on an in-context prompt's tokens with ``examples`` worked examples per statement: <bos>,
    then twice a statement (at most 13 frame words and 18 per example: two lists of at most 7 values and
    their words), a marker and <sep>, with the demonstration's answer between."""
    return 1 + 2 * (13 + 18 * examples + 2) + LONGEST_ANSWER
