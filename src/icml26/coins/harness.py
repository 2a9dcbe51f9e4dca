"""Proof obligations in Coq: written per candidate file, closed by ``coqc`` under resource limits.

The candidate specs of one problem and all their obligations go into one ``.v`` file (a module per
candidate), so ``coqc`` starts, loads the standard library and checks assumptions once per batch. An
obligation claims a proposition C (``S`` for an accept or a precondition, ``~ S`` for a reject); its Coq
goal is ``coins_verdict C``, closed by a proof of C (*proved*), of ``~ C`` (*refuted*), or, when the fixed
portfolio of ``CoinsPrelude.v`` finds neither within the tactic timeout, by the empty constructor
(*unknown*). A failed search is never a verdict: only a proof the
kernel checked counts. ``Print Assumptions`` of all obligations together must then say "Closed under
the global context"; an axiom there marks the candidate untrusted.

``coqc`` runs in a fresh temporary directory (the candidate file and the compiled prelude only), with
a wall-clock timeout per file and limits on address space and CPU time (``resource.setrlimit``).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .specs import Screened, screen

PRELUDE = "CoinsPrelude.v"
HEADER = """From Coq Require Import ZArith String List Bool Lia.
From Coins Require Import CoinsPrelude.
Import ListNotations.
Open Scope Z_scope.
"""
OUTCOMES = ("proved", "refuted", "unknown")


def combined(outcomes: list[str]) -> str:
    """One outcome for a group of obligations: refuted if any is, proved if all are, else unknown."""
    if "refuted" in outcomes:
        return "refuted"
    if outcomes and all(o == "proved" for o in outcomes):
        return "proved"
    return "unknown"


class CoqUnavailable(RuntimeError):
    """``coqc`` is not installed (``make setup`` installs Coq 8.16 from Debian)."""


@dataclass(frozen=True)
class Obligation:
    """``statement`` is the Coq proposition S (about ``Candidate.spec``); a *reject* obligation claims ``~ S``."""

    id: str
    kind: str  # accept | reject | pre | equiv
    test: int
    statement: str

    @property
    def goal(self) -> str:
        claim = f"~ ({self.statement})" if self.kind == "reject" else self.statement
        return f"coins_verdict ({claim})"


@dataclass(frozen=True)
class Limits:
    tactic_timeout_s: int
    equivalence_timeout_s: int
    file_timeout_s: float
    memory_mb: int


@dataclass(frozen=True)
class FileResult:
    """``status``: ok | ill-formed | rejected | timeout | untrusted; ``outcomes`` per obligation id."""

    status: str
    message: str
    outcomes: dict[str, str]
    seconds: dict[str, float]
    wall_seconds: float


def coqc() -> str:
    path = shutil.which("coqc")
    if path is None:
        raise CoqUnavailable("coqc not found: install Coq 8.16 (apt-get install coq libcoq-stdlib; make setup does)")
    return path


def obligation_file(
    candidates: list[tuple[Screened, list[Obligation]]],
    signature: str,
    limits: Limits,
    gold: str | None = None,
    gold_definitions: tuple[str, ...] = (),
) -> str:
    """The Coq source checking a batch of candidates: the trusted gold spec in a module (for
    equivalence obligations), then per candidate a module ``C<i>`` holding its text (module
    ``Candidate``), its type check and its obligations; last, ``Print Assumptions`` of them all.

    Non-recursive definitions are unfolded before the search, since ``cbn`` only unfolds a constant
    when a match or fixpoint then reduces. An *equiv* obligation is only tried in the proving
    direction (a counterexample to a universal statement is not searched for)."""
    lines = [HEADER]
    if gold is not None:
        lines += ["Module Gold.", gold.strip(), "End Gold.", ""]
    names = []
    for index, (screened, obligations) in enumerate(candidates):
        unfolded = [f"Candidate.{n}" for n in screened.definitions] + [f"Gold.{n}" for n in gold_definitions]
        unfold = "unfold " + ", ".join(reversed(unfolded)) + " in *; "
        lines += [
            f"Module C{index}.",
            f'Goal True. idtac "@@candidate {index}". exact I. Qed.',
            "Module Candidate.",
            screened.text.strip(),
            "End Candidate.",
            f"Check (Candidate.spec : {signature}).",
            'Goal True. idtac "@@signature-ok". exact I. Qed.',
        ]
        for ob in obligations:
            timeout = limits.equivalence_timeout_s if ob.kind == "equiv" else limits.tactic_timeout_s
            tactic = "coins_equivalence" if ob.kind == "equiv" else "coins_portfolio"
            search = f"solve [ {unfold}timeout {timeout} {tactic} ]"
            refute = "" if ob.kind == "equiv" else f' | apply coins_refuted; {search}; idtac "@@refuted"'
            lines += [
                f"Lemma {ob.id} : {ob.goal}.",
                (
                    f'Proof. idtac "@@{ob.id}"; first [ apply coins_proved; {search}; idtac "@@proved"{refute}'
                    f' | idtac "@@unknown"; apply coins_unknown ]. Qed.'
                ),
            ]
            names.append(f"C{index}.{ob.id}")
        lines += [f"End C{index}.", ""]
    if names:
        lines.append(f"Definition coins_all := ({', '.join(names)}{', tt' if len(names) == 1 else ''}).")
        lines += ['Goal True. idtac "@@assumptions". exact I. Qed.', "Print Assumptions coins_all."]
    return "\n".join(lines) + "\n"


def _limit(memory_mb: int, cpu_s: float):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
        cpu = int(cpu_s) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))

    return apply


class Workspace:
    """A temporary directory with the prelude compiled once; each ``coqc`` call runs in its own subfolder."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="coins-")
        self.root = Path(self._dir.name)
        self.prelude = self.root / "prelude"
        self.prelude.mkdir()
        (self.prelude / PRELUDE).write_text(resources.files(__package__).joinpath(PRELUDE).read_text(encoding="utf-8"))
        done = subprocess.run(
            [coqc(), "-q", "-Q", ".", "Coins", PRELUDE],
            cwd=self.prelude,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{PRELUDE} does not compile: {done.stderr.strip()}")
        self._count = 0
        self.coqc_seconds = 0.0  # wall clock spent in coqc on candidate files (timing outputs only)

    def close(self) -> None:
        self._dir.cleanup()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(
        self, candidate: str, signature: str, obligations: list[Obligation], limits: Limits, gold: str | None = None
    ) -> FileResult:
        """One candidate on its own (see :meth:`run_batch`)."""
        return self.run_batch([candidate], signature, obligations, limits, gold)[0]

    def run_batch(
        self,
        candidates: list[str],
        signature: str,
        obligations: list[Obligation],
        limits: Limits,
        gold: str | None = None,
    ) -> list[FileResult]:
        """Screen each candidate, then check all obligations of all of them in one ``coqc`` call
        (``gold``: the trusted spec that *equiv* obligations compare with).

        A candidate that stops the file (ill-formed, an error, the time or memory limit) is given that
        status and the file is run again without it; if ``Print Assumptions`` shows an axiom, each
        candidate is run alone to find which."""
        results: dict[int, FileResult] = {}
        pending: dict[int, Screened] = {}
        for index, text in enumerate(candidates):
            screened = screen(text)
            if screened.reason:
                results[index] = FileResult(screened.reason.split(":", 1)[0], screened.reason, {}, {}, 0.0)
            else:
                pending[index] = screened
        gold_definitions = screen(gold).definitions if gold is not None else ()
        while pending:
            order = list(pending)
            batch = [(pending[i], [ob for ob in obligations if _applies(ob, pending[i], gold)]) for i in order]
            source = obligation_file(batch, signature, limits, gold, gold_definitions)
            stdout, stderr, code, wall = self._coqc(source, limits, len(order))
            parsed, axioms = parse_output(stdout)
            share = wall / len(order)
            if code == 0 and not axioms:
                for position, index in enumerate(order):
                    outcomes, seconds = parsed.get(position, ({}, {}))
                    results[index] = _unread_as_unknown(outcomes, seconds, batch[position][1], share)
                break
            if code == 0:  # an axiom somewhere: find the candidate(s) one by one
                if len(order) == 1:
                    outcomes, seconds = parsed.get(0, ({}, {}))
                    results[order[0]] = FileResult(
                        "untrusted", f"a proof rests on {axioms[0]}", outcomes, seconds, wall
                    )
                else:
                    for index in order:
                        results[index] = self.run_batch([candidates[index]], signature, obligations, limits, gold)[0]
                break
            culprit_position = max(parsed) if parsed else 0
            culprit = order[culprit_position]
            outcomes, seconds = parsed.get(culprit_position, ({}, {}))
            message = in_candidate(coq_error(stderr or stdout), source, culprit_position, pending[culprit].text)
            signed = f"@@candidate {culprit_position}" in stdout and _signed(stdout, culprit_position)
            if code is None:
                status, message = "timeout", f"coqc ran past {limits.file_timeout_s} s per candidate"
            elif code < 0 or "Out of memory" in (stderr + stdout):
                status, message = "timeout", f"coqc stopped by a resource limit ({message})"
            elif not signed:
                status, outcomes, seconds = "ill-formed", {}, {}
            else:
                status = "error"
            results[culprit] = FileResult(status, message, outcomes, seconds, share)
            del pending[culprit]
        return [results[i] for i in range(len(candidates))]

    def _coqc(self, source_text: str, limits: Limits, candidates: int) -> tuple[str, str, int | None, float]:
        """Run coqc on one file in a fresh folder: ``(stdout, stderr, exit code or None on timeout, seconds)``."""
        self._count += 1
        folder = self.root / f"c{self._count}"
        folder.mkdir()
        (folder / "candidates.v").write_text(source_text, encoding="utf-8")
        command = [coqc(), "-q", "-Q", str(self.prelude), "Coins", "-time", "candidates.v"]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder), "LANG": "C"}
        budget = limits.file_timeout_s * candidates
        start = time.perf_counter()
        try:
            done = subprocess.run(
                command,
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=budget,
                check=False,
                preexec_fn=_limit(limits.memory_mb, budget),
            )
            stdout, stderr, code = done.stdout, done.stderr, done.returncode
        except subprocess.TimeoutExpired as expired:
            stdout = expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
            stderr, code = "", None
        wall = time.perf_counter() - start
        self.coqc_seconds += wall
        shutil.rmtree(folder, ignore_errors=True)
        return stdout, stderr, code, wall


