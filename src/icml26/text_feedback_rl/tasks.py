"""The two tasks and their rule-based critics, which write the textual feedback (spec: "Tasks and model").

A task draws problems, scores an answer (reward 1 iff it is right), writes the critique ``c0`` of an answer
and the *revision* a good second turn makes after that critique (the SFT warm start's turn-2 targets).
Everything is words of a closed vocabulary (:meth:`Task.symbols`), so the prompts are a task language the
word-level tokenizer of the LM toolkit reads.

- :class:`PermutationTask` (the spec's permutation constraint puzzles): order the letters ``A..`` of
  ``n`` (5) so that 3-5 constraints hold, ``A<B`` (A before B) or ``pos(E)=2`` (E in position 2, counted
  from 1). Drawn from a hidden permutation, so every puzzle is satisfiable. Critic: ``OK`` iff every
  constraint holds, else the violated constraints in the puzzle's order.
- :class:`CodeTask` (the spec's Mastermind-style task with graded numeric feedback): a code of ``length``
  digits, each given in the prompt as a sum ``a+b`` (a + b <= 9). Critic: ``OK`` iff the code is right,
  else one word per digit, ``low`` (the guess is below it), ``high`` or ``right``.

Ours, where the spec is silent: an answer that is not well formed (wrong length, letters repeated, a
non-digit) gets reward 0 and the critique ``malformed``; the revision of an answer is the right answer
nearest to it (Hamming distance over positions, ties to the lexicographically first), so the warm start
teaches the second turn to *fix* the first rather than ignore it; for the code task that is the code itself.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Protocol

import numpy as np

OK = "OK"
MALFORMED = "malformed"
LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class Problem:
    """One problem: the prompt's words and what the critic needs to judge an answer."""

    words: tuple[str, ...]
    solution: tuple[str, ...]  # one right answer (the hidden permutation, or the code)


class Task(Protocol):
    name: str

    def draw(self, rng: np.random.Generator) -> Problem: ...
    def reward(self, problem: Problem, answer: list[str]) -> float: ...
    def critique(self, problem: Problem, answer: list[str]) -> list[str]: ...
    def revision(self, problem: Problem, answer: list[str]) -> list[str]: ...
    def random_answer(self, rng: np.random.Generator) -> list[str]: ...
    def symbols(self) -> set[str]: ...
    def answer_words(self) -> int: ...
    def answer_symbols(self) -> set[str]: ...


def _hamming(a: tuple[str, ...], b: list[str]) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def _nearest(candidates: list[tuple[str, ...]], answer: list[str]) -> list[str]:
    return list(min(candidates, key=lambda c: (_hamming(c, answer), c)))


