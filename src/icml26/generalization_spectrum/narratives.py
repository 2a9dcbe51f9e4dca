"""Problem statements in two narratives with disjoint vocabularies (the spec's context transfer, D2).

Narrative A tells of an orchard keeper and crates of apples, in the order the steps happen; narrative B of
a librarian and shelves of books, the request first and the steps from last to first. No word is shared
between them: only the numbers (the primitives' arguments) appear in both, so a D2 statement has zero
narrative-token overlap with its seed's (tested). Both are ours: the spec asks for "different vocabulary,
entities, clause order".
"""

from __future__ import annotations

from .world import Program, Step

NARRATIVES = ("A", "B")

STEP_TEXT = {
    "A": {
        "evens": "keep only crates holding an even count",
        "add": "put {k} more apples into every crate",
        "sort": "line crates up from lightest to heaviest",
        "reverse": "turn the whole row around",
        "rotate": "carry the first {k} crates to the back",
        "cumsum": "relabel every crate with the running total",
        "dedupe": "drop any crate whose count was seen before",
        "take": "keep just the first {k} crates",
    },
    "B": {
        "evens": "discard shelves carrying odd tallies",
        "add": "place {k} extra volumes onto each shelf",
        "sort": "order shelves ascending by tally",
        "reverse": "flip shelf sequence backward",
        "rotate": "shift leading {k} shelves behind remaining ones",
        "cumsum": "swap each tally for its cumulative sum",
        "dedupe": "remove shelves repeating prior tallies",
        "take": "retain merely {k} opening shelves",
    },
}
ORDINALS_B = ("initially", "next", "finally")
FRAME = {  # the words around the steps
    "A": "an orchard keeper has a row of apple crates . first , then , . report the counts .",
    "B": "librarian request : state all shelf tallies ; procedure reversed ; " + " ".join(ORDINALS_B),
}


def _step(narrative: str, step: Step) -> str:
    return STEP_TEXT[narrative][step.name].format(k=step.arg)


def _ordinals(count: int) -> tuple[str, ...]:
    return ORDINALS_B[:1] if count == 1 else ORDINALS_B[: count - 1] + ORDINALS_B[-1:]


def statement(program: Program, narrative: str) -> str:
    """The problem statement of ``program`` in narrative ``A`` or ``B`` (space-separated words and marks)."""
    if narrative == "A":
        clauses = [f"{'first' if i == 0 else 'then'} , {_step('A', s)} ." for i, s in enumerate(program.steps)]
        return " ".join(["an orchard keeper has a row of apple crates .", *clauses, "report the counts ."])
    if narrative == "B":
        marked = [f"{o} : {_step('B', s)} ;" for o, s in zip(_ordinals(len(program.steps)), program.steps)]
        return " ".join(["librarian request : state all shelf tallies ; procedure reversed ;", *marked[::-1]])
    raise ValueError(f"narrative must be one of {NARRATIVES}, got {narrative!r}")


def vocabulary(narrative: str) -> set[str]:
    """Every word a statement in ``narrative`` can use (numbers aside)."""
    texts = [FRAME[narrative], *STEP_TEXT[narrative].values()]
    return {word for text in texts for word in text.split() if word != "{k}"}
