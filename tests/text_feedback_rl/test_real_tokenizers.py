"""The dialogue in a user's tokenizer (paper scale): task words split into several tokens, GPT-2's and Qwen2.5's
special-token conventions (a byte-level BPE replica, icml26.common.lm.replicas). Prompts read back as the task's
words, answers round-trip, and the answer budget holds every answer, where the old budget (one token per word)
could not."""

import numpy as np
import pytest

pytest.importorskip("transformers")

from icml26.common.lm.replicas import bpe_tokenizer
from icml26.common.lm.tokenizer import SEPARATOR, decode
from icml26.text_feedback_rl import dialogue
from icml26.text_feedback_rl.tasks import CodeTask, PermutationTask

TASKS = [PermutationTask(5, 3, 5), CodeTask(2)]


@pytest.fixture(scope="module", params=["gpt2", "qwen2"])
def flavour(request):
    return request.param


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_answers_fit_the_budget_in_a_tokenizer_that_splits_words(task, flavour):
    tok = bpe_tokenizer(task.symbols() | {dialogue.FEEDBACK}, flavour)
    dialogue.check_reads(tok, task, "/models/mine")
    rng = np.random.default_rng(0)
    problems = [task.draw(rng) for _ in range(200)]
    answers = [dialogue.answer_ids(tok, list(p.solution)) for p in problems]
    longest = max(len(a) for a in answers)
    assert longest > task.answer_words() + 1  # the word count would cut these answers short
    assert dialogue.answer_budget(tok, task) >= longest
    for problem, ids in zip(problems, answers):
        assert ids[-1] == tok.eos_token_id
        assert dialogue.answer_words(tok, ids) == list(problem.solution)  # read back as the critic reads it


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_prompts_read_back_as_the_task_words(task, flavour):
    tok = bpe_tokenizer(task.symbols() | {dialogue.FEEDBACK}, flavour)
    problem = task.draw(np.random.default_rng(1))
    x0 = dialogue.first_prompt(tok, problem)
    assert decode(tok, x0) == " ".join(problem.words) + SEPARATOR
    guess = task.random_answer(np.random.default_rng(2))
    critique = task.critique(problem, guess)
    y0 = dialogue.answer_ids(tok, guess)
    x1 = dialogue.second_prompt(tok, problem, y0, critique)
    assert x1[: len(x0) + len(y0)] == x0 + y0
    assert decode(tok, x1).split() == [*problem.words, *guess, dialogue.FEEDBACK, *critique]
    context, target = dialogue.feedback_example(tok, problem, y0, critique)
    assert decode(tok, target).split() == critique and x1 == [*context, *target, *x1[len(context) + len(target) :]]


def test_the_word_level_budget_is_unchanged():
    for task in TASKS:
        assert dialogue.answer_budget(dialogue.tokenizer(task), task) == task.answer_words() + 1