@dataclass(frozen=True)
class PermutationTask:
    """Permutation constraint puzzles over ``n`` letters with ``low``-``high`` constraints each."""

    n: int = 5
    low: int = 3
    high: int = 5
    name: str = "permutation"

    def __post_init__(self) -> None:
        if not 3 <= self.n <= len(LETTERS):
            raise ValueError(f"permutation n must be in [3, {len(LETTERS)}], got {self.n}")
        if not 1 <= self.low <= self.high:
            raise ValueError(f"permutation constraints: need 1 <= low <= high, got {self.low}, {self.high}")

    @property
    def letters(self) -> str:
        return LETTERS[: self.n]

    def true_constraints(self, order: tuple[str, ...]) -> list[str]:
        """Every constraint word the ordering ``order`` satisfies."""
        before = [f"{a}<{b}" for a, b in itertools.combinations(order, 2)]
        return before + [f"pos({x})={i + 1}" for i, x in enumerate(order)]

    def draw(self, rng: np.random.Generator) -> Problem:
        order = tuple(self.letters[i] for i in rng.permutation(self.n))
        pool = sorted(self.true_constraints(order))
        count = int(rng.integers(self.low, self.high + 1))
        chosen = sorted(pool[i] for i in rng.choice(len(pool), size=min(count, len(pool)), replace=False))
        return Problem(tuple(chosen), order)

    @staticmethod
    def holds(constraint: str, answer: list[str]) -> bool:
        if constraint.startswith("pos("):
            letter, position = constraint[4], int(constraint.split("=")[1])
            return answer.index(letter) == position - 1
        first, second = constraint.split("<")
        return answer.index(first) < answer.index(second)

    def well_formed(self, answer: list[str]) -> bool:
        return sorted(answer) == list(self.letters)

    def violated(self, problem: Problem, answer: list[str]) -> list[str]:
        return [c for c in problem.words if not self.holds(c, answer)]

    def reward(self, problem: Problem, answer: list[str]) -> float:
        return float(self.well_formed(answer) and not self.violated(problem, answer))

    def critique(self, problem: Problem, answer: list[str]) -> list[str]:
        if not self.well_formed(answer):
            return [MALFORMED]
        return self.violated(problem, answer) or [OK]

    def solutions(self, problem: Problem) -> list[tuple[str, ...]]:
        return [p for p in itertools.permutations(self.letters) if not self.violated(problem, list(p))]

    def revision(self, problem: Problem, answer: list[str]) -> list[str]:
        return _nearest(self.solutions(problem), answer)

    def random_answer(self, rng: np.random.Generator) -> list[str]:
        return [self.letters[i] for i in rng.permutation(self.n)]

    def symbols(self) -> set[str]:
        letters = set(self.letters)
        before = {f"{a}<{b}" for a in letters for b in letters if a != b}
        where = {f"pos({x})={i}" for x in letters for i in range(1, self.n + 1)}
        return letters | before | where | {OK, MALFORMED}

    def answer_words(self) -> int:
        return self.n

    def answer_symbols(self) -> set[str]:
        return set(self.letters)


DIGITS = tuple(str(d) for d in range(10))
GRADES = ("low", "high", "right")
SUMS = 55  # pairs a, b >= 0 with a + b <= 9


@dataclass(frozen=True)
class CodeTask:
    """A code of ``length`` digits, each shown as a sum; graded feedback per digit."""

    length: int = 2
    name: str = "code"

    def __post_init__(self) -> None:
        if not 1 <= self.length <= 6:
            raise ValueError(f"code length must be in [1, 6], got {self.length}")

    def draw(self, rng: np.random.Generator) -> Problem:
        code, words = [], []
        for _ in range(self.length):
            digit = int(rng.integers(10))
            a = int(rng.integers(digit + 1))
            code.append(str(digit))
            words.append(f"{a}+{digit - a}")
        return Problem(tuple(words), tuple(code))

    def well_formed(self, answer: list[str]) -> bool:
        return len(answer) == self.length and all(a in DIGITS for a in answer)

    def reward(self, problem: Problem, answer: list[str]) -> float:
        return float(tuple(answer) == problem.solution)

    def critique(self, problem: Problem, answer: list[str]) -> list[str]:
        if not self.well_formed(answer):
            return [MALFORMED]
        if tuple(answer) == problem.solution:
            return [OK]
        return [
            "right" if guess == digit else ("low" if int(guess) < int(digit) else "high")
            for guess, digit in zip(answer, problem.solution)
        ]

    def revision(self, problem: Problem, answer: list[str]) -> list[str]:
        return list(problem.solution)

    def random_answer(self, rng: np.random.Generator) -> list[str]:
        return [DIGITS[i] for i in rng.integers(10, size=self.length)]

    def symbols(self) -> set[str]:
        sums = {f"{a}+{b}" for a in range(10) for b in range(10) if a + b <= 9}
        return sums | set(DIGITS) | set(GRADES) | {OK, MALFORMED}

    def answer_words(self) -> int:
        return self.length

    def answer_symbols(self) -> set[str]:
        return set(DIGITS)

    def distinct(self) -> int:
        """How many different problems there are: 55 sums a + b <= 9 per digit."""
        return SUMS**self.length


def make_task(name: str, settings: dict) -> Task:
    """The task called ``name`` (a key of the config's ``tasks``) with its settings."""
    if name == "permutation":
        return PermutationTask(n=settings["n"], low=settings["constraints"][0], high=settings["constraints"][1])
    if name == "code":
        return CodeTask(length=settings["length"])
    raise ValueError(f"unknown task {name!r} (permutation, code)")
