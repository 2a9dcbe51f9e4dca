"""The two-turn dialogue as token ids: first-turn prompt ``x0``, answer ``y``, critique ``c0`` and the
second-turn prompt ``x1 = [x0, y0, c0]`` (spec: "Setting").

    x0 = <bos> problem words <sep>
    y  = answer words <eos>
    x1 = x0 + y0 (ending in <eos>) + feedback + critique words + <sep>

Feedback modelling predicts the critique words after ``x0 + y0 + feedback`` (:func:`feedback_example`), so
its loss covers the critique's tokens only. Evaluation is single-turn: it calls :func:`first_prompt` and
never :func:`second_prompt`. Built here: a word-level tokenizer over the task's closed vocabulary
(:func:`icml26.common.lm.tokenizer.task_tokenizer`). A user's tokenizer (paper scale) writes each word in as
many tokens as it needs; <bos> and <sep> are then what :func:`~icml26.common.lm.tokenizer.bos_ids` and
:func:`~icml26.common.lm.tokenizer.sep_ids` give, and the answer budget is counted in its tokens
(:func:`answer_budget`). The toolkit (and so ``transformers``) is imported inside the functions that need it.
"""

from __future__ import annotations

from .tasks import Problem, Task

FEEDBACK = "feedback"


def tokenizer(task: Task):
    from icml26.common.lm.tokenizer import task_tokenizer

    return task_tokenizer(sorted(task.symbols() | {FEEDBACK}))


def _encode(tok, words, after_text: bool = False) -> list[int]:
    """Ids of ``words``; ``after_text``: they continue a line, so a tokenizer that keeps spaces (GPT-2's) reads
    ``2 feedback high`` rather than ``2feedbackhigh`` (the word-level tokenizer ignores the leading space)."""
    from icml26.common.lm.tokenizer import encode

    return encode(tok, (" " if after_text else "") + " ".join(words))


def first_prompt(tok, problem: Problem) -> list[int]:
    from icml26.common.lm.tokenizer import bos_ids, sep_ids

    return [*bos_ids(tok), *_encode(tok, problem.words), *sep_ids(tok)]


def answer_ids(tok, words: list[str]) -> list[int]:
    return [*_encode(tok, words), tok.eos_token_id]


def closed(tok, answer: list[int]) -> list[int]:
    """An answer as it stands in ``x1``: ending in <eos> even when generation stopped at the length limit."""
    return list(answer) if answer and answer[-1] == tok.eos_token_id else [*answer, tok.eos_token_id]


def feedback_example(tok, problem: Problem, answer: list[int], critique: list[str]) -> tuple[list[int], list[int]]:
    """(context ``x0 + y0 + feedback``, the critique's ids): what feedback modelling predicts."""
    context = [*first_prompt(tok, problem), *closed(tok, answer), *_encode(tok, [FEEDBACK], after_text=True)]
    return context, _encode(tok, critique, after_text=True)


def second_prompt(tok, problem: Problem, answer: list[int], critique: list[str]) -> list[int]:
    from icml26.common.lm.tokenizer import sep_ids

    context, words = feedback_example(tok, problem, answer, critique)
    return [*context, *words, *sep_ids(tok)]


def answer_words(tok, ids: list[int]) -> list[str]:
    """The words a model wrote (special tokens dropped), for the critic."""
    from icml26.common.lm.tokenizer import decode

    return decode(tok, ids).split()


def check_reads(tok, task: Task, folder: str) -> None:
    """A user's tokenizer must write and read back the task's words (one line naming the checkpoint folder
    otherwise)."""
    from icml26.common.lm.tokenizer import check_reads as reads

    reads(tok, task.symbols() | {FEEDBACK}, folder, language=f"the {task.name} task")


def answer_budget(tok, task: Task) -> int:
    """New tokens any well-formed answer and its <eos> fit in: the answer's words times the most tokens one answer
    word takes (first, or after a space), plus one. Exact for the word-level tokenizer (words + 1); an upper bound
    for a tokenizer that splits text at spaces before merging (GPT-2's, Qwen's)."""
    from icml26.common.lm.tokenizer import encode

    most = max(len(encode(tok, text)) for word in task.answer_symbols() for text in (word, f" {word}"))
    return task.answer_words() * most + 1


def longest_second_prompt(task: str, settings: dict) -> int:
    """Positions a second-turn prompt and its answer can need: <bos>, the problem's words, <sep>, the first
    answer (with <eos>), ``feedback``, the critique (at most one word per problem word), <sep>, the answer."""
    words = settings["constraints"][1] if task == "permutation" else settings["length"]
    answer = (settings["n"] if task == "permutation" else settings["length"]) + 1
    return 1 + words + 1 + answer + 1 + words + 1 + answer
