"""Rule functions of the coins workflow (one per Snakemake rule; see docs/ARCHITECTURE.md)."""

from __future__ import annotations

import time

import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, write_csv, write_json


def _limits(limits: dict):
    from .harness import Limits

    return Limits(
        limits["tactic_timeout_s"], limits["equivalence_timeout_s"], limits["file_timeout_s"], limits["memory_mb"]
    )


def problems(
    problems_json: str, tests_table: str, *, numbers: list[int], source: str | None, random_tests: int, seed: int
) -> None:
    """Load the problems, parse and validate their tests, draw the random tests of differential testing."""
    from ..common.sources import checked
    from . import differential
    from . import problems as catalogue

    if source is not None:
        checked(source)
    records, rows = [], []
    for problem in catalogue.load(numbers, source):
        tests = catalogue.validated_tests(problem)
        _, skipped = catalogue.parse_tests(problem.test)
        extra = differential.random_tests(problem, tests, random_tests, seed)
        records.append(
            {
                "number": problem.number,
                "entry_point": problem.entry_point,
                "tests": [[list(t.args), t.expected] for t in tests],
                "random_tests": [[list(t.args), t.expected] for t in extra],
            }
        )
        rows.append(
            {
                "problem": problem.task_id,
                "entry_point": problem.entry_point,
                "signature": " -> ".join([*map(str, problem.arg_types), str(problem.result_type)]),
                "tests": len(tests),
                "skipped_statements": skipped,
                "random_tests": len(extra),
            }
        )
        print(
            f"{problem.task_id} ({problem.entry_point}): {len(tests)} tests validated against the canonical "
            f"solution, {skipped} statements skipped, {len(extra)} random tests",
            flush=True,
        )
    write_json(problems_json, records)
    write_csv(tests_table, pd.DataFrame(rows))


def _problem(problems_json: str, number: int, source: str | None):
    from . import problems as catalogue
    from .coq_terms import from_plain

    record = next(r for r in read_json(problems_json) if r["number"] == number)
    problem = catalogue.load([number], source)[0]

    def cases(pairs):
        return [
            catalogue.TestCase(
                tuple(from_plain(a, k) for a, k in zip(args, problem.arg_types)),
                from_plain(expected, problem.result_type),
            )
            for args, expected in pairs
        ]

    return problem, cases(record["tests"]), cases(record["random_tests"])


def check(
    problems_json: str,
    candidates_json: str,
    outcomes: str,
    files: str,
    timing: str,
    *,
    problem: str,
    source: str | None,
    mutation: dict,
    rewrites: list[str],
    user_dir: str | None,
    obligations: dict,
    limits: dict,
    seed: int,
) -> None:
    """Every candidate spec of one problem through coqc: outcomes per obligation, status per file."""
    from . import candidates as candidate_sets
    from .evaluate import check as run_checks

    start = time.perf_counter()
    number = int(problem.removeprefix("HumanEval_"))
    prob, tests, extra = _problem(problems_json, number, source)
    found = candidate_sets.for_problem(
        number, mutation["operators"], mutation["per_operator"], mutation["level2"], rewrites, seed, user_dir
    )
    gold = candidate_sets.gold_text(number)
    obligation_rows, file_rows, coqc_seconds = run_checks(
        prob, tests, extra, found, gold, _limits(limits), obligations["rejects_per_test"], obligations["random_rejects"]
    )
    write_json(candidates_json, [c.__dict__ for c in found])
    write_csv(outcomes, obligation_rows.drop(columns="seconds"))
    write_csv(files, file_rows)
    seconds = obligation_rows[["problem", "candidate", "group", "obligation", "outcome", "seconds"]].copy()
    seconds["job_seconds"] = time.perf_counter() - start
    seconds["coqc_seconds"] = coqc_seconds
    write_csv(timing, seconds)


def hostile(table: str, *, limits: dict) -> None:
    """The hostile specs through the harness: each must be rejected or contained. The table keeps what
    does not depend on the machine (which limit stops a contained spec first may)."""
    from .harness import Obligation, Workspace
    from .hostile import HOSTILE

    obligations = [
        Obligation("coins_ob_0", "accept", 0, "Candidate.spec [1; 5] 5"),
        Obligation("coins_ob_1", "reject", 0, "Candidate.spec [1; 5] 4"),
    ]
    rows = []
    with Workspace() as workspace:
        for name, trick, text, expected in HOSTILE:
            result = workspace.run(text, "list Z -> Z -> Prop", obligations, _limits(limits))
            stopped = result.status == "timeout" or (
                result.status == "ok" and set(result.outcomes.values()) == {"unknown"}
            )
            outcome = "rejected" if result.status == "rejected" else "contained" if stopped else "ran"
            reason = result.message if outcome != "contained" else "stopped by the time or memory limits"
            rows.append(
                {
                    "name": name,
                    "trick": trick,
                    "expected": expected,
                    "outcome": outcome,
                    "handled": outcome == expected,
                    "reason": reason,
                }
            )
            print(f"{name}: {result.status} - {result.message or result.outcomes}", flush=True)
    write_csv(table, pd.DataFrame(rows))


