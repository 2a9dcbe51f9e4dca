"""The template language: the human-like templates the agent starts from, the captions the black box is trained
on, and what counts as a readable template.

A template is a word sequence with the class slot ``{}`` (filled with a class name such as ``red circle``) and a
final ``.``. Templates and captions share one grammar of patterns with a noun slot ``N`` (a style, ``photo``,
``sketch``, ..., or a neutral ``picture``) and an adjective slot ``A`` that holds no, one or more adjectives: the
domain words ``new``/``old`` (era) and ``vivid``/``faded`` (finish) or neutral ones (``good``, ``small``, ...).

Ours: a human template has at most one adjective, as generic human prompts do, so none names both the era and the
finish of the target domain; the template that does (``a faded old photo of a {} .``) is something the agent has
to discover. A caption names the image's style, era and finish each with probability ``truthful`` (else a neutral
noun, no adjective), so the black box learns what those words mean.
"""

from __future__ import annotations

import itertools

import numpy as np

from .scenes import CLASSES, ERAS, FINISHES, STYLES

SLOT = "{}"
END = "."
NEUTRAL_NOUNS = ("picture", "image", "rendering")
NEUTRAL_ADJECTIVES = ("good", "small", "large", "clean", "close-up", "nice")
DOMAIN_ADJECTIVES = FINISHES + ERAS  # a caption's order: finish, then era ("a faded old photo")
PATTERNS = (  # N: noun, A: adjectives (possibly none), {}: the class slot
    "a A N of a {} .",
    "a A N of the {} .",
    "itap of a {} .",
    "a A N showing a {} .",
    "there is a {} in the A N .",
    "a {} in a A N .",
    "a A {} .",
    "the A {} in the N .",
)
BASELINE = "a photo of a {} ."  # the control variate's reference template (CLIP's default prompt)


def _fill(pattern: str, noun: str, adjectives: tuple[str, ...]) -> str:
    out = []
    for w in pattern.split():
        out.extend([noun] if w == "N" else adjectives if w == "A" else [w])
    return " ".join("an" if w == "a" and nxt[0] in "aeiou" else w for w, nxt in itertools.pairwise([*out, END]))


def all_human_templates() -> list[str]:
    """Every pattern with every noun and no or one adjective (sorted; the baseline template is among them)."""
    nouns = STYLES + NEUTRAL_NOUNS
    adjectives = [(), *((a,) for a in DOMAIN_ADJECTIVES + NEUTRAL_ADJECTIVES)]
    return sorted({_fill(p, n, a) for p, n, a in itertools.product(PATTERNS, nouns, adjectives)})


def human_set(count: int, seed: int) -> list[str]:
    """The ``count`` human templates the agent is SFT'd on and ``human_best`` searches: the baseline template and
    a seeded draw from :func:`all_human_templates` (sorted)."""
    pool = [t for t in all_human_templates() if t != BASELINE]
    if not 1 <= count <= len(pool) + 1:
        raise ValueError(f"human_templates: {count} is not between 1 and {len(pool) + 1}")
    chosen = np.random.default_rng(seed).choice(len(pool), size=count - 1, replace=False)
    return sorted([BASELINE, *(pool[i] for i in chosen)])


def caption(rng: np.random.Generator, label: int, style: str, era: str, finish: str, truthful: float) -> str:
    """A training caption of an image of class ``label`` in the domain ``(style, era, finish)``."""
    pattern = PATTERNS[rng.integers(len(PATTERNS))]
    noun = style if rng.random() < truthful else NEUTRAL_NOUNS[rng.integers(len(NEUTRAL_NOUNS))]
    adjectives = tuple(word for word in (finish, era) if rng.random() < truthful)
    if not adjectives and rng.random() < 0.5:
        adjectives = (NEUTRAL_ADJECTIVES[rng.integers(len(NEUTRAL_ADJECTIVES))],)
    return fill(_fill(pattern, noun, adjectives), CLASSES[label])


def fill_domain(noun: str, adjectives: tuple[str, ...]) -> str:
    """The first pattern (``a A N of a {} .``) with ``noun`` and ``adjectives``: the calibration's named templates."""
    return _fill(PATTERNS[0], noun, adjectives)


def fill(template: str, class_name: str) -> str:
    return template.replace(SLOT, class_name)


def words() -> list[str]:
    """Every word of the template language (the class names' words are the black box's, not the agent's)."""
    found = {w for p in PATTERNS for w in p.split() if w not in ("N", "A")} | {"an"}
    return sorted(found | set(STYLES + NEUTRAL_NOUNS + DOMAIN_ADJECTIVES + NEUTRAL_ADJECTIVES))


def class_words() -> list[str]:
    return sorted({w for name in CLASSES for w in name.split()})


def has_slot(template: str) -> bool:
    """Exactly one class slot: a template the black box can score (else it is invalid, reward defined)."""
    return template.split().count(SLOT) == 1


def readable(template: str, max_words: int = 12) -> bool:
    """Ours, the spec's "contains the class slot, parses as a template": exactly one slot, one final ``.``,
    only words of the template language, no word twice in a row, at most ``max_words`` words."""
    tokens = template.split()
    vocabulary = set(words())
    return (
        has_slot(template)
        and 3 <= len(tokens) <= max_words
        and tokens[-1] == END
        and tokens.count(END) == 1
        and all(t in vocabulary for t in tokens)
        and all(a != b for a, b in itertools.pairwise(tokens))
    )
