"""Seed problems, their variants D0-D4, and the pretraining corpus that excludes all of them.

A *problem* is a program, the narrative its statement is told in and the DSL its answer is written in.
For a seed program s (narrative A, DSL-A):

- D0 exact recall: s, narrative A, DSL-A (what the learners train on);
- D1 implementation transfer: s, narrative A, answer in DSL-B;
- D2 context transfer: s told in narrative B (no shared narrative word), DSL-A;
- D3 category-matched new problem: another program with s's first primitive that computes something else;
- D4 unpaired baseline: a program of another category.

Two programs are the same *algorithm* when they agree on every list of :data:`PROBES` (``sort`` and
``sort reverse reverse`` are one algorithm); D3 and D4 differ from their seed's algorithm, and the
pretraining corpus holds no algorithm of any seed or variant (the spec's leakage check; tested).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise, product

import numpy as np

from .narratives import statement
from .world import PRIMITIVES, Program, all_steps, random_program

VARIANTS = ("D0", "D1", "D2", "D3", "D4")
PROBES = tuple(tuple(int(v) for v in np.random.default_rng(20260).integers(0, 10, n)) for n in (3, 4, 5, 6, 7) * 4)


def algorithm(program: Program) -> tuple[tuple[int, ...], ...]:
    """What the program computes, as its outputs on the fixed probe lists."""
    return tuple(tuple(program(list(xs))) for xs in PROBES)


@dataclass(frozen=True)
class Problem:
    program: Program
    narrative: str
    dsl: str

    @property
    def statement(self) -> str:
        return statement(self.program, self.narrative)

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


def suite(seed: Program, rng: np.random.Generator) -> dict[str, Problem]:
    """The seed's five variants."""
    own = algorithm(seed)

    def another(first: str | None, category_differs: bool) -> Program:
        while True:
            program = random_program(rng, first=first)
            if algorithm(program) != own and (not category_differs or program.category != seed.category):
                return program

    return {"D0": Problem(seed, "A", "A"), "D1": Problem(seed, "A", "B"), "D2": Problem(seed, "B", "A"),
            "D3": Problem(another(seed.category, False), "A", "A"), "D4": Problem(another(None, True), "A", "A")}


def pretraining(reserved: list[Program]) -> list[Problem]:
    """Every program whose algorithm is none of ``reserved``'s, in both narratives and both DSLs."""
    banned = {algorithm(p) for p in reserved}
    return [Problem(p, narrative, dsl) for p in every_program() if algorithm(p) not in banned
            for narrative in ("A", "B") for dsl in ("A", "B")]
