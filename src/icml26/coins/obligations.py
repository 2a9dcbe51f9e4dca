"""The proof obligations of one problem's test cases.

For each trusted test ``(x, y)``: *accept* ``spec x y`` (soundness of the spec with respect to the
trusted output), *reject* ``~ spec x y'`` for the first ``rejects`` wrong outputs ``y'`` of
:func:`wrong_outputs` (completeness: every HumanEval function here has one right output), and
*pre* ``pre x`` when the candidate states a precondition. The wrong outputs are ours: small edits
of ``y`` by type (±1 on an integer, the other boolean, a changed, dropped or added list element, a
changed or dropped character), listed nearest first.
"""

from __future__ import annotations

from typing import Any

from .coq_terms import CoqType, to_coq
from .harness import Obligation
from .problems import Problem, TestCase


def wrong_outputs(value: Any, kind: CoqType) -> list[Any]:
    """Outputs of type ``kind`` that differ from ``value``, nearest first, without repeats."""
    if kind.name == "Z":
        found = [value + 1, value - 1]
    elif kind.name == "bool":
        found = [not value]
    elif kind.name == "string":
        found = [value + "a", value[:-1]] if value else ["a", "b"]
    elif kind.name == "prod":
        first = wrong_outputs(value[0], kind.args[0])
        second = wrong_outputs(value[1], kind.args[1])
        found = [(first[0], value[1]), (value[0], second[0])]
    else:
        inner = kind.args[0]
        found = []
        if value:
            found.append(value[:-1] + [wrong_outputs(value[-1], inner)[0]])
            found.append(value[1:])
        found.append(value + [value[-1] if value else _zero(inner)])
        if value:
            found.append([wrong_outputs(value[0], inner)[0]] + value[1:])
    unique: list[Any] = []
    for candidate in found:
        if candidate != value and candidate not in unique:
            unique.append(candidate)
    return unique


def _zero(kind: CoqType) -> Any:
    return {"Z": 0, "bool": False, "string": ""}.get(kind.name, [] if kind.name == "list" else None)


def signature(problem: Problem) -> str:
    return " -> ".join([*(str(t) for t in problem.arg_types), str(problem.result_type), "Prop"])


def equivalence(problem: Problem, gold_has_pre: bool, prefix: str = "coins_eq") -> Obligation:
    """``forall x y, Gold.spec x y <-> Candidate.spec x y`` (under the gold precondition): the
    semantic-equivalence check that existing evaluations use, the comparison for Coins' tests."""
    names = [f"x{i}" for i in range(len(problem.arg_types))]
    binders = " ".join(f"({n} : {k})" for n, k in zip(names, problem.arg_types))
    args = " ".join(names)
    body = f"Gold.spec {args} r <-> Candidate.spec {args} r"
    if gold_has_pre:
        body = f"Gold.pre {args} -> ({body})"
    return Obligation(f"{prefix}_0", "equiv", -1, f"forall {binders} (r : {problem.result_type}), {body}")


def for_tests(problem: Problem, tests: list[TestCase], rejects: int, prefix: str = "coins_ob") -> list[Obligation]:
    """Accept, reject and precondition obligations for each test, ids ``<prefix>_<n>`` in order."""
    obligations: list[Obligation] = []
    for index, test in enumerate(tests):
        args = " ".join(to_coq(a, k) for a, k in zip(test.args, problem.arg_types))
        claims = [
            ("pre", f"Candidate.pre {args}"),
            ("accept", f"Candidate.spec {args} {to_coq(test.expected, problem.result_type)}"),
        ]
        for wrong in wrong_outputs(test.expected, problem.result_type)[:rejects]:
            claims.append(("reject", f"Candidate.spec {args} {to_coq(wrong, problem.result_type)}"))
        for kind, statement in claims:
            obligations.append(Obligation(f"{prefix}_{len(obligations)}", kind, index, statement))
    return obligations
