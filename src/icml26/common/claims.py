"""Verdicts on a paper's headline claims, in one machine-readable shape, with the strength of their evidence.

``claims.json`` is a list of :class:`Claim` records. Its ``state`` is the verdict, one of :data:`STATES`:

- ``holds``: every deciding statistic's interval clears the claim's threshold, by its practical margin where the
  claim declares one (a deterministic claim: its exact number passes);
- ``does not hold``: an interval lies wholly on the wrong side of its threshold (moved by the margin: an effect
  shown to be smaller than the claim's practical size does not hold); never a point estimate alone;
- ``inconclusive``: otherwise -- an interval straddles its threshold, and the headline says what would
  decide it (about how many more seeds or items at this effect size);
- ``premise not met``: the stand-in lacks a capability the claim presupposes (a :class:`Premise`,
  measured in the same run, failed), so the run cannot test the claim whichever way the numbers fall;
- ``not evaluated``: this scale did not run what the claim needs (``note`` says why).

The state is computed, never typed in: :func:`decide` turns the premises and the intervals (or, for a
deterministic claim, its exact yes/no) into it, and :class:`Claim` refuses a record whose state its own
intervals and premises contradict. ``holds`` is kept in the written records for old readers (``true``
only for ``holds``, ``false`` only for ``does not hold``, ``null`` otherwise); it is derived from
``state``, the one source of truth. A result built into the setup (a scripted agent made to show the
effect) carries ``by_construction`` (why) and is not counted as a reproduced claim.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .io import read_json, write_json

COMPARATORS = ("<=", ">=", "<", ">", "==", "all", "none")
HOLDS, FAILS, INCONCLUSIVE, PREMISE_NOT_MET, NOT_EVALUATED = STATES = (
    "holds",
    "does not hold",
    "inconclusive",
    "premise not met",
    "not evaluated",
)
DETERMINISTIC = "deterministic"  # the interval field of a claim whose numbers carry no sampling noise
WALL_CLOCK = "wall-clock point"  # a claim on one timing measurement of this machine (timing/claims.json)
NOT_RECORDED = "not recorded (written before verdict states)"  # how a record older than states reads
SUBSTITUTION_NOT_RECORDED = "not recorded (written before claims named their substitution)"
POINTS = (DETERMINISTIC, WALL_CLOCK, NOT_RECORDED)  # interval fields that are not intervals: a point verdict
SIDES = (">", ">=", "<", "<=")
TOO_MANY = 1000  # Interval.to_decide: beyond this many units (or 100x the present ones, if more), say the effect is
TIMES_TOO_MANY = 100  # too small instead of a count (10,000 particles may sensibly become 40,000; 3 seeds not 5,000)


CLIPPED = "clipped to the statistic's range"  # what a method says of an interval clipped to its statistic's range


@dataclass(frozen=True)
class Interval:
    """A confidence interval on one deciding statistic, and the threshold the claim puts on it.

    ``statistic`` is the key of the number in the claim's ``measured`` (so ``make verify`` applies that
    number's tolerance to the interval too); ``side`` is where the claim wants the statistic (``">"``:
    above ``threshold``); ``method`` says how the interval was made ("t over 3 seeds", "Clopper-Pearson
    over 128 items", ...); ``level`` is None for a stability range, which has no coverage level.
    ``margin`` is the practical margin the claim declares: how far beyond the threshold the statistic must lie to
    matter. The interval must clear ``threshold + margin`` (``-`` for a claim below its threshold) to hold, and a
    claim does not hold when its interval lies wholly short of that boundary; a point estimate never decides
    (until 2026-12-05 an estimate beyond the margin on the wrong side failed a claim whose interval still reached
    the threshold: issue 66).
    """

    statistic: str
    estimate: float
    low: float
    high: float
    threshold: float
    side: str
    method: str
    level: float | None = 0.95
    margin: float | None = None
    dof: float | None = None  # a Student's t interval's degrees of freedom (what would decide it counts them)

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"interval on {self.statistic}: side must be one of {SIDES}, got {self.side!r}")
        if not (self.low <= self.estimate <= self.high) and not any(map(math.isnan, (self.low, self.high))):
            raise ValueError(
                f"interval on {self.statistic}: estimate {self.estimate:g} outside [{self.low:g}, {self.high:g}]"
            )

    @property
    def boundary(self) -> float:
        """Where the statistic must lie beyond to matter: the threshold moved by the practical margin."""
        shift = self.margin or 0.0
        return self.threshold + shift if self.side.startswith(">") else self.threshold - shift

    def _beyond(self, value: float, wanted: bool) -> bool:
        """``value`` lies on the wanted side of the boundary (``wanted``) or strictly on the other."""
        above = self.side.startswith(">")
        strict = not self.side.endswith("=")
        bound = self.boundary
        if wanted:
            return (
                (value > bound if strict else value >= bound)
                if above
                else (value < bound if strict else value <= bound)
            )
        return (value <= bound if strict else value < bound) if above else (value >= bound if strict else value > bound)

    @property
    def state(self) -> str:
        if any(map(math.isnan, (self.estimate, self.low, self.high))):
            return INCONCLUSIVE
        near, far = (self.low, self.high) if self.side.startswith(">") else (self.high, self.low)
        if self._beyond(near, wanted=True):
            return HOLDS
        if self._beyond(far, wanted=False):
            return FAILS
        return INCONCLUSIVE

    def to_decide(self, units: int, unit: str = "seeds") -> str:
        """What would settle a straddling interval: about how many ``unit`` (now ``units``) bring its half width
        below the estimate's distance to the threshold, at this effect size and spread. The half width is
        Student's t's, ``t(n - 1) s / sqrt(n)``: with more units both the square root and t's quantile shrink (the
        normal quantile in its place promises too few: 6 seeds where 8 are needed, issue 66). An interval without
        degrees of freedom (a bootstrap over ``units`` runs) is read as t's over them."""
        gap = abs(self.estimate - self.boundary)
        # a clipped interval (intervals.bounded) lost part of one side: the other side is the half width
        clipped = CLIPPED in self.method
        half = max(self.estimate - self.low, self.high - self.estimate) if clipped else (self.high - self.low) / 2
        if not math.isfinite(half):
            return f"more than {units} {unit} (one gives no interval)"
        if gap < 1e-12:
            return f"nothing at this effect size: the estimate sits on the threshold ({units} {unit} now)"
        need = seeds_to_decide(half, gap, units, self.dof if self.dof is not None else units - 1, self.level or 0.95)
        if need is None:  # a near-zero effect: a count like 95,102 would read as a plan, not as "no effect seen"
            return f"more than {TOO_MANY:,} {unit}: the effect is too small to settle (now {units})"
        return f"about {need} {unit} at this effect size (now {units})"


