"""Reading and rewriting the ``spec`` definition of a candidate: the text the mutants and the
equivalent rewrites operate on.

A spec is split into its other sentences (helpers, ``pre``), its binders ``[(name, type), ...]``
(the last one is the result) and its body (the text after ``:=``). Positions are found on the text
with string literals blanked, so nothing inside a string is ever rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .specs import blank_strings, sentences, strip_comments


@dataclass(frozen=True)
class SpecParts:
    before: tuple[str, ...]  # sentences before the spec, without final periods
    binders: tuple[tuple[str, str], ...]
    body: str
    after: tuple[str, ...]

    @property
    def arg_names(self) -> list[str]:
        return [name for name, _ in self.binders[:-1]]

    @property
    def result_name(self) -> str:
        return self.binders[-1][0]

    def text(self) -> str:
        groups = " ".join(f"({name} : {kind})" for name, kind in self.binders)
        spec = f"Definition spec {groups} : Prop :=\n  {self.body.strip()}"
        return "".join(f"{s}.\n\n" for s in (*self.before, spec, *self.after))

    def with_body(self, body: str) -> SpecParts:
        return replace(self, body=body)


def split(text: str) -> SpecParts:
    """The parts of a candidate whose spec has the form ``Definition spec (x : T) ... : Prop := body``."""
    found = sentences(strip_comments(text))
    index = next(i for i, s in enumerate(found) if re.match(r"Definition\s+spec\b", s))
    sentence = found[index]
    header, body = sentence.split(":=", 1)
    binders: list[tuple[str, str]] = []
    for names, kind in re.findall(r"\(([^():]+):([^()]*(?:\([^()]*\)[^()]*)*)\)", header):
        binders += [(name, kind.strip()) for name in names.split()]
    return SpecParts(tuple(found[:index]), tuple(binders), body.strip(), tuple(found[index + 1 :]))


def depth_zero_split(body: str, separator: str) -> list[str]:
    """``body`` cut at each ``separator`` outside parentheses and brackets."""
    code = blank_strings(body)
    parts, depth, start, index = [], 0, 0, 0
    while index < len(code):
        char = code[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0 and code.startswith(separator, index):
            parts.append(body[start:index].strip())
            start = index + len(separator)
            index = start
            continue
        index += 1
    parts.append(body[start:].strip())
    return parts


def top_level_conjuncts(body: str) -> list[str]:
    """The conjuncts of a body that is a plain conjunction at the top level; ``[body]`` when a
    binder (``forall``/``exists``/``fun`` ... ``,``), ``->``, ``<->`` or ``\\/`` at the top level
    would make dropping or reordering conjuncts change what they mean or leave a variable unbound."""
    parts = depth_zero_split(body, "/\\")
    if len(parts) > 1 and any(len(depth_zero_split(part, token)) > 1 for part in parts for token in (",", "->", "\\/")):
        return [body]
    return parts


def occurrences(body: str, pattern: str) -> list[re.Match]:
    """Matches of ``pattern`` in ``body`` outside string literals."""
    return list(re.finditer(pattern, blank_strings(body)))


def replace_at(body: str, match: re.Match, new: str) -> str:
    return body[: match.start()] + new + body[match.end() :]


def rename(body: str, mapping: dict[str, str]) -> str:
    """Simultaneous whole-word renaming of variables (outside strings)."""
    if not mapping:
        return body
    pattern = r"(?<![\w.'])(" + "|".join(map(re.escape, mapping)) + r")(?![\w'])"
    matches = occurrences(body, pattern)
    for match in reversed(matches):
        body = replace_at(body, match, mapping[match.group(1)])
    return body
