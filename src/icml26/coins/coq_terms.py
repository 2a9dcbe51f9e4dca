"""Python values as Coq terms, and Coq's printed values back as Python values.

The types a problem may use are the Coq types ``Z``, ``bool``, ``string``, ``list T`` and ``T * U``
(Python ``int``, ``bool``, ``str``, ``list``, ``tuple``). :func:`to_coq` prints a value as a closed
Coq term (empty lists carry their element type, so the term has one type on its own); :func:`parse`
reads what ``Compute`` prints, so the printer is checked by a round trip through ``coqc``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ATOMS = ("Z", "bool", "string")


@dataclass(frozen=True)
class CoqType:
    """``name`` is ``Z``, ``bool``, ``string``, ``list`` (one argument) or ``prod`` (two)."""

    name: str
    args: tuple[CoqType, ...] = ()

    def __str__(self) -> str:
        if self.name == "list":
            inner = str(self.args[0])
            return f"list ({inner})" if " " in inner else f"list {inner}"
        if self.name == "prod":
            return f"({self.args[0]} * {self.args[1]})"
        return self.name


def parse_type(text: str) -> CoqType:
    """``"list Z"``, ``"Z * Z"``, ``"list (Z * Z)"``, ... as a :class:`CoqType`; ValueError names the text."""
    tokens = re.findall(r"[A-Za-z]+|[()*]", text)
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise ValueError(f"type {text!r}: only {', '.join(ATOMS)}, list, * and parentheses are supported")
    position = 0

    def product() -> CoqType:
        nonlocal position
        left = application()
        if position < len(tokens) and tokens[position] == "*":
            position += 1
            return CoqType("prod", (left, product()))
        return left

    def application() -> CoqType:
        nonlocal position
        if position >= len(tokens):
            raise ValueError(f"type {text!r}: ends early")
        token = tokens[position]
        position += 1
        if token == "(":
            inner = product()
            if position >= len(tokens) or tokens[position] != ")":
                raise ValueError(f"type {text!r}: unbalanced parentheses")
            position += 1
            return inner
        if token == "list":
            return CoqType("list", (application(),))
        if token in ATOMS:
            return CoqType(token)
        raise ValueError(f"type {text!r}: unknown type {token!r}")

    result = product()
    if position != len(tokens):
        raise ValueError(f"type {text!r}: unexpected {tokens[position]!r}")
    return result


def conforms(value: Any, kind: CoqType) -> bool:
    """Whether a Python value has the shape of ``kind``."""
    if kind.name == "Z":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind.name == "bool":
        return isinstance(value, bool)
    if kind.name == "string":
        return isinstance(value, str) and value.isascii()
    if kind.name == "list":
        return isinstance(value, list) and all(conforms(v, kind.args[0]) for v in value)
    if kind.name == "prod":
        return isinstance(value, tuple) and len(value) == 2 and all(map(conforms, value, kind.args))
    return False


def to_coq(value: Any, kind: CoqType) -> str:
    """A closed Coq term for ``value`` (with ``ListNotations`` and ``Z_scope`` open)."""
    if not conforms(value, kind):
        raise ValueError(f"{value!r} is not a value of type {kind}")
    if kind.name == "Z":
        return str(value) if value >= 0 else f"({value})"
    if kind.name == "bool":
        return "true" if value else "false"
    if kind.name == "string":
        return '"' + value.replace('"', '""') + '"%string'
    if kind.name == "list":
        if not value:
            return f"(@nil {_parenthesised(kind.args[0])})"
        return "[" + "; ".join(to_coq(v, kind.args[0]) for v in value) + "]"
    return f"({to_coq(value[0], kind.args[0])}, {to_coq(value[1], kind.args[1])})"


def _parenthesised(kind: CoqType) -> str:
    text = str(kind)
    return text if " " not in text or text.startswith("(") else f"({text})"


_TOKEN = re.compile(r'\s*(?:(-?\d+)|("(?:[^"]|"")*")(?:%string)?|(true|false)|(\[\]|[\[\];(),]))')


def parse(text: str) -> Any:
    """The Python value of a value printed by Coq (``[1; -2]``, ``("ab"%string, 3)``, ``true``)."""
    tokens: list[tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise ValueError(f"cannot read Coq value {text!r} at {text[position : position + 20]!r}")
        number, string, boolean, punct = match.groups()
        tokens.append(
            ("int", number)
            if number is not None
            else ("str", string)
            if string is not None
            else ("bool", boolean)
            if boolean is not None
            else ("p", punct)
        )
        position = match.end()
    index = 0

    def value() -> Any:
        nonlocal index
        kind, token = tokens[index]
        index += 1
        if kind == "int":
            return int(token)
        if kind == "str":
            return token[1:-1].replace('""', '"')
        if kind == "bool":
            return token == "true"
        if token == "[]":
            return []
        if token == "[":
            items = [value()]
            while tokens[index] == ("p", ";"):
                index += 1
                items.append(value())
            expect("]")
            return items
        if token == "(":
            first = value()
            if tokens[index] == ("p", ")"):
                index += 1
                return first
            expect(",")
            second = value()
            expect(")")
            return (first, second)
        raise ValueError(f"cannot read Coq value {text!r}: unexpected {token!r}")

    def expect(punct: str) -> None:
        nonlocal index
        if tokens[index] != ("p", punct):
            raise ValueError(f"cannot read Coq value {text!r}: expected {punct!r}")
        index += 1

    result = value()
    if index != len(tokens):
        raise ValueError(f"cannot read Coq value {text!r}: trailing text")
    return result


def from_plain(value: Any, kind: CoqType) -> Any:
    """A value read back from JSON (tuples became lists) in the shape of ``kind``."""
    if kind.name == "prod":
        return tuple(from_plain(v, k) for v, k in zip(value, kind.args))
    if kind.name == "list":
        return [from_plain(v, kind.args[0]) for v in value]
    return value
