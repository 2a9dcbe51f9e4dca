"""Mutants of a gold spec, by operator: wrong specs of controlled quality.

Each operator edits the body (or the binders) of ``spec`` at one site; a level-k mutant applies k
operators of different kinds in turn. The operators follow the spec's list: relation swaps
(``<`` <-> ``<=``, ``=`` <-> ``<>``, ``<?`` <-> ``<=?``, ...), quantifier swaps (``forall`` <->
``exists``, ``Forall`` <-> ``Exists``), connective swaps (``/\\`` <-> ``\\/``), a dropped or an added
conjunct, off-by-one constants, swapped arguments of the same type, negation, and the trivial
bodies ``True`` and ``False``. The added conjunct is ours: it restricts the result (``0 < r`` for an
integer, ``r = true``, a non-empty list or string, a positive first component).

A mutant is wrong *by construction* only in intent: some are accidentally equivalent to the gold
spec, which differential random testing flags (:mod:`.evaluate`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .edits import SpecParts, occurrences, rename, replace_at, split, top_level_conjuncts

OPERATORS = (
    "relation",
    "quantifier",
    "connective",
    "drop_conjunct",
    "add_conjunct",
    "constant",
    "swap_args",
    "negation",
    "true",
    "false",
)

_RELATIONS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "=": "<>", "<>": "=", "<?": "<=?", "<=?": "<?"}
_RELATION = r"(?<=\s)(<=\?|<\?|<>|<=|>=|<|>|=)(?=\s)"
_QUANTIFIERS = {"forall": "exists", "exists": "forall", "Forall": "Exists", "Exists": "Forall"}
_QUANTIFIER = r"(?<![\w.'])(forall|exists|Forall|Exists)(?![\w'])"
_CONNECTIVE = r"(/\\|\\/)"
_CONSTANT = r"(?<![\w.'])(\d+)(?![\w'])"


@dataclass(frozen=True)
class Mutant:
    id: str  # "<operator>@<site>" joined by "+" for higher levels
    level: int
    text: str


def _restriction(parts: SpecParts) -> str:
    result, kind = parts.binders[-1]
    kind = " ".join(kind.split())
    if kind == "Z":
        return f"0 < {result}"
    if kind == "bool":
        return f"{result} = true"
    if kind == "string":
        return f'{result} <> ""%string'
    if kind.startswith("list"):
        return f"{result} <> []"
    return f"0 < fst {result}"


def sites(parts: SpecParts, operator: str) -> list[str]:
    """The site labels where ``operator`` applies to this spec (empty: it does not apply)."""
    body = parts.body
    if operator == "relation":
        return [str(i) for i, _ in enumerate(occurrences(body, _RELATION))]
    if operator == "quantifier":
        return [str(i) for i, _ in enumerate(occurrences(body, _QUANTIFIER))]
    if operator == "connective":
        return [str(i) for i, _ in enumerate(occurrences(body, _CONNECTIVE))]
    if operator == "constant":
        return [str(i) for i, _ in enumerate(occurrences(body, _CONSTANT))]
    if operator == "drop_conjunct":
        conjuncts = top_level_conjuncts(body)
        return [str(i) for i in range(len(conjuncts))] if len(conjuncts) > 1 else []
    if operator == "swap_args":
        args = parts.binders[:-1]
        return [
            f"{a}-{b}"
            for i, (a, ta) in enumerate(args)
            for b, tb in args[i + 1 :]
            if " ".join(ta.split()) == " ".join(tb.split())
        ]
    if operator in ("add_conjunct", "negation", "true", "false"):
        return ["0"]
    raise ValueError(f"unknown mutation operator {operator!r} (known: {', '.join(OPERATORS)})")


def apply(parts: SpecParts, operator: str, site: str) -> SpecParts:
    """``parts`` with ``operator`` applied at ``site`` (one of :func:`sites`)."""
    body = parts.body
    if operator in ("relation", "quantifier", "connective", "constant"):
        pattern = {"relation": _RELATION, "quantifier": _QUANTIFIER, "connective": _CONNECTIVE, "constant": _CONSTANT}[
            operator
        ]
        match = occurrences(body, pattern)[int(site)]
        token = match.group(1)
        new = {
            "relation": lambda t: _RELATIONS[t],
            "quantifier": lambda t: _QUANTIFIERS[t],
            "connective": lambda t: "\\/" if t == "/\\" else "/\\",
            "constant": lambda t: str(int(t) + 1),
        }[operator](token)
        return parts.with_body(replace_at(body, match, new))
    if operator == "drop_conjunct":
        conjuncts = top_level_conjuncts(body)
        return parts.with_body(" /\\ ".join(c for i, c in enumerate(conjuncts) if i != int(site)))
    if operator == "add_conjunct":
        return parts.with_body(f"({body}) /\\ {_restriction(parts)}")
    if operator == "swap_args":
        a, b = site.split("-")
        return parts.with_body(rename(body, {a: b, b: a}))
    if operator == "negation":
        return parts.with_body(f"~ ({body})")
    if operator == "true":
        return parts.with_body("True")
    if operator == "false":
        return parts.with_body("False")
    raise ValueError(f"unknown mutation operator {operator!r}")


def mutants(gold: str, operators: list[str], per_operator: int, level2: int, seed: int) -> list[Mutant]:
    """Level-1 mutants (at most ``per_operator`` sites of each operator, drawn with ``seed``) and
    ``level2`` mutants combining two operators; texts equal to the gold spec or to an earlier
    mutant are left out."""
    parts = split(gold)
    rng = random.Random(seed)
    seen = {parts.text()}
    found: list[Mutant] = []

    def add(mutant_id: str, level: int, mutated: SpecParts) -> None:
        text = mutated.text()
        if text not in seen:
            seen.add(text)
            found.append(Mutant(mutant_id, level, text))

    applicable = {op: sites(parts, op) for op in operators}
    for op in operators:
        chosen = (
            applicable[op]
            if len(applicable[op]) <= per_operator
            else sorted(rng.sample(applicable[op], per_operator), key=applicable[op].index)
        )
        for site in chosen:
            add(f"{op}@{site}", 1, apply(parts, op, site))
    combinable = [op for op in operators if applicable[op] and op not in ("true", "false")]
    undoing = {frozenset(("add_conjunct", "drop_conjunct")), frozenset(("negation", "negation"))}
    attempts = 0
    while len([m for m in found if m.level == 2]) < level2 and len(combinable) >= 2 and attempts < 20 * level2:
        attempts += 1
        first, second = rng.sample(combinable, 2)
        if frozenset((first, second)) in undoing:
            continue
        site1 = rng.choice(applicable[first])
        once = apply(parts, first, site1)
        later = sites(once, second)
        if not later:
            continue
        site2 = rng.choice(later)
        add(f"{first}@{site1}+{second}@{site2}", 2, apply(once, second, site2))
    return found
