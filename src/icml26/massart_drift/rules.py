"""Rule functions of the massart_drift pipeline: paths and plain parameters in, files out.

DAG: sweep_{averaging,erm,realizable} -> scaling -> figures; traces -> figure;
oracles beside; everything -> verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, write_csv, write_json


def log_grid(low: float, high: float, points: int) -> list[float]:
    """``points`` log-spaced values from ``low`` to ``high`` (rounded to 6 significant digits)."""
    return [float(f"{v:.6g}") for v in np.logspace(np.log10(low), np.log10(high), points)]


def window_grid(low: int, high: int, points: int) -> list[int]:
    """Distinct integer windows, log-spaced from ``low`` to ``high``."""
    return sorted({int(round(v)) for v in np.logspace(np.log10(low), np.log10(high), points)})


def sweep(table: str, *, learner: str, seed: int, Delta: dict, W: dict, eta: float, reps: int) -> None:
    """Steady-state excess error of one learner over the (Delta, W) grid for one seed (a job each: at paper scale one
    is half an hour, and finished ones are kept, icml26.common.units)."""
    from . import scaling

    frame = scaling.sweep(learner, Deltas=log_grid(**Delta), windows=window_grid(**W), eta=eta, reps=reps, seeds=[seed])
    write_csv(table, frame)


def scaling_tables(sweeps: list[str], best: str, slopes: str) -> None:
    """Best window and excess per (learner, seed, Delta); fitted log-log slopes."""
    from . import scaling

    frame = read_csvs(sweeps)
    best_frame = scaling.best_windows(frame)
    write_csv(best, best_frame)
    write_csv(slopes, scaling.slopes(best_frame))


def traces(
    table: str,
    *,
    seeds: list[int],
    d: int,
    eta: float,
    gamma: float,
    Delta: float,
    rounds: int,
    eval_every: int,
    window_scale: float,
    small_window: int,
    n_test: int,
    perspectron: dict,
) -> None:
    """Error-versus-time traces of every learner on the drifting d-dimensional Massart stream."""
    from . import streams

    rows = []
    for seed in seeds:
        rows += streams.trace(
            seed=seed,
            d=d,
            eta=eta,
            gamma=gamma,
            Delta=Delta,
            rounds=rounds,
            eval_every=eval_every,
            window_scale=window_scale,
            small_window=small_window,
            n_test=n_test,
            perspectron_params=perspectron,
        )
        print(f"trace seed {seed} done", flush=True)
    write_csv(table, pd.DataFrame(rows))


def oracles(table: str, *, eta: float, reps: int, seed: int) -> None:
    """Monte-Carlo checks of the exact formulas: disagreement = angle/pi, averaging semi-analytic excess."""
    from . import circle, geometry, theory

    rng = np.random.default_rng(seed)
    rows = []
    phi = rng.uniform(0, 2 * np.pi, reps)
    for angle in (0.1, 0.5, 1.0, 2.0):
        mc = float(np.mean(np.sign(np.cos(phi)) != np.sign(np.cos(phi - angle))))
        rows.append(
            {
                "check": "disagreement",
                "param": f"angle={angle}",
                "monte_carlo": mc,
                "exact": float(geometry.disagreement(angle)),
                "mc_standard_error": np.sqrt(mc * (1 - mc) / reps),
            }
        )
    for Delta, W in ((1e-4, 50), (1e-4, 400), (1e-3, 100)):
        delta = geometry.rotation_for_drift(Delta, eta)
        p, y = circle.windows(rng, reps // 50, W, delta, eta)
        excess = geometry.excess_error(circle.averaging_angle(p, y), eta)
        rows.append(
            {
                "check": "averaging_semianalytic",
                "param": f"Delta={Delta},W={W}",
                "monte_carlo": excess.mean(),
                "exact": float(theory.averaging_excess(W, delta, eta)),
                "mc_standard_error": excess.std(ddof=1) / np.sqrt(len(excess)),
            }
        )
    write_csv(table, pd.DataFrame(rows))


def figures(best: str, slopes: str, traces: str, *, eta: float, gamma: float, Delta: float, **outputs: str) -> None:
    """Best excess error and best window against the drift rate, with fitted and reference slopes
    (excess_vs_drift, window_vs_drift), and error against time under drift: efficient learners vs no
    forgetting vs a small window (traces)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    best_table, slope_table = read_csv(best), read_csv(slopes)
    with figure_set(outputs) as paths:
        save_figure(
            plots.scaling(
                best_table, slope_table, "min_excess", "best excess error over the window grid", [1 / 3, 1 / 2]
            ),
            *paths("excess_vs_drift"),
        )
        save_figure(
            plots.scaling(best_table, slope_table, "W_star", "best window W*", [-2 / 3, -1 / 2]),
            *paths("window_vs_drift"),
        )
        save_figure(plots.traces(read_csv(traces), eta, gamma, Delta), *paths("traces"))


def verdict(
    slopes: str,
    best: str,
    traces: str,
    oracles: str,
    claims: str,
    metrics: str,
    *,
    eta: float,
    gamma: float,
    Delta: float,
    substitution: str,
) -> None:
    """Judge the spec's claims and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    slope_table = read_csv(slopes)
    bound_claim, trace_numbers = verdicts.massart_bound_and_forgetting(
        read_csv(traces), eta=eta, gamma=gamma, Delta=Delta
    )
    judged = [verdicts.efficient_rate(slope_table), verdicts.information_theoretic_rate(slope_table), bound_claim]
    oracle_table = read_csv(oracles)
    best_table = read_csv(best)
    numbers = {
        "slopes": {
            f"{r.learner}/{r.quantity}": {"slope": r.slope, "ci95": [r.ci_low, r.ci_high]}
            for r in slope_table.itertuples()
        },
        "best_excess_by_Delta": {
            f"{r.learner}/{r.Delta:.3g}": r.min_excess
            for r in best_table.groupby(["learner", "Delta"])["min_excess"].mean().reset_index().itertuples()
        },
        "oracle_max_z_score": float(
            ((oracle_table["monte_carlo"] - oracle_table["exact"]).abs() / oracle_table["mc_standard_error"]).max()
        ),
        **trace_numbers,
    }
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    write_json(metrics, numbers)
