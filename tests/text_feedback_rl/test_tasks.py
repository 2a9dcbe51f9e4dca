"""The critics (the spec's oracle: OK iff reward 1, exactly the violated constraints), revisions, tokenizer."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from icml26.text_feedback_rl import dialogue
from icml26.text_feedback_rl.tasks import MALFORMED, OK, CodeTask, PermutationTask, Problem, make_task

PERM = PermutationTask(n=5, low=3, high=5)


def test_constraints_read_positions_from_one_and_order_left_to_right():
    answer = ["C", "A", "E", "B", "D"]
    assert PERM.holds("pos(C)=1", answer) and not PERM.holds("pos(A)=1", answer)
    assert PERM.holds("A<B", answer) and not PERM.holds("B<A", answer) and PERM.holds("C<D", answer)


def test_the_critic_lists_exactly_the_violated_constraints_in_the_puzzle_s_order():
    puzzle = Problem(("A<B", "D<E", "pos(C)=1"), ("C", "A", "B", "D", "E"))
    assert PERM.critique(puzzle, ["B", "A", "C", "D", "E"]) == ["A<B", "pos(C)=1"]
    assert PERM.reward(puzzle, ["B", "A", "C", "D", "E"]) == 0.0
    assert PERM.critique(puzzle, ["C", "A", "B", "D", "E"]) == [OK]
    assert PERM.critique(puzzle, ["C", "A", "A", "D", "E"]) == [MALFORMED]
    assert PERM.critique(puzzle, ["C", "A", "B", "D"]) == [MALFORMED]


@pytest.mark.parametrize("task", [PERM, CodeTask(length=2), CodeTask(length=3)], ids=["permutation", "code2", "code3"])
def test_ok_if_and_only_if_the_reward_is_one(task):
    rng = np.random.default_rng(0)
    rewarded = 0
    for _ in range(400):
        problem = task.draw(rng)
        answer = list(problem.solution) if rng.random() < 0.3 else task.random_answer(rng)
        critique = task.critique(problem, answer)
        assert (critique == [OK]) == (task.reward(problem, answer) == 1.0)
        rewarded += critique == [OK]
        if isinstance(task, PermutationTask) and critique != [OK]:
            assert set(critique) == {c for c in problem.words if not task.holds(c, answer)}
    assert 0 < rewarded < 400


def test_every_puzzle_is_satisfiable_and_the_revision_is_the_nearest_solution():
    rng = np.random.default_rng(1)
    for _ in range(50):
        puzzle = PERM.draw(rng)
        assert 3 <= len(puzzle.words) <= 5 and list(puzzle.words) == sorted(puzzle.words)
        assert PERM.reward(puzzle, list(puzzle.solution)) == 1.0
        guess = PERM.random_answer(rng)
        revised = PERM.revision(puzzle, guess)
        assert PERM.reward(puzzle, revised) == 1.0
        distance = sum(a != b for a, b in zip(revised, guess))
        every = [p for p in itertools.permutations(PERM.letters) if PERM.reward(puzzle, list(p)) == 1.0]
        assert distance == min(sum(a != b for a, b in zip(p, guess)) for p in every)
        if PERM.reward(puzzle, guess) == 1.0:
            assert revised == guess


def test_the_code_critic_grades_each_digit():
    task = CodeTask(length=3)
    problem = Problem(("1+2", "0+7", "4+5"), ("3", "7", "9"))
    assert task.critique(problem, ["5", "7", "0"]) == ["high", "right", "low"]
    assert task.critique(problem, ["3", "7", "9"]) == [OK]
    assert task.critique(problem, ["3", "7"]) == [MALFORMED]
    rng = np.random.default_rng(2)
    for _ in range(100):
        drawn = task.draw(rng)
        assert [str(sum(map(int, w.split("+")))) for w in drawn.words] == list(drawn.solution)


def test_bad_task_settings_are_refused():
    with pytest.raises(ValueError, match="unknown task"):
        make_task("chess", {})
    with pytest.raises(ValueError, match="low <= high"):
        PermutationTask(low=4, high=3)


@pytest.mark.parametrize("task", [PERM, CodeTask(length=2)], ids=["permutation", "code"])
def test_the_dialogue_round_trips_through_the_task_tokenizer(task):
    tok = dialogue.tokenizer(task)
    rng = np.random.default_rng(3)
    problem = task.draw(rng)
    guess = task.random_answer(rng)
    y0 = dialogue.answer_ids(tok, guess)
    assert dialogue.answer_words(tok, y0) == guess
    x1 = dialogue.second_prompt(tok, problem, y0, task.critique(problem, guess))
    x0 = dialogue.first_prompt(tok, problem)
    assert x1[: len(x0)] == x0 and tok.unk_token_id not in x1
    need = dialogue.longest_second_prompt(task.name, {"n": 5, "constraints": [3, 5], "length": 2})
    assert len(x1) + len(y0) <= need
    for symbol in task.symbols():
        assert len(tok(symbol, add_special_tokens=False)["input_ids"]) == 1