def _unread_as_unknown(
    outcomes: dict[str, str], seconds: dict[str, float], obligations: list[Obligation], share: float
) -> FileResult:
    """A candidate's result from a file coqc checked to the end: an obligation it was given whose outcome mark
    cannot be read from coqc's output counts as *unknown* (neither proved nor refuted), and the message names it,
    rather than the obligation dropping out of the tables."""
    unread = [ob.id for ob in obligations if ob.id not in outcomes]
    if not unread:
        return FileResult("ok", "", outcomes, seconds, share)
    message = f"no outcome read from coqc's output for {', '.join(unread)}: counted unknown"
    return FileResult("ok", message, outcomes | dict.fromkeys(unread, "unknown"), seconds, share)


def _applies(obligation: Obligation, screened: Screened, gold: str | None) -> bool:
    """Precondition obligations need a ``pre``; equivalence obligations need the gold spec."""
    if obligation.kind == "pre":
        return screened.defines_pre
    if obligation.kind == "equiv":
        return gold is not None
    return True


def _signed(stdout: str, position: int) -> bool:
    """Whether candidate ``position`` passed its type check before the file stopped."""
    after = stdout.split(f"@@candidate {position}\n", 1)[1]
    return "@@signature-ok" in after.split("@@candidate ", 1)[0]


