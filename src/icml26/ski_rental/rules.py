"""Rule functions of the ski_rental pipeline: paths and plain parameters in, files out.

DAG: predictions -> policies -> {evaluate, error_sweep} -> figures -> verdict;
oracles stands alone. Each function is called by exactly one rule in
``workflow/rules/ski_rental.smk`` and by the tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..common.io import read_csv, write_csv, write_json

if TYPE_CHECKING:  # annotations only; each rule function imports what it runs
    from .model import SkiRental

POLICY_TOLERANCE = 1e-15
"""Buy-day probabilities below this are dropped from the sparse policy table."""


def _problems(frame: pd.DataFrame):
    """Yield ``(B, family, problem, p_hat)`` for every instance of a predictions table."""
    from .model import SkiRental

    for (B, family), rows in frame.groupby(["B", "family"], sort=True):
        rows = rows.sort_values("T")
        problem = SkiRental(int(B), int(rows["N"].iloc[0]))
        yield int(B), family, problem, rows["p"].to_numpy()


def predictions(predictions: str, *, B_values: list[int], N_factor: int, families: list[str]) -> None:
    """Write every predicted distribution ``p_hat`` on ``1..N`` (long table B, N, family, T, p)."""
    from . import distributions
    from .model import SkiRental

    rows = []
    for B in B_values:
        problem = SkiRental(B, N_factor * B)
        for name in families:
            p = distributions.family(problem, name)
            rows.append(pd.DataFrame({"B": B, "N": problem.N, "family": name, "T": problem.days, "p": p}))
            print(f"B={B:>4} {name:<11} mean={p @ problem.days:8.2f} days", flush=True)
    write_csv(predictions, pd.concat(rows, ignore_index=True))


def policies(predictions: str, policies: str, *, lambdas: list[float], R_grid: list[float]) -> None:
    """Compute every method's buy-day distribution for every instance (sparse long table)."""
    from .policies import all_policies

    frames = []
    for B, family, problem, p_hat in _problems(read_csv(predictions)):
        for policy in all_policies(problem, p_hat, lambdas, R_grid):
            days = np.flatnonzero(policy.q > POLICY_TOLERANCE)
            frames.append(
                pd.DataFrame(
                    {
                        "B": B,
                        "family": family,
                        "method": policy.method,
                        "param": policy.param,
                        "day": days + 1,
                        "q": policy.q[days],
                    }
                )
            )
        print(f"B={B:>4} {family:<11} policies done", flush=True)
    write_csv(policies, pd.concat(frames, ignore_index=True))


def _policy_vectors(policy_rows: pd.DataFrame, problem: SkiRental):
    """Yield ``(method, param, q)`` for one instance's rows of the policies table."""
    for (method, param), rows in policy_rows.groupby(["method", "param"], sort=True, dropna=False):
        q = np.zeros(problem.N + 1)
        q[rows["day"].to_numpy() - 1] = rows["q"].to_numpy()
        yield method, param, q / q.sum()


def _join(predictions: str, policies: str):
    """Yield every instance with its policies."""
    table = read_csv(policies)
    for B, family, problem, p_hat in _problems(read_csv(predictions)):
        rows = table[(table["B"] == B) & (table["family"] == family)]
        yield B, family, problem, p_hat, list(_policy_vectors(rows, problem))


def evaluate(predictions: str, policies: str, table: str) -> None:
    """Consistency (ECR when the truth is ``p_hat``) and robustness (worst case over T)."""
    from .policies import METHODS

    rows = []
    for B, family, problem, p_hat, vectors in _join(predictions, policies):
        optimum = problem.ecr_all(p_hat).min()
        for method, param, q in vectors:
            consistency = problem.randomized_ecr(q, p_hat)
            rows.append(
                {
                    "B": B,
                    "family": family,
                    "method": method,
                    "uses": METHODS[method][0],
                    "kind": METHODS[method][1],
                    "param": param,
                    "consistency": consistency,
                    "consistency_over_opt": consistency / optimum,
                    "robustness": problem.randomized_worst_ratio(q),
                    "ratio_of_expectations": problem.randomized_ratio_of_expectations(q, p_hat),
                }
            )
    write_csv(table, pd.DataFrame(rows))