def summarise(
    candidates: list[str],
    outcomes: list[str],
    files: list[str],
    specs_table: str,
    kill_table: str,
    level_table: str,
    summary_table: str,
) -> None:
    """Verdict per spec, and the tables by origin, operator and mutation level."""
    from . import tables
    from .evaluate import spec_table

    found = pd.DataFrame([c for path in candidates for c in read_json(path)])
    file_rows = read_csvs(files)
    file_rows["message"] = file_rows["message"].fillna("").astype(str).str.slice(0, 200)
    specs = spec_table(found, read_csvs(outcomes), file_rows)
    write_csv(specs_table, specs)
    write_csv(kill_table, tables.kill_rates(specs))
    write_csv(level_table, tables.by_level(specs))
    write_csv(summary_table, tables.by_origin(specs))


def timing(timings: list[str], obligation_table: str, file_table: str, machine: str) -> None:
    """Seconds per obligation (median, p95) by group and outcome, per candidate, and coqc's share of the
    check jobs (the rest of a run is seconds: parsing, tables, figures)."""
    from ..common.timing import write_machine

    frame = read_csvs(timings)
    rows = []
    for (group, outcome), sub in frame.groupby(["group", "outcome"], sort=True):
        rows.append(
            {
                "group": group,
                "outcome": outcome,
                "obligations": len(sub),
                "median_s": float(sub["seconds"].median()),
                "p95_s": float(sub["seconds"].quantile(0.95)),
                "max_s": float(sub["seconds"].max()),
            }
        )
    all_rows = {
        "group": "all",
        "outcome": "all",
        "obligations": len(frame),
        "median_s": float(frame["seconds"].median()),
        "p95_s": float(frame["seconds"].quantile(0.95)),
        "max_s": float(frame["seconds"].max()),
    }
    write_csv(obligation_table, pd.DataFrame([*rows, all_rows]))
    per_candidate = frame.groupby(["problem", "candidate"])["seconds"].sum()
    jobs = frame.groupby("problem")[["job_seconds", "coqc_seconds"]].first()
    write_csv(
        file_table,
        pd.DataFrame(
            [
                {
                    "candidate_proof_seconds_median": float(per_candidate.median()),
                    "candidate_proof_seconds_p95": float(per_candidate.quantile(0.95)),
                    "check_jobs_seconds": float(jobs["job_seconds"].sum()),
                    "coqc_seconds": float(jobs["coqc_seconds"].sum()),
                    "coqc_share_of_check_jobs": float(jobs["coqc_seconds"].sum() / jobs["job_seconds"].sum()),
                    "proof_search_seconds": float(frame["seconds"].sum()),
                }
            ]
        ),
    )
    write_machine(machine)


def figures(kill_table: str, level_table: str, specs_table: str, **outputs: str) -> None:
    """The share of mutants each method kills (kill_rate) and the kill rate per mutation level beside the correct
    specs each method leaves undecided (levels)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.kill_rates(read_csv(kill_table)), *paths("kill_rate"))
        save_figure(plots.levels(read_csv(level_table), read_csv(specs_table)), *paths("levels"))


def verdict(
    specs_table: str, kill_table: str, hostile_table: str, claims: str, metrics: str, *, substitution: str
) -> None:
    """Judge the spec's claims and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    specs, hostile_rows = read_csv(specs_table), read_csv(hostile_table)
    judged = [verdicts.discriminates(specs), verdicts.sound(specs, hostile_rows), verdicts.verification_obscures(specs)]
    numbers = {"specs": len(specs), "problems": int(specs["problem"].nunique())}
    for claim, extra in judged:
        numbers.update(extra)
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    numbers["kill_rate_by_operator"] = {r.operator: r.kill_rate for r in read_csv(kill_table).itertuples()}
    write_claims(claims, [claim for claim, _ in judged], substitution=substitution)
    write_json(metrics, numbers)