UNITS = re.compile(  # "3 seeds", "3 and 1 seeds", "87 correct and 214 wrong specs"
    r"(\d[\d,]*)(?: [a-z]+)?(?: and (\d[\d,]*)(?: [a-z]+)?)? "
    r"(seeds|runs|datasets|subjects|items|specs|trials|episodes|problems|pairs|images|sentences|particles|canaries)\b"
)


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def units_of(interval: Interval) -> tuple[int, str] | None:
    """How many independent units the interval rests on and what they are, read from its ``method`` ("t over 3
    and 1 seeds and 100 items" -> (1, "seeds"): the fewest seeds of either side, seeds first since more seeds is
    what narrows a seed-limited interval), else from its degrees of freedom; None when neither says."""
    found = [(min(_count(a), _count(b or a)), unit) for a, b, unit in UNITS.findall(interval.method)]
    seeds = [n for n, unit in found if unit == "seeds"]
    if seeds:
        return min(seeds), "seeds"
    if found:
        return found[0]
    if interval.dof is not None:
        return int(round(interval.dof)) + 1, "seeds"
    return None


def to_decide(claim: Claim) -> list[str]:
    """For an inconclusive claim, what would settle each undecided interval (:meth:`Interval.to_decide` at the
    units its method names); empty for a decided claim. A stability range (no coverage level) is read as a
    t interval over its seeds, a rough guide; an interval whose units its method does not name says so."""
    if claim.state != INCONCLUSIVE or not isinstance(claim.interval, list):
        return []
    plan = []
    for interval in claim.interval:
        if interval.state != INCONCLUSIVE:
            continue
        units = units_of(interval)
        if units is None:
            plan.append(f"{interval.statistic}: not estimable (its method names no units: {interval.method})")
        else:
            plan.append(f"{interval.statistic}: {interval.to_decide(*units)}")
    return plan