_MARK = re.compile(r"^@@(candidate \d+|coins_\w+|proved|refuted|unknown|assumptions|signature-ok)$")
_TIMED = re.compile(r"^Chars \d+ - \d+ \[(.*?)\] ([\d.]+) secs")


def parse_output(stdout: str) -> tuple[dict[int, tuple[dict[str, str], dict[str, float]]], list[str]]:
    """Per candidate position, the outcomes and seconds (search + kernel check) of its obligations,
    from ``coqc -time`` output; and the axioms ``Print Assumptions`` lists for all of them."""
    parsed: dict[int, tuple[dict[str, str], dict[str, float]]] = {}
    outcomes: dict[str, str] = {}
    seconds: dict[str, float] = {}
    current, checking = None, False
    axioms: list[str] = []
    for line in stdout.splitlines():
        mark = _MARK.match(line)
        timed = _TIMED.match(line)
        if mark and mark.group(1).startswith("candidate "):
            outcomes, seconds, current = {}, {}, None
            parsed[int(mark.group(1).split()[1])] = (outcomes, seconds)
        elif mark and mark.group(1) == "assumptions":
            current, checking = None, True
        elif mark and mark.group(1).startswith("coins_"):
            current = mark.group(1)
            seconds[current] = 0.0
        elif mark and current and mark.group(1) in OUTCOMES:
            outcomes[current] = mark.group(1)
        elif timed and current and timed.group(1).startswith(("(idtac", "Qed")):
            seconds[current] += float(timed.group(2))
        elif checking and not timed and re.match(r"^\S+ :", line):
            axioms.append(line.split(" :", 1)[0])
    if checking and not axioms and "Closed under the global context" not in stdout:
        axioms.append("an unreadable Print Assumptions")
    return parsed, axioms


def in_candidate(message: str, source: str, position: int, text: str) -> str:
    """``message``'s "line N" of the generated check file as the line of the candidate's own text (its author's
    file), or said to be in the generated check when the error lies outside the candidate."""
    found = re.match(r"line (\d+), characters (\d+)-(\d+)", message)
    if not found:
        return message
    line = int(found.group(1))
    start = source.splitlines().index(f"Module C{position}.") + 4  # 1-based line of the text's first stripped line
    leading = text[: len(text) - len(text.lstrip())].count("\n")  # obligation_file strips the text
    own = line - start + 1 + leading
    if 1 + leading <= own <= leading + len(text.strip().splitlines()):
        where = f"candidate line {own}, characters {found.group(2)}-{found.group(3)}"
    else:
        where = f"in the generated check of the candidate (its line {line})"
    return where + message[found.end() :]


def coq_error(text: str) -> str:
    """coqc's error as one line: location and message, without the file path."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    at = next((i for i, line in enumerate(lines) if line.startswith("Error")), None)
    location = next((line for line in lines if line.startswith("File ")), "")
    location = re.sub(r'File "[^"]*", ', "", location).rstrip(":")
    message = " ".join(lines[at:]) if at is not None else " ".join(lines[-3:])
    return f"{location}: {message}" if location else message
