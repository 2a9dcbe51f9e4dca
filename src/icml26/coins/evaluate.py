"""One problem's candidates through the harness, and the verdict on each spec.

The candidates of a problem (gold, mutants, equivalent rewrites, a user's files) are checked in one
``coqc`` batch on the HumanEval tests (``coins_ob``, the only obligations the verdict reads) and the
equivalence with the gold spec (``coins_eq``, the comparison method); the ones no HumanEval test
refutes then go through a second batch on the random tests of differential testing (``coins_rnd``).

Per spec (our definitions, after the paper's framing): *soundness* is the share of accept and
precondition obligations proved, *completeness* the share of reject obligations proved; the verdict
is *incorrect* when any obligation is refuted (a proof that the spec disagrees with a trusted test),
*correct* when all are proved, *unknown* otherwise; a candidate that is rejected, ill-formed or runs
out of time or memory gets that status as its verdict. The equivalence method's verdict is
*correct* when the equivalence is proved and *unknown* otherwise (it never refutes).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from . import differential
from .harness import Limits, Workspace, combined
from .obligations import equivalence, for_tests, signature
from .problems import Problem, TestCase


@dataclass(frozen=True)
class Candidate:
    problem: int
    name: str
    origin: str  # gold | mutant | equivalent | user
    operator: str
    level: int
    text: str


def verdict(outcomes: list[str]) -> str:
    """The test-based verdict from the HumanEval obligations' outcomes."""
    return {"refuted": "incorrect", "proved": "correct", "unknown": "unknown"}[combined(outcomes)]


def check(
    problem: Problem,
    tests: list[TestCase],
    random_tests: list[TestCase],
    candidates: list[Candidate],
    gold: str,
    limits: Limits,
    rejects: int,
    random_rejects: int,
    log=print,
) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """``(obligations, files, coqc seconds)``: one row per obligation (outcome, seconds), one per
    candidate (status), and the wall clock spent in coqc.

    Pass 1 checks every candidate on the HumanEval tests and the equivalence with the gold spec.
    Pass 2 runs the random tests only for candidates that pass 1 did not refute: a refuted HumanEval
    obligation already witnesses that a spec differs from the gold one."""
    from .specs import screen

    test_obligations = for_tests(problem, tests, rejects, "coins_ob")
    random_obligations = for_tests(problem, random_tests, random_rejects, "coins_rnd")
    compare = [equivalence(problem, screen(gold).defines_pre)]
    obligation_rows, file_rows = [], []
    with Workspace() as workspace:
        for passing, groups in (
            (1, {"tests": test_obligations, "equivalence": compare}),
            (2, {"random": random_obligations}),
        ):
            if passing == 1:
                chosen = list(candidates)
            else:
                refuted = {
                    r["candidate"] for r in obligation_rows if r["group"] == "tests" and r["outcome"] == "refuted"
                }
                ran = {r["candidate"] for r in file_rows if r["status"] == "ok"}
                chosen = (
                    [c for c in candidates if c.name in ran and c.name not in refuted] if random_obligations else []
                )
            if not chosen:
                continue
            flat = [ob for obligations in groups.values() for ob in obligations]
            log(
                f"{problem.task_id} pass {passing}: {len(chosen)} candidates x {len(flat)} obligations in one coqc "
                "file",
                flush=True,
            )
            results = workspace.run_batch([c.text for c in chosen], signature(problem), flat, limits, gold)
            for candidate, result in zip(chosen, results):
                for group, obligations in groups.items():
                    for ob in obligations:
                        if ob.id in result.outcomes:
                            obligation_rows.append(
                                {
                                    "problem": problem.number,
                                    "candidate": candidate.name,
                                    "group": group,
                                    "obligation": ob.id,
                                    "kind": ob.kind,
                                    "test": ob.test,
                                    "outcome": result.outcomes[ob.id],
                                    "seconds": result.seconds.get(ob.id, float("nan")),
                                }
                            )
                if passing == 1:
                    file_rows.append(
                        {
                            "problem": problem.number,
                            "candidate": candidate.name,
                            "status": result.status,
                            "message": result.message,
                        }
                    )
                if result.status != "ok" or result.message or passing == 2:
                    log(
                        f"{problem.task_id} pass {passing} {candidate.name}: {result.status}"
                        f"{' - ' + result.message if result.message else ''}",
                        flush=True,
                    )
            log(
                f"{problem.task_id} pass {passing}: done, "
                f"{sum(r.status == 'ok' for r in results)} of {len(chosen)} ran to the end",
                flush=True,
            )
        coqc_seconds = workspace.coqc_seconds
    return pd.DataFrame(obligation_rows), pd.DataFrame(file_rows), coqc_seconds


def spec_table(candidates: pd.DataFrame, obligations: pd.DataFrame, files: pd.DataFrame) -> pd.DataFrame:
    """One row per candidate: status, soundness, completeness, test verdict, differential label,
    equivalence verdict."""
    rows = []
    by_candidate = {key: frame for key, frame in obligations.groupby(["problem", "candidate"], sort=False)}
    status = files.set_index(["problem", "candidate"])
    for c in candidates.itertuples(index=False):
        key = (c.problem, c.name)
        frame = by_candidate.get(key, obligations.iloc[0:0])
        file_status, message = status.loc[key, "status"], status.loc[key, "message"]
        tests = frame[frame["group"] == "tests"]
        accepts = tests[tests["kind"].isin(["accept", "pre"])]["outcome"]
        rejects = tests[tests["kind"] == "reject"]["outcome"]
        random_outcomes = list(frame[frame["group"] == "random"]["outcome"])
        if (tests["outcome"] == "refuted").any():
            random_outcomes = ["refuted"]  # a HumanEval test already witnesses the difference
        equivalent = frame[frame["group"] == "equivalence"]["outcome"]
        if file_status == "ok":
            test_verdict = verdict(list(tests["outcome"]))
            equivalence_verdict = "correct" if list(equivalent) == ["proved"] else "unknown"
        else:
            test_verdict = equivalence_verdict = file_status
        rows.append(
            {
                "problem": c.problem,
                "candidate": c.name,
                "origin": c.origin,
                "operator": c.operator,
                "level": c.level,
                "status": file_status,
                "message": message,
                "accept_proved": int((accepts == "proved").sum()),
                "accepts": len(accepts),
                "reject_proved": int((rejects == "proved").sum()),
                "rejects": len(rejects),
                "refuted": int((tests["outcome"] == "refuted").sum()),
                "unknown": int((tests["outcome"] == "unknown").sum()),
                "soundness": float((accepts == "proved").mean()) if len(accepts) else float("nan"),
                "completeness": float((rejects == "proved").mean()) if len(rejects) else float("nan"),
                "score": float((tests["outcome"] == "proved").mean()) if len(tests) else float("nan"),
                "verdict": test_verdict,
                "random_label": differential.label(random_outcomes) if file_status == "ok" else file_status,
                "equivalence_verdict": equivalence_verdict,
            }
        )
    return pd.DataFrame(rows)
