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
    ``statement`` (``all``: every case in ``measured`` passes). ``headline`` is one sentence a reader
    can judge the verdict from: the deciding numbers, ours beside the paper's. ``evidence`` lists the
    paper-relative paths (``tables/x.csv``, ``figures/y.png``) the numbers are computed from and the
    figures that show them, so every verdict is one hop from the files that made it.
    """

    id: str
    statement: str
    paper_value: Any
    measured: Any
    comparator: str
    holds: bool | None
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    headline: str = ""
    evidence: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.comparator not in COMPARATORS:
            raise ValueError(f"claim {self.id}: comparator must be one of {COMPARATORS}, got {self.comparator!r}")
        if self.holds is not None and not isinstance(self.holds, bool):
            raise TypeError(f"claim {self.id}: holds must be a bool or None, got {type(self.holds).__name__}")
        if self.holds is None and not self.note:
            raise ValueError(f"claim {self.id}: an unevaluated claim needs a note saying why")


def not_evaluated(
    claim_id: str, statement: str, paper_value: Any, note: str, evidence: list[str], comparator: str = "all"
) -> Claim:
    """A claim this scale could not evaluate (e.g. its method was not run): ``holds`` None, ``note`` saying why."""
    return Claim(
        id=claim_id,
        statement=statement,
        paper_value=paper_value,
        measured={},
        comparator=comparator,
        holds=None,
        note=note,
        headline=f"not evaluated: {note}",
        evidence=evidence,
    )


EVIDENCE_FOLDERS = ("tables/", "figures/", "timing/")


def check_readable(claim: Claim) -> None:
    """A written claim needs a headline and evidence inside the paper's results folder."""
    if not claim.headline.strip():
        raise ValueError(f"claim {claim.id}: a headline with the deciding numbers is required")
    if not claim.evidence:
        raise ValueError(f"claim {claim.id}: evidence (the tables and figures it rests on) is required")
    for path in claim.evidence:
        if not path.startswith(EVIDENCE_FOLDERS) or ".." in path.split("/"):
            raise ValueError(
                f"claim {claim.id}: evidence {path!r} must be a path under "
                f"{', '.join(EVIDENCE_FOLDERS)} of the paper's results"
            )


def write_claims(path: str | os.PathLike, claims: list[Claim]) -> None:
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate claim ids: {ids}")
    for claim in claims:
        check_readable(claim)
    write_json(path, [asdict(c) for c in claims])


def read_claims(path: str | os.PathLike) -> list[Claim]:
    return [Claim(**record) for record in read_json(path)]


def verdict_word(holds: bool | None) -> str:
    return {True: "holds", False: "does not hold", None: "not evaluated"}[holds]
