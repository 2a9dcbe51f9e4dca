"""Problem statements in two narratives with disjoint vocabularies (the spec's context transfer, D2).

A statement says *what* to compute, never how: a short story around a few worked examples, each an input
list and the output the program must give for it (as a competitive-programming statement's sample tests).
Narrative A tells of an orchard keeper and rows of apple crates, the examples in order and the request
last; narrative B of a librarian and shelf tallies, the request first and the examples from last to first.
No word is shared between them: only the numbers (the examples) appear in both, so a D2 statement has zero
narrative-token overlap with its seed's (tested). Both narratives are ours: the spec asks for "different
vocabulary, entities, clause order".

Why examples and not steps: a first design spelt out the steps ("keep only crates holding an even count,
then ..."); a base model pretrained on such statements composed the answer for unseen seeds (pass@1
0.80-1.00 on D0-D4), leaving nothing to memorise and so nothing to transfer.
"""

from __future__ import annotations

from collections.abc import Sequence

NARRATIVES = ("A", "B")
FRAME = {  # every word a statement can use besides the numbers
    "A": "an orchard keeper reshapes rows of apple crates . the row gives . report the counts .",
    "B": "librarian request : state all shelf tallies ; tallies turn into ;",
}

Example = tuple[Sequence[int], Sequence[int]]


def _numbers(xs: Sequence[int]) -> str:
    return " ".join(str(x) for x in xs)


def statement(examples: Sequence[Example], narrative: str) -> str:
    """The problem statement with the worked ``examples`` (input, output) in narrative ``A`` or ``B``
    (space-separated words, marks and numbers; an empty output is the frame words with no number between)."""
    if narrative == "A":
        clauses = [f"the row {_numbers(xs)} gives {_numbers(ys)} ." for xs, ys in examples]
        return " ".join(["an orchard keeper reshapes rows of apple crates .", *clauses, "report the counts ."])
    if narrative == "B":
        clauses = [f"tallies {_numbers(xs)} turn into {_numbers(ys)} ;" for xs, ys in examples]
        return " ".join(["librarian request : state all shelf tallies ;", *clauses[::-1]])
    raise ValueError(f"narrative must be one of {NARRATIVES}, got {narrative!r}")


def vocabulary(narrative: str) -> set[str]:
    """Every word a statement in ``narrative`` can use (numbers aside)."""
    return set(FRAME[narrative].split())
