"""Differential random testing: random inputs with their trusted outputs, to flag mutants that are
accidentally equivalent to the gold spec.

Inputs are drawn from each problem's domains in ``problems.yaml`` (chosen inside the problem's
precondition), outputs come from the canonical solution, and inputs already among the HumanEval
tests are skipped. A mutant is checked on these with the same obligations as on the HumanEval tests:
one refuted obligation *witnesses* that it differs from the gold spec; all proved means no random
input told them apart (*equivalent on random tests*, the accidental equivalents); anything else is
*undetermined*.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from .harness import combined
from .problems import Problem, TestCase

LABELS = ("witnessed", "equivalent_on_random", "undetermined")


def draw(domain: dict, rng: random.Random) -> Any:
    """One value from a domain ``{int: [lo, hi]}``, ``{string: [min, max, alphabet]}`` or
    ``{list: [min, max, element], distinct: bool}``."""
    if "int" in domain:
        low, high = domain["int"]
        return rng.randint(low, high)
    if "string" in domain:
        low, high, alphabet = domain["string"]
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))
    if "list" in domain:
        low, high, element = domain["list"]
        size = rng.randint(low, high)
        values: list[Any] = []
        while len(values) < size:
            value = draw(element, rng)
            if not (domain.get("distinct") and value in values):
                values.append(value)
        return values
    raise ValueError(f"unknown random domain {domain!r}")


def random_tests(problem: Problem, known: list[TestCase], count: int, seed: int) -> list[TestCase]:
    """``count`` new test cases for ``problem``, outputs from its canonical solution (seeded by
    ``seed`` and the problem number, so each problem's draw does not depend on the others)."""
    rng = random.Random(seed * 1_000_003 + problem.number)
    solve = problem.solution()
    seen = [t.args for t in known]
    found: list[TestCase] = []
    for _ in range(50 * count):
        if len(found) == count:
            break
        args = tuple(draw(d, rng) for d in problem.random_domains)
        if args in seen:
            continue
        seen.append(args)
        found.append(TestCase(args, solve(*copy.deepcopy(args))))
    return found


def label(outcomes: list[str]) -> str:
    """The differential label of a candidate from its outcomes on the random tests."""
    return {"refuted": "witnessed", "proved": "equivalent_on_random", "unknown": "undetermined"}[combined(outcomes)]
