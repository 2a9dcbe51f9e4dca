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

A :class:`Language` says which token ids the sentences are written in: ours (:meth:`Language.ours`), or GPT-2's,
built from its tokenizer with the standard IOI templates (:func:`icml26.sheaf_repulsion.gpt2.language`). The
draws are the same for every language, so ours gives the sentences it always gave.
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


@dataclass(frozen=True)
class Language:
    """The token ids IOI sentences are written in: each frame as ids with the slots left as -1 (A), -2 (B),
    -3 (S), -4 (PLACE), -5 (OBJECT), every frame equally long; the ids of the names, places and objects."""

    frames: np.ndarray  # (frames, length) int64
    names: np.ndarray
    places: np.ndarray
    objects: np.ndarray

    SLOT_IDS = {"A": -1, "B": -2, "S": -3, "PLACE": -4, "OBJECT": -5}

    @classmethod
    def ours(cls, names: int) -> Language:
        """The vocabulary of :func:`vocabulary` (names first, then the words) and :data:`FRAMES`."""
        if names < 2:
            raise ValueError(f"IOI needs at least 2 names, got {names}")
        word = {w: names + i for i, w in enumerate(WORDS)}
        frames = [[cls.SLOT_IDS.get(w, word.get(w)) for w in frame] for frame in FRAMES.values()]
        return cls(
            np.array(frames, dtype=np.int64),
            np.arange(names, dtype=np.int64),
            np.array([word[p] for p in PLACES], dtype=np.int64),
            np.array([word[o] for o in OBJECTS], dtype=np.int64),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """Stored beside a model's weights (``ioi.*``), so every job reads the sentences the model reads."""
        return {f"ioi.{k}": getattr(self, k) for k in ("frames", "names", "places", "objects")}

    @classmethod
    def from_arrays(cls, arrays: dict) -> Language:
        return cls(*(np.asarray(arrays[f"ioi.{k}"], dtype=np.int64) for k in ("frames", "names", "places", "objects")))


def ioi(n: int, language: Language | int, rng: np.random.Generator) -> Batch:
    """``n`` IOI sentences cycling through the frames in both orders, names, places and objects drawn from ``rng``
    (``language``: a :class:`Language`, or a number of names for ours)."""
    if not isinstance(language, Language):
        language = Language.ours(language)
    names = len(language.names)
    io = rng.integers(0, names, n)
    subject = (io + rng.integers(1, names, n)) % names  # a different name
    template = np.arange(n) % (len(language.frames) * len(ORDERS))
    frame, abba = template // len(ORDERS), template % len(ORDERS) == 0
    fill = {
        "A": language.names[np.where(abba, io, subject)],
        "B": language.names[np.where(abba, subject, io)],
        "S": language.names[subject],
        "PLACE": language.places[rng.integers(0, len(language.places), n)],
        "OBJECT": language.objects[rng.integers(0, len(language.objects), n)],
    }
    tokens = language.frames[frame].copy()
    for slot, slot_id in Language.SLOT_IDS.items():
        tokens = np.where(tokens == slot_id, fill[slot][:, None], tokens)
    return Batch(tokens, language.names[io], language.names[subject], template)
