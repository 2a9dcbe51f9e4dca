"""Procedural images for the black box: 20 classes (a colour and a shape) drawn in 16 domains, so that words
naming the domain carry information a prompt template can use.

Substitution (forced here): the paper tunes prompts for a real CLIP on real image datasets, none of which can be
downloaded; these 16x16 images are ours. A domain has a visible style, which changes how a shape is drawn (a
filled ``photo``, an outline ``sketch``, a noisy blurred ``painting``, a ``cartoon`` with a black outline), and two
attributes the pixels do not show, an era (``new``, ``old``) and a finish (``vivid``, ``faded``), which set the
domain's colour convention (:func:`painted`): an old faded green circle is painted blue. A class name alone is
then ambiguous, as real class names are ("crane", "boxer"), and only a template that names the era *and* the
finish pins every colour down; the image alone cannot. The background (bright or dark) is drawn at random
and named by no word. The prompt-tuning task classifies images of one target domain (config ``target``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COLOURS = {"red": (0.9, 0.12, 0.1), "green": (0.1, 0.75, 0.15), "blue": (0.15, 0.3, 0.95), "yellow": (0.95, 0.85, 0.1)}
SHAPES = ("circle", "square", "triangle", "cross", "ring")
CLASSES = tuple(f"{colour} {shape}" for colour in COLOURS for shape in SHAPES)  # the class names the slot takes
STYLES = ("photo", "sketch", "painting", "cartoon")
ERAS = ("new", "old")
FINISHES = ("vivid", "faded")
SIZE = 16


@dataclass(frozen=True)
class Domain:
    style: str
    era: str
    finish: str

    def __post_init__(self):
        if self.style not in STYLES or self.era not in ERAS or self.finish not in FINISHES:
            raise ValueError(
                f"no domain {self.finish} {self.era} {self.style}: styles {STYLES}, eras {ERAS}, finishes {FINISHES}"
            )


def _mask(shape: str, rng: np.random.Generator) -> np.ndarray:
    y, x = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    cx, cy = SIZE / 2 + rng.uniform(-2, 2, size=2)
    r = rng.uniform(4.0, 6.0)
    dx, dy = np.abs(x - cx), np.abs(y - cy)
    if shape == "circle":
        return dx**2 + dy**2 <= r**2
    if shape == "square":
        return np.maximum(dx, dy) <= 0.85 * r
    if shape == "triangle":
        top = cy - r
        return (y >= top) & (y <= cy + 0.8 * r) & (dx <= 0.6 * (y - top))
    if shape == "cross":
        return ((dx <= r / 3) & (dy <= r)) | ((dy <= r / 3) & (dx <= r))
    if shape == "ring":
        return (dx**2 + dy**2 <= r**2) & (dx**2 + dy**2 >= (0.55 * r) ** 2)
    raise ValueError(f"unknown shape {shape!r}")


def _outline(mask: np.ndarray) -> np.ndarray:
    padded = np.pad(mask, 1)
    interior = padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:] & mask
    return mask & ~interior


def _blur(image: np.ndarray) -> np.ndarray:
    padded = np.pad(image, ((0, 0), (1, 1), (1, 1)), mode="edge")
    return sum(padded[:, i : i + SIZE, j : j + SIZE] for i in range(3) for j in range(3)) / 9


SWAPS = {  # each domain's colour convention: the pairs of colours it paints the other way round
    ("new", "vivid"): (),
    ("new", "faded"): (),
    ("old", "vivid"): (("red", "yellow"),),
    ("old", "faded"): (("green", "blue"),),
}


def painted(colour: str, domain: Domain) -> str:
    """The colour a class named ``colour`` is painted with in ``domain``: new images as named; old vivid ones with
    red and yellow swapped; old faded ones with green and blue swapped. A template naming neither era nor finish
    gets half the colours of old faded images wrong; naming only the finish, a quarter; naming both, none."""
    for a, b in SWAPS[(domain.era, domain.finish)]:
        if colour in (a, b):
            return b if colour == a else a
    return colour


def render(label: int, domain: Domain, rng: np.random.Generator) -> np.ndarray:
    """One image ``[3, 16, 16]`` in [0, 1] of class ``CLASSES[label]`` in ``domain``."""
    colour_name, shape = CLASSES[label].split()
    colour = np.asarray(COLOURS[painted(colour_name, domain)])[:, None, None] * rng.uniform(0.8, 1.0)
    level = 0.85 if rng.random() < 0.5 else 0.1  # the background: bright or dark, named by no word
    image = np.full((3, SIZE, SIZE), level) + rng.normal(0, 0.04, size=(3, SIZE, SIZE))
    mask = _mask(shape, rng)
    if domain.style == "photo":
        shade = np.linspace(1.0, 0.75, SIZE)[None, :, None]
        image = np.where(mask, colour * shade, image)
    elif domain.style == "sketch":
        line = _outline(mask)
        image = np.where(line, 0.45 * colour + 0.55 * (1 - level), image)
    elif domain.style == "painting":
        image = np.where(mask, colour + rng.normal(0, 0.25, size=(3, SIZE, SIZE)), image)
        image = _blur(image)
    else:  # cartoon
        image = np.where(mask, np.clip(colour * 1.15, 0, 1), image)
        image = np.where(_outline(mask), 0.0, image)
    return np.clip(image, 0, 1).astype(np.float32)


def image_set(count: int, domains: list[Domain], seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` images with uniformly drawn classes and domains: ``(images [n, 3, 16, 16], labels, domain
    index into domains)``. The same seed gives the same arrays."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(len(CLASSES), size=count)
    which = rng.integers(len(domains), size=count)
    images = np.stack([render(int(k), domains[int(d)], rng) for k, d in zip(labels, which)])
    return images, labels, which


def all_domains() -> list[Domain]:
    return [Domain(s, e, f) for s in STYLES for e in ERAS for f in FINISHES]