def seeds_to_decide(half: float, gap: float, units: int, dof: float, level: float) -> int | None:
    """The fewest units ``n > units`` whose t interval's half width falls below ``gap``, the spread per unit read
    from the present ``half`` width (t with ``dof`` degrees of freedom over ``units``); None beyond
    :data:`TOO_MANY` units or :data:`TIMES_TOO_MANY` times ``units``. More units add as many degrees of freedom."""
    from scipy import stats

    q = (1 + level) / 2
    dof = max(float(dof), 1.0)
    cap = max(TOO_MANY, TIMES_TOO_MANY * units)
    spread = half * math.sqrt(units) / stats.t.ppf(q, dof)
    if spread * stats.norm.ppf(q) / math.sqrt(cap) >= gap:  # not even the normal quantile settles it
        return None
    n = max(units + 1, math.ceil(units * (half / gap) ** 2 * (stats.norm.ppf(q) / stats.t.ppf(q, dof)) ** 2))
    while stats.t.ppf(q, dof + n - units) * spread / math.sqrt(n) >= gap:
        n += 1
        if n > cap:
            return None
    return n


@dataclass(frozen=True)
class Premise:
    """A capability the claim presupposes, measured in the same run: ``measured`` against ``threshold`` by
    ``comparator``; ``why`` says why the claim needs it (chosen from the paper's setting, before the run)."""

    name: str
    measured: Any
    threshold: Any
    comparator: str
    met: bool
    why: str

    def __post_init__(self) -> None:
        if not isinstance(self.met, bool):
            raise TypeError(f"premise {self.name}: met must be a bool, got {type(self.met).__name__}")
        if not self.why.strip():
            raise ValueError(f"premise {self.name}: say why the claim presupposes it")


def premise(name: str, measured: float, threshold: float, comparator: str, why: str) -> Premise:
    """A numeric premise, its ``met`` computed from ``measured comparator threshold``."""
    if comparator not in SIDES:
        raise ValueError(f"premise {name}: comparator must be one of {SIDES}, got {comparator!r}")
    value = float(measured)
    met = {">": value > threshold, ">=": value >= threshold, "<": value < threshold, "<=": value <= threshold}
    return Premise(name, value, threshold, comparator, bool(met[comparator]), why)


def decide(intervals: list[Interval] | None = None, *, exact: bool | None = None, premises: list[Premise] = ()) -> str:
    """The state from the claim's premises and either its intervals (every one must clear its threshold; any
    that lies on the wrong side fails the claim) or, for a deterministic claim, its ``exact`` yes/no."""
    if any(not p.met for p in premises):
        return PREMISE_NOT_MET
    if intervals:
        states = {i.state for i in intervals}
        return FAILS if FAILS in states else INCONCLUSIVE if INCONCLUSIVE in states else HOLDS
    if exact is None:
        raise ValueError("decide needs intervals or, for a deterministic claim, exact=True/False")
    return HOLDS if exact else FAILS