def error_sweep(predictions: str, policies: str, table: str, *, shift: list[float], mixture: list[float]) -> None:
    """ECR of every policy when the truth is a perturbed ``p_hat``, against the error (EMD)."""
    from . import distributions

    rows = []
    for B, family, problem, p_hat, vectors in _join(predictions, policies):
        for kind, magnitudes in (("shift", shift), ("mixture", mixture)):
            for magnitude in magnitudes:
                p = distributions.perturb(problem, p_hat, kind, magnitude)
                ecr = problem.ecr_all(p)
                error = distributions.emd(problem, p_hat, p)
                for method, param, q in vectors:
                    rows.append(
                        {
                            "B": B,
                            "family": family,
                            "perturbation": kind,
                            "magnitude": magnitude,
                            "emd": error,
                            "method": method,
                            "param": param,
                            "ecr": float(ecr @ q),
                            "opt_ecr": float(ecr.min()),
                            "ecr_over_opt": float(ecr @ q / ecr.min()),
                        }
                    )
        print(f"B={B:>4} {family:<11} error sweep done", flush=True)
    write_csv(table, pd.DataFrame(rows))


def oracles(table: str, *, B_values: list[int], N_factor: int) -> None:
    """Closed-form values next to what the LP and the closed-form worst case compute."""
    from .deterministic import best_worst_case_threshold
    from .model import SkiRental
    from .randomized import game_value, rho

    rows = []
    for B in B_values:
        problem = SkiRental(B, N_factor * B)
        value, _ = game_value(problem)
        _, best_worst = best_worst_case_threshold(problem)
        rows.append(
            {
                "B": B,
                "N": problem.N,
                "rho_B": rho(B),
                "lp_game_value": value,
                "best_deterministic_worst_case": best_worst,
                "two_minus_one_over_B": 2 - 1 / B,
                "e_over_e_minus_1": np.e / (np.e - 1),
            }
        )
    write_csv(table, pd.DataFrame(rows))


def figures(evaluation: str, sweep: str, *, B: int, lam: float, R: float, **outputs: str) -> None:
    """The consistency-robustness trade-off of every method, sweeping lambda and R (pareto), and the ECR
    relative to the optimum as the prediction error grows (error_sweep)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.pareto(read_csv(evaluation), B), *paths("pareto"))
        save_figure(plots.error_curves(read_csv(sweep), B, lam, R), *paths("error_sweep"))


def verdict(
    evaluation: str, sweep: str, oracles: str, claims: str, metrics: str, *, R_grid: list[float], substitution: str
) -> None:
    """Judge the spec's claims and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    evaluation_table = read_csv(evaluation)
    judged = [
        verdicts.distributional_beats_point(evaluation_table),
        verdicts.clamp_robust_and_consistent(evaluation_table, read_csv(sweep)),
        verdicts.robust_lp_meets_constraint_and_dominates(evaluation_table, R_grid),
    ]
    oracle_table = read_csv(oracles)
    summary = evaluation_table.groupby(["B", "method"])[["consistency", "robustness"]].mean().reset_index()
    numbers = {
        "oracles": {
            "max_abs_lp_game_value_minus_rho_B": float(
                (oracle_table["lp_game_value"] - oracle_table["rho_B"]).abs().max()
            ),
            "max_abs_best_deterministic_minus_2_minus_1_over_B": float(
                (oracle_table["best_deterministic_worst_case"] - oracle_table["two_minus_one_over_B"]).abs().max()
            ),
        },
        "mean_by_method": {
            f"B={int(r.B)}/{r.method}": {"consistency": r.consistency, "robustness": r.robustness}
            for r in summary.itertuples()
        },
    }
    for _, extra in judged:
        numbers.update(extra)
    for claim, _ in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    write_claims(claims, [claim for claim, _ in judged], substitution=substitution)
    write_json(metrics, numbers)
