"""Synthetic indirect-object identification (IOI), the task the circuits are discovered on.

Substitution for the paper's IOI prompts on GPT-2 (which cannot be loaded here): a sentence of fixed
length whose last token must be followed by the indirect object, the name that occurs once,

    ABBA:  IO and S went to PLACE , S gave OBJECT to  ->  IO
    BABA:  S and IO went to PLACE , S gave OBJECT to  ->  IO

with two different names drawn from ``names`` name tokens and a place and an object from small word
lists; the wrong answer for the faithfulness loss is the subject S (the spec's "bad answer = S"). The
vocabulary is the names first (token ids 0 .. names - 1), then the words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PLACES = ("store", "park", "school", "garden", "station", "market")
OBJECTS = ("drink", "book", "ring", "ball", "letter", "kiss")
WORDS = ("and", "went", "to", ",", "gave", *PLACES, *OBJECTS)
LENGTH = 11  # tokens per sentence: X and Y went to PLACE , S gave OBJECT to
TEMPLATES = ("ABBA", "BABA")


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
    """``n`` IOI sentences, ABBA and BABA alternating, names and words drawn from ``rng``."""
    if names < 2:
        raise ValueError(f"IOI needs at least 2 names, got {names}")
    word = {w: names + i for i, w in enumerate(WORDS)}
    io = rng.integers(0, names, n)
    subject = (io + rng.integers(1, names, n)) % names  # a different name
    template = np.arange(n) % 2
    first, second = np.where(template == 0, io, subject), np.where(template == 0, subject, io)
    place = np.array([word[p] for p in PLACES])[rng.integers(0, len(PLACES), n)]
    thing = np.array([word[o] for o in OBJECTS])[rng.integers(0, len(OBJECTS), n)]
    column = np.full(n, 0)
    tokens = np.stack(
        [
            first,
            column + word["and"],
            second,
            column + word["went"],
            column + word["to"],
            place,
            column + word[","],
            subject,
            column + word["gave"],
            thing,
            column + word["to"],
        ],
        axis=1,
    )
    return Batch(tokens.astype(np.int64), io.astype(np.int64), subject.astype(np.int64), template)
