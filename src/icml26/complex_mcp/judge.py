"""The judge: compare the final state with the gold state, field by field (the paper's semantics).

A depth-first walk over the old (initial), new (agent's final) and gold (oracle plan's final) states,
aligned by dictionary key and list index. At each leaf: if old already equals gold, the field should stay
unchanged, and changing it counts one **misbehave**; otherwise it counts one in **total**, and one in
**recall** when new equals gold. Every field matches exactly, except ``content`` fields (free text), which
match by :func:`content_match`: the reference's fuzzy rule (:func:`fuzzy_match`: equal after trimming and
lower-casing, or the gold text inside a new text of at least 10 characters, or normalised Levenshtein
similarity above ``SIMILARITY`` = 0.7, ``rapidfuzz``), but only where the two texts agree exactly on their
identifiers and numbers (tokens with a digit), their names (capitalised words other than a sentence's first)
and their negations. Ours: the reference's rule alone accepts a message naming flight FL124 for FL123, Bob for
Alice, or "Do NOT: <gold text>", which no scripted agent sends but a user's LLM agent may. Keys in
``exclude_keys`` (generated ids, timestamps) are skipped.

Success = everything recalled and nothing misbehaved; completion = recall / total (1 when total is 0).

The reference's ``exclude_keys`` literal misses two commas, so Python joins ``"rid" "oid"`` into
``"ridoid"`` and ``"nid"`` is left on its own: ``rid`` and ``oid`` are compared although they were meant
to be skipped. :data:`INTENDED_EXCLUDE_KEYS` is the intended set (with this world's id names);
:data:`RELEASED_EXCLUDE_KEYS` reproduces the released behaviour for comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein

REFERENCE_EXCLUDE_KEYS = frozenset(
    {"timestamp", "mid", "moid", "cid", "gid", "sid", "tid", "caid", "aid", "bid", "brid", "rid", "oid", "nid"}
)
RELEASED_EXCLUDE_KEYS = (REFERENCE_EXCLUDE_KEYS - {"rid", "oid"}) | {"ridoid"}
# In this world the generated ids are mid, caid, oid and bid; cid/sid/tid/fid are seeded, not generated,
# and are compared where they are values (a message's recipient, a cart line's item).
INTENDED_EXCLUDE_KEYS = frozenset({"timestamp", "mid", "caid", "oid", "bid"})
RELEASED_WORLD_EXCLUDE_KEYS = INTENDED_EXCLUDE_KEYS - {"oid"}  # the released bug, applied to this world's ids


@dataclass(frozen=True)
class Score:
    total: int
    recall: int
    misbehave: int

    @property
    def success(self) -> bool:
        return self.recall == self.total and self.misbehave == 0

    @property
    def completion(self) -> float:
        return self.recall / self.total if self.total else 1.0


def exact_match(x: Any, y: Any) -> bool:
    return x == y


SIMILARITY = 0.7
NEGATIONS = frozenset({"not", "no", "never", "nothing", "cannot", "can't", "don't", "dont", "won't", "didn't"})


def fuzzy_match(x: Any, y: Any) -> bool:
    """The reference's free-text match (gold is ``y``)."""
    if x is None or y is None:
        return x is None and y is None
    x, y = str(x).lower().strip(), str(y).lower().strip()
    return x == y or (len(x) >= 10 and y in x) or Levenshtein.normalized_similarity(x, y) > SIMILARITY


def _anchors(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """What a free text must keep exactly: tokens with a digit (ids, prices), names (capitalised words other than a
    sentence's first, which is capitalised anyway), and negations."""
    numbers, names, negations = set(), set(), set()
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        words = [w.strip(".") for w in re.findall(r"[A-Za-z0-9_'.]+", sentence) if w.strip(".")]
        for i, word in enumerate(words):
            if any(c.isdigit() for c in word):
                numbers.add(word.lower())
            elif i and word[0].isupper():
                names.add(word.lower())
            if word.lower() in NEGATIONS:
                negations.add(word.lower())
    return frozenset(numbers), frozenset(names), frozenset(negations)


def content_match(x: Any, y: Any) -> bool:
    """Free text (gold is ``y``): :func:`fuzzy_match`, where both texts carry the same identifiers, numbers, names
    and negations."""
    if x is None or y is None:
        return x is None and y is None
    return _anchors(str(x)) == _anchors(str(y)) and fuzzy_match(x, y)


MATCHERS = {"content": content_match}


def _at(items: Any, index: int) -> Any:
    return items[index] if isinstance(items, list) and index < len(items) else None


def _get(mapping: Any, key: str) -> Any:
    return mapping.get(key) if isinstance(mapping, dict) else None


def judge(old: Any, new: Any, gold: Any, exclude_keys: frozenset[str] = INTENDED_EXCLUDE_KEYS) -> Score:
    total = recall = misbehave = 0

    def walk(old_item: Any, new_item: Any, gold_item: Any, key: str) -> None:
        nonlocal total, recall, misbehave
        if key in exclude_keys:
            return
        if isinstance(gold_item, list):
            lengths = [len(x) for x in (old_item, new_item, gold_item) if isinstance(x, list)]
            for i in range(max(lengths)):
                walk(_at(old_item, i), _at(new_item, i), _at(gold_item, i), key)
            return
        if isinstance(gold_item, dict):
            keys = [
                *gold_item,
                *(old_item if isinstance(old_item, dict) else ()),
                *(new_item if isinstance(new_item, dict) else ()),
            ]
            for sub_key in dict.fromkeys(keys):  # first-seen order: deterministic, like the walk itself
                walk(_get(old_item, sub_key), _get(new_item, sub_key), _get(gold_item, sub_key), sub_key)
            return
        equal = MATCHERS.get(key, exact_match)
        if equal(old_item, gold_item):
            if not equal(old_item, new_item):
                misbehave += 1
        else:
            total += 1
            recall += int(equal(new_item, gold_item))

    walk(old, new, gold, "")
    return Score(total, recall, misbehave)
