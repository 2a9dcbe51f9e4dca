"""Verdicts on a paper's headline claims, in one machine-readable shape.

``claims.json`` is a list of :class:`Claim` records. ``holds`` is computed
from measured numbers by the paper's own ``verdict`` rule function; a claim
that does not reproduce is written with ``holds: false`` and its numbers.
``holds`` is ``None`` only when the claim could not be evaluated at this
scale, with the reason in ``note``.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from typing import Any

from .io import read_json, write_json

COMPARATORS = ("<=", ">=", "<", ">", "==", "all", "none")


@dataclass(frozen=True)
class Claim:
    """One headline claim and our measurement of it.

    ``paper_value`` is what the paper reports (``None`` if it gives no number),
    ``measured`` what this run measured (a number or a small dict of numbers),
    ``comparator`` how ``measured`` is judged against the threshold stated in
    ``statement`` (``all``: every case in ``measured`` passes).
    """

    id: str
    statement: str
    paper_value: Any
    measured: Any
    comparator: str
    holds: bool | None
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.comparator not in COMPARATORS:
            raise ValueError(f"claim {self.id}: comparator must be one of {COMPARATORS}, got {self.comparator!r}")
        if self.holds is not None and not isinstance(self.holds, bool):
            raise TypeError(f"claim {self.id}: holds must be a bool or None, got {type(self.holds).__name__}")
        if self.holds is None and not self.note:
            raise ValueError(f"claim {self.id}: an unevaluated claim needs a note saying why")


def write_claims(path: str | os.PathLike, claims: list[Claim]) -> None:
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate claim ids: {ids}")
    write_json(path, [asdict(c) for c in claims])


def read_claims(path: str | os.PathLike) -> list[Claim]:
    return [Claim(**record) for record in read_json(path)]


def verdict_word(holds: bool | None) -> str:
    return {True: "holds", False: "does not hold", None: "not evaluated"}[holds]
