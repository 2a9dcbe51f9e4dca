"""Candidate specifications: untrusted Coq text, checked before ``coqc`` sees it.

A candidate is a ``.v`` file of ``Definition`` and ``Fixpoint`` sentences that defines
``spec (args...) (result) : Prop`` and optionally ``pre (args...) : Prop``; it may only use the
standard library the harness imports (``ZArith String List Bool Lia``). Anything else is rejected
with a reason before any Coq runs: ``Admitted``/``admit``, ``Axiom``/``Parameter`` and their
synonyms, ``Abort``, proof mode of any kind, ``ltac:`` inside terms, ``Require``/``Import``, commands
that change the environment (``Set``, ``Unset``, ``Hint``, ``Notation``, ``Opaque``, ``Load``,
``Redirect``, ``Extraction``, attributes ``#[...]``, ...), and names of the harness (``coins_``).
The checks are an allow-list on sentence heads plus a deny-list of tokens anywhere outside
comments and strings; ``Print Assumptions`` after every proof is the second line of defence
(:mod:`.harness`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ALLOWED_HEADS = ("Definition", "Fixpoint")
# Screening runs in this process, outside coqc's time and memory limits, so a candidate's size is bounded before
# anything else: the gold specs are under 0.5 KiB and 3 sentences; these bounds are over 100 times that.
MAX_SPEC_BYTES = 64 * 1024
MAX_SENTENCES = 256
FORBIDDEN_TOKENS = (
    "Admitted",
    "admit",
    "Axiom",
    "Axioms",
    "Parameter",
    "Parameters",
    "Conjecture",
    "Hypothesis",
    "Hypotheses",
    "Variable",
    "Variables",
    "Abort",
    "Proof",
    "Qed",
    "Defined",
    "Require",
    "Import",
    "Export",
    "Load",
    "Redirect",
    "Extraction",
    "Set",
    "Unset",
    "Hint",
    "Notation",
    "Infix",
    "Ltac",
    "Opaque",
    "Transparent",
    "Module",
    "Section",
    "Declare",
    "Local",
    "Global",
    "Instance",
    "Drop",
    "Quit",
    "Cd",
    "Time",
    "Timeout",
    "Fail",
    "Succeed",
    "Program",
    "Obligation",
)
FORBIDDEN_PATTERNS = {
    r"ltac\s*:": "ltac: inside a term",
    r"#\[": "an attribute #[...]",
    r"\bcoins_\w*": "a harness name (coins_)",
}


class IllFormed(ValueError):
    """The text cannot be read as Coq sentences (an unclosed comment or string, no final period)."""


@dataclass(frozen=True)
class Screened:
    """The outcome of screening one candidate: ``reason`` is empty when it may be run."""

    text: str
    reason: str
    defines_pre: bool
    definitions: tuple[str, ...] = ()  # the names bound by Definition (not Fixpoint), in order


def strip_comments(text: str) -> str:
    """The text with (nested) comments replaced by a space, strings kept; IllFormed if one is unclosed.

    As in Coq's lexer, a string inside a comment is a string: ``(* "*)" *)`` is one comment, so text
    after it cannot hide from the screening in what a naive reader would take for a comment."""
    out, depth, index, in_string = [], 0, 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            if depth == 0:
                out.append(char)
            if char == '"':
                if text[index + 1 : index + 2] == '"':  # an escaped quote
                    if depth == 0:
                        out.append('"')
                    index += 1
                else:
                    in_string = False
            index += 1
            continue
        pair = text[index : index + 2]
        if pair == "(*":
            depth += 1
            index += 2
        elif pair == "*)" and depth:
            depth -= 1
            index += 2
            if depth == 0:
                out.append(" ")
        else:
            if char == '"':
                in_string = True
            if depth == 0:
                out.append(char)
            index += 1
    if in_string:
        raise IllFormed("a string is not closed")
    if depth:
        raise IllFormed("a comment is not closed")
    return "".join(out)


def blank_strings(text: str) -> str:
    """String literals' contents replaced by ``x`` (same length), so tokens inside them are not read
    as commands and positions in the blanked text are positions in the original."""
    return re.sub(r'"(?:[^"]|"")*"', lambda m: '"' + "x" * (len(m.group()) - 2) + '"', text)


def sentences(text: str) -> list[str]:
    """The sentences of comment-free text, without their final period: a period followed by white
    space or the end closes one (periods in strings and qualified names do not)."""
    code = blank_strings(text)
    found, start = [], 0
    for match in re.finditer(r"\.(?=\s|$)", code):
        found.append(text[start : match.start()].strip())
        start = match.end()
    if text[start:].strip():
        raise IllFormed(f"the last sentence has no final period: {text[start:].strip()[:60]!r}")
    return [s for s in found if s]


def screen(text: str) -> Screened:
    """Check a candidate's text; ``reason`` says why it must not run (empty: it may)."""
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_SPEC_BYTES:
        return Screened(text, f"rejected: {size} bytes, more than the {MAX_SPEC_BYTES} a candidate may have", False)
    if text.count(".") > 8 * MAX_SENTENCES:  # a cheap bound before the sentence split (a sentence ends in '.')
        return Screened(text, f"rejected: more than {MAX_SENTENCES} sentences", False)
    try:
        code = strip_comments(text)
        found = [blank_strings(s) for s in sentences(code)]
    except IllFormed as error:
        return Screened(text, f"ill-formed: {error}", False)
    bare = blank_strings(code)
    for pattern, what in FORBIDDEN_PATTERNS.items():
        if re.search(pattern, bare):
            return Screened(text, f"rejected: uses {what}", False)
    for token in FORBIDDEN_TOKENS:
        if re.search(rf"(?<![\w.']){re.escape(token)}(?![\w'])", bare):
            return Screened(text, f"rejected: uses {token}", False)
    if len(found) > MAX_SENTENCES:
        return Screened(text, f"rejected: {len(found)} sentences, more than the {MAX_SENTENCES} allowed", False)
    names, definitions = [], []
    for sentence in found:
        head = sentence.split(None, 1)[0]
        if head not in ALLOWED_HEADS:
            return Screened(
                text, f"rejected: only {' and '.join(ALLOWED_HEADS)} sentences are allowed, found {head}", False
            )
        if ":=" not in sentence:
            return Screened(text, f"rejected: {head} without a body (:=) would open a proof", False)
        match = re.match(rf"{head}\s+([A-Za-z_][\w']*)", sentence)
        if not match:
            return Screened(text, f"ill-formed: cannot read the name defined by {sentence[:60]!r}", False)
        names.append(match.group(1))
        if head == "Definition":
            definitions.append(match.group(1))
    if "spec" not in names:
        return Screened(text, "ill-formed: no Definition of spec", False)
    if len(set(names)) != len(names):
        return Screened(text, "ill-formed: a name is defined twice", False)
    return Screened(text, "", "pre" in names, tuple(definitions))