@dataclass(frozen=True)
class Claim:
    """One headline claim and our measurement of it.

    ``paper_value`` is what the paper reports (``None`` if it gives no number), ``measured`` what this run
    measured (a number or a small dict of numbers), ``comparator`` how ``measured`` is judged against the
    threshold stated in ``statement`` (``all``: every criterion passes). ``interval`` is the list of
    :class:`Interval` on the deciding statistics, or :data:`DETERMINISTIC` for numbers without sampling
    noise (closed forms, exact oracles); ``premises`` the capabilities the claim presupposes, or empty
    with ``premises_note`` saying why none is needed. ``headline`` is one sentence a reader can judge the
    verdict from: the deciding numbers, ours beside the paper's. ``evidence`` lists the paper-relative
    paths (``tables/x.csv``, ``figures/y.png``) the numbers are computed from and the figures that show
    them, so every verdict is one hop from the files that made it. ``substitution`` says what the verdict
    rests on in place of the paper's models and data (:data:`NO_SUBSTITUTION` when nothing is substituted);
    :func:`write_claims` stamps it from the paper's config, so a stand-in's verdict never reads like one on
    the paper's own setting.
    """

    id: str
    statement: str
    paper_value: Any
    measured: Any
    comparator: str
    state: str
    interval: list[Interval] | str = DETERMINISTIC
    premises: list[Premise] = field(default_factory=list)
    premises_note: str = ""
    by_construction: str = ""
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    headline: str = ""
    evidence: list[str] = field(default_factory=list)
    substitution: str = ""

    def __post_init__(self) -> None:
        if self.comparator not in COMPARATORS:
            raise ValueError(f"claim {self.id}: comparator must be one of {COMPARATORS}, got {self.comparator!r}")
        if self.state not in STATES:
            raise ValueError(f"claim {self.id}: state must be one of {STATES}, got {self.state!r}")
        if self.interval not in POINTS and not (
            isinstance(self.interval, list) and self.interval and all(isinstance(i, Interval) for i in self.interval)
        ):
            raise TypeError(f"claim {self.id}: interval must be one of {POINTS} or a non-empty list of Interval")
        if not all(isinstance(p, Premise) for p in self.premises):
            raise TypeError(f"claim {self.id}: premises must be Premise records")
        if not self.premises and not self.premises_note.strip():
            raise ValueError(f"claim {self.id}: no premises: premises_note must say why none is needed")
        if self.state == NOT_EVALUATED:
            if not self.note:
                raise ValueError(f"claim {self.id}: an unevaluated claim needs a note saying why")
            return
        unmet = [p.name for p in self.premises if not p.met]
        if (self.state == PREMISE_NOT_MET) != bool(unmet):
            raise ValueError(f"claim {self.id}: state {self.state!r} but premises not met: {unmet or 'none'}")
        if not unmet and self.interval not in POINTS:
            expected = decide(self.interval)
            if self.state != expected:
                raise ValueError(f"claim {self.id}: state {self.state!r} contradicts its intervals ({expected!r})")
        if self.state == INCONCLUSIVE and self.interval in POINTS:
            raise ValueError(f"claim {self.id}: a claim without an interval cannot be inconclusive")

    @property
    def holds(self) -> bool | None:
        """For old readers: True for ``holds``, False for ``does not hold``, None otherwise."""
        return {HOLDS: True, FAILS: False}.get(self.state)

    @property
    def reproduced(self) -> bool:
        """Counts as a reproduced claim: it holds and the setup did not build the result in."""
        return self.state == HOLDS and not self.by_construction

    def record(self) -> dict[str, Any]:
        """The JSON record: every field, plus the derived ``holds`` for old readers."""
        return asdict(self) | {"holds": self.holds}


def not_evaluated(
    claim_id: str,
    statement: str,
    paper_value: Any,
    note: str,
    evidence: list[str],
    comparator: str = "all",
    premises: list[Premise] = (),
) -> Claim:
    """A claim this scale could not evaluate (e.g. its method was not run): ``note`` says why."""
    return Claim(
        id=claim_id,
        statement=statement,
        paper_value=paper_value,
        measured={},
        comparator=comparator,
        state=NOT_EVALUATED,
        premises=list(premises),
        premises_note="" if premises else "not evaluated at this scale",
        note=note,
        headline=f"not evaluated: {note}",
        evidence=evidence,
    )


EVIDENCE_FOLDERS = ("tables/", "figures/", "timing/")


NO_SUBSTITUTION = "none"  # a substitution text that starts with this: the paper's own setting, nothing stood in


