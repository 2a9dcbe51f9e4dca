"""How far a committed number may move on another machine (``make verify``, ``icml26.common.verify``).

Kept apart from the report so that a paper's verdict module can declare its ``TOLERANCES`` without making
its verdict job depend on the report's code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    """How far a number may move across machines: ``|new - old| <= abs + rel |old|``, and why."""

    rel: float = 0.0
    abs: float = 0.0
    why: str = ""

    def allows(self, old: float, new: float) -> bool:
        if math.isnan(old) or math.isnan(new):
            return math.isnan(old) and math.isnan(new)
        if math.isinf(old) or math.isinf(new):
            return old == new
        return abs(new - old) <= self.abs + self.rel * abs(old)

    def __str__(self) -> str:
        bounds = [f"rel {self.rel:g}" if self.rel else "", f"abs {self.abs:g}" if self.abs else ""]
        return " + ".join(b for b in bounds if b) or "exact"


EXACT = Tolerance(rel=1e-9, why="default: printed to 10 significant digits, a number the machine must reproduce")
