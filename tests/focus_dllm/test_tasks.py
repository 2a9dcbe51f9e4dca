"""The task mixture: each task's answers are judged right, and a wrong one wrong."""

import numpy as np
import pytest

from icml26.focus_dllm import tasks as t


@pytest.mark.parametrize("task", t.TASKS)
def test_drawn_answers_are_correct_and_a_corrupted_one_is_not(task):
    rng = np.random.default_rng(0)
    for _ in range(50):
        example = t.draw(task, rng, length=4)
        assert t.correct(example, list(example.answer))
        assert all(tok in t.vocabulary() for tok in (*example.prompt, *example.answer))
    wrong = list(example.answer)
    wrong[-1] = {"copy": "z", "reverse": "z", "add": "x", "walk": wrong[-1], "pcfg": "the"}[task]
    if task == "walk":
        wrong.append("5")  # too long
    assert not t.correct(example, wrong)


def test_the_walk_accepts_any_valid_path_and_the_grammar_parses():
    example = t.Example("walk", ("<walk>", "9"), ("0", "1"))
    assert t.correct(example, ["8", "7"]) and t.correct(example, ["0", "9"]) and not t.correct(example, ["1", "2"])
    assert t.parses("the big cat sees the dog".split()) and t.parses("the bird runs".split())
    assert not t.parses("the cat the dog".split()) and not t.parses("the big big cat runs".split())
    added = t.draw("add", np.random.default_rng(1), 3)
    a, b = "".join(added.prompt[1:-1]).split("+")
    assert added.answer == tuple(str(int(a) + int(b)))
    assert t.vocabulary()[-1] == t.MASK