def is_stand_in(substitution: str) -> bool:
    """Whether a claim's ``substitution`` names a stand-in (anything but ``none ...``)."""
    return not substitution.startswith(NO_SUBSTITUTION)


def setting(claims: list[Claim]) -> str:
    """``stand-in``, ``paper's`` or ``not recorded``: whether a run's verdicts rest on a stand-in (every claim of a
    run carries the same ``substitution``, :func:`write_claims`)."""
    text = claims[0].substitution if claims else SUBSTITUTION_NOT_RECORDED
    return "not recorded" if text == SUBSTITUTION_NOT_RECORDED else "stand-in" if is_stand_in(text) else "paper's"


def substitution_text(stand_in: str, user_inputs: dict[str, Any] | None = None) -> str:
    """A run's ``substitution``: the config's text, plus the user's own inputs (``key -> path``) where a run
    replaced part of the stand-in with them (a model or data folder given by path)."""
    given = {key: value for key, value in (user_inputs or {}).items() if value not in (None, "", {}, [])}
    if not given:
        return stand_in
    named = ", ".join(f"{key} = {value}" for key, value in given.items())
    return f"{stand_in} (by default; this run used the user's own {named})"


def check_readable(claim: Claim) -> None:
    """A written claim needs a headline, evidence inside the paper's results folder and its substitution."""
    if not claim.substitution.strip():
        raise ValueError(
            f"claim {claim.id}: substitution (what stands in for the paper's setting, or 'none') is needed"
        )
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


def write_claims(path: str | os.PathLike, claims: list[Claim], *, substitution: str) -> None:
    """Write ``claims.json``, each claim stamped with the run's ``substitution`` (the paper's config key)."""
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate claim ids: {ids}")
    claims = [replace(c, substitution=substitution) for c in claims]
    for claim in claims:
        check_readable(claim)
    write_json(path, [c.record() for c in claims])


NUMBERS = ("estimate", "low", "high", "threshold")


def _number(value: Any) -> float:
    """A float as ``write_json`` writes it: NaN as null, infinities as ``"inf"`` / ``"-inf"``."""
    return math.nan if value is None else float(value)


LEGACY_STATE = {True: HOLDS, False: FAILS, None: NOT_EVALUATED}


def from_record(record: dict[str, Any]) -> Claim:
    """A :class:`Claim` from its JSON record. A record written before verdict states (``holds`` only) reads as
    ``holds`` / ``does not hold`` / ``not evaluated``, its interval and premises marked as not recorded."""
    record = dict(record)
    holds = record.pop("holds", None)
    if "state" not in record:
        record["state"] = LEGACY_STATE[holds]
        record.setdefault("interval", NOT_RECORDED)
        record.setdefault("premises_note", "recorded before premises and intervals were part of a verdict")
        if record["state"] == NOT_EVALUATED and not record.get("note"):
            record["note"] = "not evaluated"
    record.setdefault("substitution", SUBSTITUTION_NOT_RECORDED)
    interval = record.get("interval", DETERMINISTIC)
    if isinstance(interval, list):
        record["interval"] = [Interval(**(i | {k: _number(i[k]) for k in NUMBERS})) for i in interval]
    record["premises"] = [Premise(**p) for p in record.get("premises", [])]
    return Claim(**record)


def read_claims(path: str | os.PathLike) -> list[Claim]:
    return [from_record(record) for record in read_json(path)]


def verdict_word(claim: Claim) -> str:
    """The state, with ``(by construction)`` where the setup built the result in; a claim whose premise failed says
    too what its own intervals would decide (the reader sees both: issue 66)."""
    word = claim.state + (" (by construction)" if claim.by_construction else "")
    if claim.state == PREMISE_NOT_MET and isinstance(claim.interval, list):
        word += f" (its intervals alone: {decide(claim.interval)})"
    return word


def count_states(claims: list[Claim]) -> dict[str, int]:
    """How many claims are in each state (every state listed, in :data:`STATES` order)."""
    return {state: sum(1 for c in claims if c.state == state) for state in STATES}
