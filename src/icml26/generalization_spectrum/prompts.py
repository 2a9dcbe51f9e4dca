"""The task language the models read and write, and its tokenizer.

A prompt is ``<bos> statement marker <sep>``, where the marker names the answer's DSL (``write-prefix`` for
DSL-A, ``write-postfix`` for DSL-B); the answer is the program's text then ``<eos>``. An in-context prompt
(the ICL learner) puts one solved problem first: ``<bos> statement marker <sep> program <eos> statement
marker <sep>``. Word-level tokenizer over the closed vocabulary (narratives, DSL tokens, numbers, markers;
:func:`icml26.common.lm.tokenizer.task_tokenizer`). Imports ``transformers`` (through the LM toolkit):
import this module inside the rule functions that need it.
"""

from __future__ import annotations

from icml26.common.lm.tokenizer import decode, encode, task_tokenizer

from .narratives import vocabulary
from .variants import Problem
from .world import ARGUMENTS, PRIMITIVES

MARKERS = {"A": "write-prefix", "B": "write-postfix"}
DSL_TOKENS = ("(", ")", "x", *PRIMITIVES)


def symbols() -> set[str]:
    numbers = {str(k) for ks in ARGUMENTS.values() for k in ks}
    return vocabulary("A") | vocabulary("B") | set(DSL_TOKENS) | numbers | set(MARKERS.values())


def tokenizer():
    return task_tokenizer(sorted(symbols()))


def _query(tok, problem: Problem) -> list[int]:
    return encode(tok, f"{problem.statement} {MARKERS[problem.dsl]}") + [tok.sep_token_id]


def example(tok, problem: Problem, demonstration: Problem | None = None) -> tuple[list[int], list[int]]:
    """(prompt ids, answer ids) of ``problem``, with ``demonstration`` solved in context before it."""
    prompt = [tok.bos_token_id]
    if demonstration is not None:
        prompt += _query(tok, demonstration) + encode(tok, demonstration.answer) + [tok.eos_token_id]
    return prompt + _query(tok, problem), encode(tok, problem.answer) + [tok.eos_token_id]


def program_text(tok, ids: list[int]) -> str:
    """The program a model wrote (special tokens dropped), for the interpreters to judge."""
    return decode(tok, ids)
