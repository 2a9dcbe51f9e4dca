"""Synthetic indirect-object identification (IOI), the task the circuits are discovered on.

Substitution for the paper's IOI prompts on GPT-2 (which cannot be loaded here): a sentence of fixed
length whose last token must be followed by the indirect object IO, the name that occurs once. Three
sentence frames place the two names of the first clause at different positions, each in both orders:

    went:  A and B went to PLACE , S gave OBJECT to   ->  IO
    met:   at PLACE A and B met , S handed OBJECT to   ->  IO
    then:  then A met B at PLACE , S gave OBJECT to    ->  IO

with (A, B) = (IO, S) in the ABBA order and (S, IO) in BABA. Several frames (one until the twenty-second
session) give the model more than one way to the answer: a name's position alone no longer tells IO from
S, so a circuit that reads positions of one frame can coexist with one that detects the repeated name. The
wrong answer for the faithfulness loss is the subject S (the spec's "bad answer = S"). The vocabulary is the
names first (token ids 0 .. names - 1), then the words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PLACES = ("store", "park", "school", "garden", "station", "market")
OBJECTS = ("drink", "book", "ring", "ball", "letter", "kiss")
FRAMES = {  # slots in capitals, every frame LENGTH tokens long with the repeated subject S at the same place
    "went": ("A", "and", "B", "went", "to", "PLACE", ",", "S", "gave", "OBJECT", "to"),
    "met": ("at", "PLACE", "A", "and", "B", "met", ",", "S", "handed", "OBJECT", "to"),
    "then": ("then", "A", "met", "B", "at", "PLACE", ",", "S", "gave", "OBJECT", "to"),
}
ORDERS = ("ABBA", "BABA")  # ABBA: the first name is IO; BABA: the first name is S
TEMPLATES = tuple(f"{frame} {order}" for frame in FRAMES for order in ORDERS)
SLOTS = ("A", "B", "S", "PLACE", "OBJECT")
WORDS = tuple(dict.fromkeys(w for frame in FRAMES.values() for w in frame if w not in SLOTS)) + PLACES + OBJECTS
LENGTH = 11  # tokens per sentence


@dataclass(frozen=True)
class Batch:
    tokens: np.ndarray  # (n, LENGTH) int64
    good: np.ndarray  # (n,) the indirect object's token
    bad: np.ndarray  # (n,) the subject's token
    template: np.ndarray  # (n,) index into TEMPLATES

    def first(self, n: int) -> Batch:
        return Batch(self.tokens[:n], self.good[:n], self.bad[:n], self.template[:n])


def vocabulary(names: int) -> list[str]:
    return [f"name{i}" for i in range(names)] + list(WORDS)


def ioi(n: int, names: int, rng: np.random.Generator) -> Batch:
    """``n`` IOI sentences cycling through TEMPLATES, names and words drawn from ``rng``."""
    if names < 2:
        raise ValueError(f"IOI needs at least 2 names, got {names}")
    word = {w: names + i for i, w in enumerate(WORDS)}
    io = rng.integers(0, names, n)
    subject = (io + rng.integers(1, names, n)) % names  # a different name
    template = np.arange(n) % len(TEMPLATES)
    frame, abba = template // len(ORDERS), template % len(ORDERS) == 0
    fill = {
        "A": np.where(abba, io, subject),
        "B": np.where(abba, subject, io),
        "S": subject,
        "PLACE": np.array([word[p] for p in PLACES])[rng.integers(0, len(PLACES), n)],
        "OBJECT": np.array([word[o] for o in OBJECTS])[rng.integers(0, len(OBJECTS), n)],
    }
    tokens = np.empty((n, LENGTH), dtype=np.int64)
    for f, slots in enumerate(FRAMES.values()):
        rows = frame == f
        for position, slot in enumerate(slots):
            tokens[rows, position] = fill[slot][rows] if slot in fill else word[slot]
    return Batch(tokens, io.astype(np.int64), subject.astype(np.int64), template)
