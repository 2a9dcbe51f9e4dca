"""The two-turn dialogue as token ids: first-turn prompt ``x0``, answer ``y``, critique ``c0`` and the
second-turn prompt ``x1 = [x0, y0, c0]`` (spec: "Setting").

    x0 = <bos> problem words <sep>
    y  = answer words <eos>
    x1 = x0 + y0 (ending in <eos>) + feedback + critique words + <sep>

Feedback modelling predicts the critique words after ``x0 + y0 + feedback`` (:func:`feedback_example`), so
its loss covers the critique's tokens only. Evaluation is single-turn: it calls :func:`first_prompt` and
never :func:`second_prompt`. A word-level tokenizer over the task's closed vocabulary
(:func:`icml26.common.lm.tokenizer.task_tokenizer`); the toolkit (and so ``transformers``) is imported inside
the functions that need it.
"""

from __future__ import annotations

from .tasks import Problem, Task

FEEDBACK = "feedback"


def tokenizer(task: Task):
    from icml26.common.lm.tokenizer import task_tokenizer

    return task_tokenizer(sorted(task.symbols() | {FEEDBACK}))


def _encode(tok, words) -> list[int]:
    from icml26.common.lm.tokenizer import encode

    return encode(tok, " ".join(words))


def first_prompt(tok, problem: Problem) -> list[int]:
    return [tok.bos_token_id, *_encode(tok, problem.words), tok.sep_token_id]


def answer_ids(tok, words: list[str]) -> list[int]:
    return [*_encode(tok, words), tok.eos_token_id]


def closed(tok, answer: list[int]) -> list[int]:
    """An answer as it stands in ``x1``: ending in <eos> even when generation stopped at the length limit."""
    return list(answer) if answer and answer[-1] == tok.eos_token_id else [*answer, tok.eos_token_id]


def feedback_example(tok, problem: Problem, answer: list[int], critique: list[str]) -> tuple[list[int], list[int]]:
    """(context ``x0 + y0 + feedback``, the critique's ids): what feedback modelling predicts."""
    return [*first_prompt(tok, problem), *closed(tok, answer), tok.convert_tokens_to_ids(FEEDBACK)], _encode(
        tok, critique
    )


def second_prompt(tok, problem: Problem, answer: list[int], critique: list[str]) -> list[int]:
    context, words = feedback_example(tok, problem, answer, critique)
    return [*context, *words, tok.sep_token_id]


def answer_words(tok, ids: list[int]) -> list[str]:
    """The words a model wrote (special tokens dropped), for the critic."""
    from icml26.common.lm.tokenizer import decode

    return decode(tok, ids).split()


def check_covers(tok, task: Task, folder: str) -> None:
    """A user's tokenizer must cover the task's words (one line naming the checkpoint folder otherwise)."""
    from icml26.common.lm.tokenizer import check_covers as covers

    covers(
        tok,
        task.symbols() | {FEEDBACK},
        folder,
        language=f"the {task.name} task",
        writer="icml26.text_feedback_rl.dialogue.tokenizer()",
    )


def longest_second_prompt(task: str, settings: dict) -> int:
    """Positions a second-turn prompt and its answer can need: <bos>, the problem's words, <sep>, the first
    answer (with <eos>), ``feedback``, the critique (at most one word per problem word), <sep>, the answer."""
    words = settings["constraints"][1] if task == "permutation" else settings["length"]
    answer = (settings["n"] if task == "permutation" else settings["length"]) + 1
    return 1 + words + 1 + answer + 1 + words + 1 + answer
