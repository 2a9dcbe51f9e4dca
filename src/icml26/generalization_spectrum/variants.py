"""Seed problems, their variants D0-D4, and the pretraining corpus that excludes all of them.

A *problem* is a program, the worked examples its statement shows (inputs drawn at random, outputs the
program's), the narrative the statement is told in and the DSL its answer is written in. For a seed
program s (narrative A, DSL-A):

- D0 exact recall: s with its examples, narrative A, DSL-A (what the learners train on);
- D1 implementation transfer: the same statement, answer in DSL-B;
- D2 context transfer: the same examples told in narrative B (no shared narrative word), DSL-A;
- D3 category-matched new problem: another program with s's first primitive that computes something else,
  with its own examples;
- D4 unpaired baseline: a program of another category, with its own examples.

Two programs are the same *algorithm* when they agree on every list of :data:`PROBES` (``sort`` and
``sort reverse reverse`` are one algorithm); D3 and D4 differ from their seed's algorithm, and the
pretraining corpus holds no algorithm of any seed or variant (the spec's leakage check; tested).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise, product

import numpy as np

from .narratives import statement
from .world import PRIMITIVES, Program, Step, all_steps, random_inputs, random_program

VARIANTS = ("D0", "D1", "D2", "D3", "D4")
PROBES = tuple(tuple(int(v) for v in np.random.default_rng(20260).integers(0, 10, n)) for n in (3, 4, 5, 6, 7) * 4)


def algorithm(program: Program) -> tuple[tuple[int, ...], ...]:
    """What the program computes, as its outputs on the fixed probe lists."""
    return tuple(tuple(program(list(xs))) for xs in PROBES)


@dataclass(frozen=True)
class Problem:
    program: Program
    inputs: tuple[tuple[int, ...], ...]  # the statement's worked examples' inputs
    narrative: str
    dsl: str

    @property
    def statement(self) -> str:
        return statement([(xs, self.program(list(xs))) for xs in self.inputs], self.narrative)

    @property
    def answer(self) -> str:
        return self.program.render(self.dsl)


def every_program(lengths: tuple[int, ...] = (2, 3)) -> list[Program]:
    """All programs of the given lengths without a step that repeats the primitive before it."""
    steps = all_steps()
    out = []
    for length in lengths:
        for chain in product(steps, repeat=length):
            if all(a.name != b.name for a, b in pairwise(chain)):
                out.append(Program(chain))
    return out


def seeds(count: int, rng: np.random.Generator) -> list[Program]:
    """``count`` seed programs with distinct algorithms, categories drawn in turn so each is represented."""
    chosen: list[Program] = []
    seen: set = set()
    while len(chosen) < count:
        program = random_program(rng, first=PRIMITIVES[len(chosen) % len(PRIMITIVES)])
        if algorithm(program) not in seen:
            seen.add(algorithm(program))
            chosen.append(program)
    return chosen


def example_inputs(count: int, rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(xs) for xs in random_inputs(count, rng))


def suite(seed: Program, examples: int, rng: np.random.Generator, avoid: frozenset = frozenset()) -> dict[str, Problem]:
    """The seed's five variants, each statement with ``examples`` worked examples; D3 and D4 compute none of
    the algorithms in ``avoid`` (the other seeds', which the learners train on)."""
    banned = avoid | {algorithm(seed)}

    def another(first: str | None, category_differs: bool) -> Program:
        while True:
            program = random_program(rng, first=first)
            if algorithm(program) not in banned and (not category_differs or program.category != seed.category):
                return program

    shown = example_inputs(examples, rng)
    d3, d4 = another(seed.category, False), another(None, True)
    return {
        "D0": Problem(seed, shown, "A", "A"),
        "D1": Problem(seed, shown, "A", "B"),
        "D2": Problem(seed, shown, "B", "A"),
        "D3": Problem(d3, example_inputs(examples, rng), "A", "A"),
        "D4": Problem(d4, example_inputs(examples, rng), "A", "A"),
    }


def suites(seed_programs: list[Program], examples: int, rng: np.random.Generator) -> list[dict[str, Problem]]:
    """Every seed's variants, no D3 or D4 computing any seed's algorithm (the learners train on all seeds
    at once, so another seed's D0 must not be this seed's far problem)."""
    avoid = frozenset(algorithm(s) for s in seed_programs)
    return [suite(s, examples, rng, avoid) for s in seed_programs]


def pretraining(reserved: list[Program], examples: int, rng: np.random.Generator) -> list[Problem]:
    """Every program whose algorithm is none of ``reserved``'s, in both narratives and both DSLs, each of
    the four problems with its own ``examples`` worked examples (so the corpus teaches reading examples,
    not recalling a statement)."""
    banned = {algorithm(p) for p in reserved}
    return [
        Problem(p, example_inputs(examples, rng), narrative, dsl)
        for p in every_program()
        if algorithm(p) not in banned
        for narrative in ("A", "B")
        for dsl in ("A", "B")
    ]


def to_record(problem: Problem) -> dict:
    """A problem as plain JSON values (steps as [name, argument] pairs)."""
    return {
        "steps": [[s.name, s.arg] for s in problem.program.steps],
        "inputs": [list(xs) for xs in problem.inputs],
        "narrative": problem.narrative,
        "dsl": problem.dsl,
    }


def from_record(record: dict) -> Problem:
    return Problem(
        Program(tuple(Step(name, arg) for name, arg in record["steps"])),
        tuple(tuple(xs) for xs in record["inputs"]),
        record["narrative"],
        record["dsl"],
    )
