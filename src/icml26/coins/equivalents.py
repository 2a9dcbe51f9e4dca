"""Semantically equivalent rewrites of a gold spec: correct specs written differently.

Each rewrite is equivalent by construction, so a sound evaluation must never reject it:
``rename`` (alpha-renames every binder of ``spec``), ``commute`` (reverses the conjuncts of a plain
top-level conjunction), ``mirror`` (turns each comparison between two simple terms around:
``a <= b`` -> ``b >= a``, ``a = b`` -> ``b = a``), ``helper`` (moves the body into a separate
definition that ``spec`` applies). A rewrite that does not apply to a spec, or leaves its text
unchanged, is left out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .edits import SpecParts, occurrences, rename, replace_at, split, top_level_conjuncts

REWRITES = ("rename", "commute", "mirror", "helper")

_ATOM = r"(?:[\w'.]+|\([^()]*\))"
_MIRROR = {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "=": "="}
_BEFORE = r"(?:^|(?<=\()|(?<=,\s)|(?<=/\\\s)|(?<=\\/\s)|(?<=->\s)|(?<=~\s)|(?<==>\s))"
_AFTER = r"(?=\s*(?:\)|$|/\\|\\/|->|<->|,))"
# a comparison whose two sides are whole operands: simple terms between connectives or parentheses
_COMPARISON = rf"{_BEFORE}({_ATOM}) (<=|>=|<|>|=) ({_ATOM}){_AFTER}"


def _rename(parts: SpecParts) -> SpecParts:
    names = [name for name, _ in parts.binders]
    taken = set(re.findall(r"[\w']+", parts.text()))
    mapping = {}
    for index, name in enumerate(names):
        fresh = f"v{index}" if index < len(names) - 1 else "out"
        while fresh in taken:
            fresh += "'"
        mapping[name] = fresh
    return SpecParts(
        parts.before, tuple((mapping[n], k) for n, k in parts.binders), rename(parts.body, mapping), parts.after
    )


def _commute(parts: SpecParts) -> SpecParts:
    conjuncts = top_level_conjuncts(parts.body)
    return parts.with_body(" /\\ ".join(reversed(conjuncts))) if len(conjuncts) > 1 else parts


def _mirror(parts: SpecParts) -> SpecParts:
    body = parts.body
    for match in reversed(occurrences(body, _COMPARISON)):
        left, op, right = match.group(1), match.group(2), match.group(3)
        if left.isdigit() and right.isdigit():
            continue
        body = replace_at(body, match, f"{right} {_MIRROR[op]} {left}")
    return parts.with_body(body)


def _helper(parts: SpecParts) -> SpecParts:
    taken = set(re.findall(r"[\w']+", parts.text()))
    name = "spec_body"
    while name in taken:
        name += "'"
    groups = " ".join(f"({n} : {k})" for n, k in parts.binders)
    definition = f"Definition {name} {groups} : Prop :=\n  {parts.body.strip()}"
    call = " ".join([name, *(n for n, _ in parts.binders)])
    return replace(parts, before=(*parts.before, definition), body=call)


def rewrites(gold: str, kinds: list[str]) -> list[tuple[str, str]]:
    """``[(kind, text)]`` for each rewrite that applies and changes the text."""
    parts = split(gold)
    functions = {"rename": _rename, "commute": _commute, "mirror": _mirror, "helper": _helper}
    found, seen = [], {parts.text()}
    for kind in kinds:
        if kind not in functions:
            raise ValueError(f"unknown rewrite {kind!r} (known: {', '.join(REWRITES)})")
        text = functions[kind](parts).text()
        if text not in seen:
            seen.add(text)
            found.append((kind, text))
    return found
