"""The synthetic programming world: list primitives, programs composed of 2-3 of them, and two DSLs.

A *program* maps a list of small integers to a list: a composition of primitives applied left to right,
its *category* the first primitive (the spec's "categories by first primitive"). Primitives (ours, after
the spec's list): ``evens`` (keep the even elements), ``add k`` (add k to each, k = 1..3), ``sort``
(ascending), ``reverse``, ``rotate k`` (rotate left by k, k = 1..2), ``cumsum`` (prefix sums), ``dedupe``
(drop repeats, first occurrence kept), ``take k`` (first k elements, k = 1..3).

Two syntaxes for the same program, each with its own interpreter (the paper's "answer in the other
language"):

- DSL-A, prefix: ``( take 2 ( sort ( evens x ) ) )``, the innermost call applied first;
- DSL-B, postfix: ``x evens sort 2 take``, a stack machine (an argument is pushed before its primitive).

The interpreters run text an LM wrote, so they never trust it: a malformed program raises
:class:`ProgramError`, and one longer than :data:`MAX_TOKENS` tokens or :data:`MAX_OPERATIONS` operations
is refused before it runs (there are no loops, so that bounds the work).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

import numpy as np

MAX_TOKENS = 64
MAX_OPERATIONS = 8
ARGUMENTS = {"add": (1, 2, 3), "rotate": (1, 2), "take": (1, 2, 3)}  # primitives that take a number
PRIMITIVES = ("evens", "add", "sort", "reverse", "rotate", "cumsum", "dedupe", "take")
DSLS = ("A", "B")
MAX_VALUE = 273  # the largest output on inputs of at most 7 values in 0..9: cumsum, add 3, cumsum of seven 9s


class ProgramError(ValueError):
    """A program text that is not a program of the DSL (or is too long to run)."""


def _rotate(xs: list[int], k: int) -> list[int]:
    return xs[k % len(xs) :] + xs[: k % len(xs)] if xs else []


def apply(name: str, arg: int | None, xs: list[int]) -> list[int]:
    """One primitive on a list (the reference semantics both interpreters must match)."""
    if name == "evens":
        return [x for x in xs if x % 2 == 0]
    if name == "add":
        return [x + arg for x in xs]
    if name == "sort":
        return sorted(xs)
    if name == "reverse":
        return xs[::-1]
    if name == "rotate":
        return _rotate(xs, arg)
    if name == "cumsum":
        return list(accumulate(xs))
    if name == "dedupe":
        return list(dict.fromkeys(xs))
    if name == "take":
        return xs[:arg]
    raise ProgramError(f"unknown primitive {name!r}")


@dataclass(frozen=True)
class Step:
    name: str
    arg: int | None = None

    def __post_init__(self) -> None:
        if self.name not in PRIMITIVES:
            raise ValueError(f"unknown primitive {self.name!r}")
        if (self.arg is None) != (self.name not in ARGUMENTS) or (
            self.arg is not None and self.arg not in ARGUMENTS[self.name]
        ):
            raise ValueError(f"{self.name} takes {ARGUMENTS.get(self.name, 'no argument')}, got {self.arg!r}")


@dataclass(frozen=True)
class Program:
    steps: tuple[Step, ...]

    @property
    def category(self) -> str:
        return self.steps[0].name

    def __call__(self, xs: list[int]) -> list[int]:
        for step in self.steps:
            xs = apply(step.name, step.arg, xs)
        return xs

    def render(self, dsl: str) -> str:
        """The program's text in DSL ``A`` (prefix) or ``B`` (postfix)."""
        if dsl == "A":
            text = "x"
            for step in self.steps:
                text = f"( {step.name}{'' if step.arg is None else f' {step.arg}'} {text} )"
            return text
        if dsl == "B":
            return " ".join(["x", *(f"{'' if s.arg is None else f'{s.arg} '}{s.name}" for s in self.steps)])
        raise ValueError(f"dsl must be one of {DSLS}, got {dsl!r}")


def all_steps() -> list[Step]:
    return [Step(name, arg) for name in PRIMITIVES for arg in ARGUMENTS.get(name, (None,))]


