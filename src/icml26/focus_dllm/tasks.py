"""The training and evaluation mixture, chosen so that how many tokens can be decoded in parallel varies by task
(spec: "a mixture where per-step decodability varies"):

- ``copy`` and ``reverse`` a string of letters: every answer token is fixed by the prompt, fully parallel;
- ``walk``: a random walk over the digits 0-9 in steps of +-1 from a given start: each token depends on the one
  before and has two valid values, genuinely sequential;
- ``pcfg``: a sentence of a small probabilistic grammar continuing a given first word;
- ``add``: the sum of two multi-digit numbers, most significant digit first (a carry chain).

Quality is exact match for copy, reverse and add, and a validity check for walk and pcfg (ours: the answer
parses and follows the rules; any valid continuation counts). A sequence is ``prompt`` (a task tag and the input,
left-padded to the prompt length) then ``answer`` (right-padded with ``<eos>``); the lengths are multiples of the
block size so the prompt fills whole blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LETTERS = tuple("abcdefgh")
DIGITS = tuple("0123456789")
TAGS = ("<copy>", "<reverse>", "<walk>", "<pcfg>", "<add>")
SPECIAL = ("<pad>", "<eos>", "+", "=")
GRAMMAR = {  # a small PCFG: S -> NP VP; each rule equally likely
    "S": [["NP", "VP"]],
    "NP": [["the", "N"], ["the", "A", "N"]],
    "VP": [["V", "NP"], ["V"]],
    "N": [["cat"], ["dog"], ["bird"]],
    "A": [["big"], ["red"]],
    "V": [["sees"], ["likes"], ["runs"]],
}
WORDS = sorted({w for rules in GRAMMAR.values() for rule in rules for w in rule if w not in GRAMMAR})
TASKS = ("copy", "reverse", "walk", "pcfg", "add")
MASK = "<mask>"


def vocabulary() -> list[str]:
    """Every token; the mask token last (its id is ``len - 1``)."""
    return [*SPECIAL, *TAGS, *LETTERS, *DIGITS, *WORDS, MASK]


@dataclass(frozen=True)
class Example:
    task: str
    prompt: tuple[str, ...]  # without padding
    answer: tuple[str, ...]  # without <eos>


def _sentence(rng: np.random.Generator, symbol: str = "S") -> list[str]:
    if symbol not in GRAMMAR:
        return [symbol]
    rule = GRAMMAR[symbol][rng.integers(len(GRAMMAR[symbol]))]
    return [w for part in rule for w in _sentence(rng, part)]


def draw(task: str, rng: np.random.Generator, length: int) -> Example:
    """One example; ``length`` sets the size of the input (letters, walk steps, digits per number)."""
    if task in ("copy", "reverse"):
        text = tuple(LETTERS[i] for i in rng.integers(len(LETTERS), size=length))
        return Example(task, (f"<{task}>", *text), text if task == "copy" else text[::-1])
    if task == "walk":
        start = int(rng.integers(10))
        steps, here = [], start
        for move in rng.choice([-1, 1], size=length):
            here = (here + int(move)) % 10
            steps.append(DIGITS[here])
        return Example(task, ("<walk>", DIGITS[start]), tuple(steps))
    if task == "pcfg":
        words = _sentence(rng)
        return Example(task, ("<pcfg>", words[0], words[1]), tuple(words[2:]))
    if task == "add":
        a, b = (int("".join(DIGITS[d] for d in rng.integers(10, size=length))) for _ in range(2))
        return Example(task, ("<add>", *str(a), "+", *str(b), "="), tuple(str(a + b)))
    raise ValueError(f"unknown task {task!r}; tasks are {TASKS}")


def parses(words: list[str], symbol: str = "S") -> bool:
    """Whether ``words`` is exactly a sentence of the grammar from ``symbol``."""

    def ends(symbol: str, start: int) -> set[int]:
        if symbol not in GRAMMAR:
            return {start + 1} if start < len(words) and words[start] == symbol else set()
        found = set()
        for rule in GRAMMAR[symbol]:
            here = {start}
            for part in rule:
                here = {e for h in here for e in ends(part, h)}
            found |= here
        return found

    return len(words) in ends(symbol, 0)


def correct(example: Example, answer: list[str]) -> bool:
    """Exact match for copy, reverse and add; validity for walk (every step +-1 mod 10, the right length) and
    pcfg (the prompt's words and the answer form a sentence)."""
    if example.task == "walk":
        if len(answer) != len(example.answer) or any(a not in DIGITS for a in answer):
            return False
        path = [int(example.prompt[1]), *map(int, answer)]
        return all((b - a) % 10 in (1, 9) for a, b in zip(path, path[1:]))
    if example.task == "pcfg":
        return parses([*example.prompt[1:], *answer])
    return tuple(answer) == example.answer
