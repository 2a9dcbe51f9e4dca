"""The agent's language: its tokenizer, its context (a meta-prompt and the top reference templates with binned
accuracies) and the SFT examples that give it the "LLM prior" over human-like templates.

Context (ours; the spec fixes its content, not its wording): ``<bos> write a template : acc7 a photo of a {} .
acc5 ... <sep>``, the references sorted best first, each behind its accuracy bin ``acc0``..``acc9``
(``floor(10·acc)``, capped at 9); the agent continues with one template and ``<eos>``. For SFT the references are
human templates with random bins (no call is spent before the budget starts) and the answer another human
template; during the search they are the best templates found so far with their measured accuracies.
In a user's tokenizer (paper scale) each word takes as many tokens as it needs, and <bos> and <sep> are what
:func:`~icml26.common.lm.tokenizer.bos_ids` and :func:`~icml26.common.lm.tokenizer.sep_ids` give.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import grammar

META = ("write", "template", ":")
BINS = tuple(f"acc{i}" for i in range(10))


def symbols() -> list[str]:
    return sorted(set(grammar.words()) | set(META) | set(BINS))


def tokenizer():
    from ..common.lm.tokenizer import task_tokenizer

    return task_tokenizer(symbols())


def check_reads(tok, folder: str) -> None:
    """A user's agent must write and read back every word of the template language (else one line naming it)."""
    from ..common.lm.tokenizer import check_reads as reads

    reads(tok, symbols(), folder, language="the template language")


def check_budget(tok, templates: Sequence[str], budget: int, folder: str) -> None:
    """``search.max_new_tokens`` must hold the longest human template and its <eos> in ``tok``'s tokens (one line
    naming both otherwise; a template cut short would reach the black box unfinished)."""
    from ..common.lm.tokenizer import answer_budget
    from ..common.lm.tokenizer import check_budget as fits

    fits(budget, answer_budget(tok, templates), "search.max_new_tokens", folder)


def accuracy_bin(accuracy: float) -> str:
    return BINS[min(9, max(0, int(np.floor(10 * accuracy))))]


def context(tok, references: Sequence[tuple[str, float]]) -> list[int]:
    """Token ids of the meta-prompt and ``(template, accuracy)`` references, ready for the agent to continue."""
    from ..common.lm.tokenizer import bos_ids, encode, sep_ids

    text = " ".join([*META[:1], "a", *META[1:], *(f"{accuracy_bin(a)} {t}" for t, a in references)])
    return [*bos_ids(tok), *encode(tok, text), *sep_ids(tok)]


def answer(tok, template: str) -> list[int]:
    from ..common.lm.tokenizer import encode

    return [*encode(tok, template), tok.eos_token_id]


def sft_examples(tok, human: Sequence[str], count: int, references: int, rng: np.random.Generator) -> list:
    """``count`` (context, answer) pairs: random human references with random bins, another human template."""
    examples = []
    for _ in range(count):
        chosen = rng.choice(len(human), size=references + 1, replace=False)
        shown = sorted(((human[i], rng.uniform()) for i in chosen[1:]), key=lambda r: -r[1])
        examples.append((context(tok, shown), answer(tok, human[chosen[0]])))
    return examples


def longest_context(references: int, words_per_template: int = 12) -> int:
    """Tokens of a context with ``references`` templates of ``words_per_template`` words (a readable template's
    most) and their bins."""
    return 2 + len(META) + 1 + references * (words_per_template + 1)


def templates(tok, continuations: Sequence[Sequence[int]]) -> list[str]:
    """Generated ids back to template strings (special tokens dropped) on one line of printable text: a user's
    byte-level tokenizer can write control characters and line breaks (a NUL once broke the calls table), which a
    template sent to the black box and recorded in a table cannot hold. Templates of the word-level tokenizer are
    unchanged."""
    from ..common.lm.tokenizer import decode

    printable = ("".join(c for c in decode(tok, ids) if c.isprintable() or c.isspace()) for ids in continuations)
    return [" ".join(text.split()) for text in printable]