def random_program(rng: np.random.Generator, first: str | None = None, lengths: tuple[int, ...] = (2, 3)) -> Program:
    """A program of 2-3 steps (the first one's primitive fixed when ``first`` is given); no step repeats
    the one before it (``sort sort`` is ``sort``)."""
    steps = all_steps()
    length = int(rng.choice(lengths))
    chosen: list[Step] = []
    while len(chosen) < length:
        pool = [
            s
            for s in steps
            if (not chosen and (first is None or s.name == first)) or (chosen and s.name != chosen[-1].name)
        ]
        chosen.append(pool[int(rng.integers(len(pool)))])
    return Program(tuple(chosen))


def _tokens(text: str) -> list[str]:
    tokens = text.split()
    if not tokens:
        raise ProgramError("empty program")
    if len(tokens) > MAX_TOKENS:
        raise ProgramError(f"program of {len(tokens)} tokens (at most {MAX_TOKENS})")
    return tokens


def _number(token: str, name: str) -> int:
    if not token.isdigit() or int(token) not in ARGUMENTS[name]:
        raise ProgramError(f"{name} needs an argument in {ARGUMENTS[name]}, got {token!r}")
    return int(token)


def run_a(text: str, xs: list[int]) -> list[int]:
    """Interpret a DSL-A (prefix) program: ``expr := x | ( name [k] expr )``."""
    tokens, operations = _tokens(text), 0

    def expr(i: int) -> tuple[list[int], int]:
        nonlocal operations
        if i >= len(tokens):
            raise ProgramError("program ends early")
        if tokens[i] == "x":
            return list(xs), i + 1
        if tokens[i] != "(" or i + 1 >= len(tokens) or tokens[i + 1] not in PRIMITIVES:
            raise ProgramError(f"expected 'x' or '( primitive', got {' '.join(tokens[i : i + 2])!r}")
        name, i = tokens[i + 1], i + 2
        arg = None
        if name in ARGUMENTS:
            if i >= len(tokens):
                raise ProgramError("program ends early")
            arg, i = _number(tokens[i], name), i + 1
        value, i = expr(i)
        if i >= len(tokens) or tokens[i] != ")":
            raise ProgramError("missing ')'")
        operations += 1
        if operations > MAX_OPERATIONS:
            raise ProgramError(f"more than {MAX_OPERATIONS} operations")
        return apply(name, arg, value), i + 1

    value, end = expr(0)
    if end != len(tokens):
        raise ProgramError(f"trailing tokens {' '.join(tokens[end:])!r}")
    return value


def run_b(text: str, xs: list[int]) -> list[int]:
    """Interpret a DSL-B (postfix) program: ``x`` pushes the input, a number pushes itself, a primitive
    pops its argument (if it takes one) and a list and pushes the result; one list must remain."""
    stack: list = []
    operations = 0
    for token in _tokens(text):
        if token == "x":
            stack.append(list(xs))
        elif token.isdigit():
            stack.append(int(token))
        elif token in PRIMITIVES:
            arg = None
            if token in ARGUMENTS:
                if not stack or not isinstance(stack[-1], int):
                    raise ProgramError(f"{token} needs a number before it")
                arg = _number(str(stack.pop()), token)
            if not stack or not isinstance(stack[-1], list):
                raise ProgramError(f"{token} needs a list before it")
            operations += 1
            if operations > MAX_OPERATIONS:
                raise ProgramError(f"more than {MAX_OPERATIONS} operations")
            stack.append(apply(token, arg, stack.pop()))
        else:
            raise ProgramError(f"unknown token {token!r}")
    if len(stack) != 1 or not isinstance(stack[0], list):
        raise ProgramError(f"the program leaves {len(stack)} values, not one list")
    return stack[0]


RUN = {"A": run_a, "B": run_b}


def random_inputs(count: int, rng: np.random.Generator) -> list[list[int]]:
    """``count`` input lists of 3-7 integers in 0..9 (every output then lies in 0..:data:`MAX_VALUE`)."""
    return [[int(v) for v in rng.integers(0, 10, int(rng.integers(3, 8)))] for _ in range(count)]


def hidden_tests(program: Program, count: int, rng: np.random.Generator) -> list[tuple[list[int], list[int]]]:
    """``count`` (input, expected output) pairs on :func:`random_inputs`."""
    return [(xs, program(xs)) for xs in random_inputs(count, rng)]


def passes(text: str, dsl: str, tests: list[tuple[list[int], list[int]]]) -> bool:
    """Whether a program text (in ``dsl``) passes every hidden test; a malformed one fails."""
    try:
        return all(RUN[dsl](text, xs) == expected for xs, expected in tests)
    except ProgramError:
        return False
