"""The candidate specs of one problem: the gold spec, its mutants, its equivalent rewrites, and any
specs a user brings.

Gold specs are package data (``gold/HumanEval_<n>.v``), written and reviewed for this project. A
user's candidates live in a directory with one folder per problem, ``<dir>/HumanEval_<n>/<name>.v``
(for example the outputs of an LLM); they are untrusted and go through the same screening.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..common.sources import within
from . import equivalents, mutants
from .evaluate import Candidate


def gold_text(number: int) -> str:
    path = resources.files(__package__).joinpath(f"gold/HumanEval_{number}.v")
    if not path.is_file():
        raise ValueError(f"no gold spec for HumanEval/{number}")
    return path.read_text(encoding="utf-8")


def user_spec_files(folder: str | Path | None, problem: str) -> list[str]:
    """The user's candidate files for one problem (``<folder>/<problem>/*.v``; none without a folder): the
    check rule's inputs, so editing one reruns its check."""
    return sorted(str(p) for p in Path(folder, problem).glob("*.v")) if folder else []


def user_candidates(folder: str | Path, number: int) -> list[Candidate]:
    """The ``.v`` files of ``<folder>/HumanEval_<number>/``, sorted by name (none if it is absent)."""
    problem_dir = Path(folder) / f"HumanEval_{number}"
    found = []
    for path in sorted(problem_dir.glob("*.v")) if problem_dir.is_dir() else []:
        within(folder, path)  # a link out of the user's folder is refused, never read
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            text = ""  # an unreadable file is screened as ill-formed like any other bad candidate
        found.append(Candidate(number, f"user:{path.stem}", "user", "", 0, text))
    return found


def for_problem(
    number: int,
    operators: list[str],
    per_operator: int,
    level2: int,
    rewrites: list[str],
    seed: int,
    user_dir: str | None = None,
) -> list[Candidate]:
    gold = gold_text(number)
    found = [Candidate(number, "gold", "gold", "", 0, gold)]
    for mutant in mutants.mutants(gold, operators, per_operator, level2, seed + number):
        operator = "+".join(part.split("@")[0] for part in mutant.id.split("+"))
        found.append(Candidate(number, f"mutant:{mutant.id}", "mutant", operator, mutant.level, mutant.text))
    for kind, text in equivalents.rewrites(gold, rewrites):
        found.append(Candidate(number, f"equivalent:{kind}", "equivalent", kind, 0, text))
    if user_dir:
        found += user_candidates(user_dir, number)
    return found
