"""The spec's three claims, judged from the sweep and coordinate-check tables.

- Transfer: the optimum's shift across widths is at most ``MAX_SHIFT`` grid steps under CompleteP on
  every task, and more than that under NTK and under SP on every task (the spec's "one grid step").
- Efficiency: on every task, CompleteP's best-learning-rate AUC (mean return over training, i.e. per
  environment step and so per FLOP at equal width), averaged over the widths, exceeds NTK's.
- Coordinate check: under CompleteP every hidden feature layer's update size has a log-log slope
  against width within ``SLOPE_TOL`` of 0 (ours: the spec says "width-independent").

Evidence strength: the coordinate check is a deterministic computation (a fixed synthetic regression from one
seed). The transfer and efficiency claims are judged on seed means as measured (the optimum is an argmax over
the learning-rate grid of the seeds' mean return); they carry no interval yet, which their records say.
"""

from __future__ import annotations

import pandas as pd

from ..common import intervals
from ..common.claims import DETERMINISTIC, Claim, decide

MAX_SHIFT = 1
SLOPE_TOL = 0.15
NO_PREMISE = "the paper's own tasks (gymnasium control) trained here at every width: nothing presupposed"
AS_MEASURED = "seed means as measured: no interval formed"


def lr_transfers(transfer: pd.DataFrame, optimum: pd.DataFrame) -> Claim:
    shift = {f"{r.task}/{r.parameterisation}": int(r.shift) for r in transfer.itertuples()}
    tasks = sorted(transfer["task"].unique())

    def ok(param, transfers):
        part = transfer[transfer["parameterisation"] == param]
        return len(part) == len(tasks) and bool(((part["shift"] <= MAX_SHIFT) == transfers).all())

    found = [
        intervals.exact(
            f"{r.task}/{r.parameterisation}",
            float(r.shift),
            MAX_SHIFT,
            "<=" if r.parameterisation == "completep" else ">",
            AS_MEASURED,
        )
        for r in transfer.itertuples()
    ]
    complete = all(ok(param, True) or ok(param, False) for param in ("completep", "ntk", "sp"))
    return Claim(
        id="optimal_lr_transfers_under_completep_only",
        statement=f"The optimal learning rate shifts by at most {MAX_SHIFT} grid step across widths under CompleteP "
        f"on every task, and by more under NTK and SP on every task",
        paper_value="CompleteP: transfers (shift <= one grid step); NTK and SP: do not",
        measured={
            "shift_in_grid_steps": shift,
            "optimal_lr": {
                f"{r.task}/{r.parameterisation}/w{r.width}": float(r.optimal_lr) for r in optimum.itertuples()
            },
            "optima_at_grid_edge": [
                f"{r.task}/{r.parameterisation}/w{r.width}" for r in optimum.itertuples() if r.at_grid_edge
            ],
        },
        comparator="all",
        state=decide(found) if complete else decide(exact=False),
        interval=found if complete else DETERMINISTIC,
        premises_note=NO_PREMISE,
        note="optimum = learning rate with the best mean final return over seeds (last 16 finished episodes); "
        "an optimum on the grid's edge (optima_at_grid_edge) may hide a larger shift",
        headline="optimum shift across widths in grid steps: "
        + "; ".join(
            f"{task} "
            + ", ".join(f"{param} {shift.get(f'{task}/{param}', '?')}" for param in ("completep", "ntk", "sp"))
            for task in tasks
        )
        + f" (transfer means <= {MAX_SHIFT}; paper: CompleteP transfers, NTK and SP do not)",
        evidence=["tables/transfer.csv", "tables/optimal_lr.csv", "figures/lr_transfer.png"],
    )


def completep_more_efficient(efficiency: pd.DataFrame) -> Claim:
    mean = efficiency.groupby(["task", "parameterisation"])["best_auc"].mean()
    measured = {
        task: {
            "completep": float(mean[(task, "completep")]),
            "ntk": float(mean[(task, "ntk")]),
            "sp": float(mean[(task, "sp")]) if (task, "sp") in mean.index else None,
        }
        for task in sorted(efficiency["task"].unique())
    }
    found = [
        intervals.exact(f"{task}/completep_minus_ntk", m["completep"] - m["ntk"], 0.0, ">", AS_MEASURED)
        for task, m in measured.items()
    ]
    return Claim(
        id="completep_more_reward_per_compute_than_ntk",
        statement="On every task CompleteP's best-learning-rate reward efficiency (mean return over training, "
        "averaged over widths) exceeds NTK's",
        paper_value="CompleteP improves compute and reward efficiency over NTK across tasks",
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="FLOPs are identical across parameterisations at equal width and steps, so return per environment "
        "step is return per FLOP; return-vs-FLOPs curves are in figures/efficiency.png",
        headline="best-learning-rate mean return over training, CompleteP vs NTK: "
        + "; ".join(f"{task} {m['completep']:.1f} vs {m['ntk']:.1f}" for task, m in measured.items())
        + " (paper: CompleteP more efficient than NTK on every task)",
        evidence=["tables/efficiency.csv", "figures/efficiency.png"],
    )


def coordinate_check_flat(slopes: pd.DataFrame) -> Claim:
    hidden = slopes[slopes["layer"] != "output"]
    measured = {f"{r.parameterisation}/{r.layer}": float(r.slope) for r in slopes.itertuples()}
    cp = hidden[hidden["parameterisation"] == "completep"]
    return Claim(
        id="completep_feature_updates_width_independent",
        statement=f"Under CompleteP every hidden layer's feature-update size has a log-log slope against width "
        f"within {SLOPE_TOL} of 0 (coordinate check)",
        paper_value="CompleteP flat; NTK shrinking ~ width^(-1/2); SP growing",
        measured=measured,
        comparator="all",
        state=decide(exact=bool(len(cp)) and bool((cp["slope"].abs() <= SLOPE_TOL).all())),
        interval=DETERMINISTIC,
        premises_note="a fixed synthetic regression from one seed, computed exactly: nothing presupposed",
        note="synthetic regression, 5 Adam steps from the same seed at every width; see icml26.completep_rl.coordinate",
        headline="largest |slope| of a CompleteP hidden layer "
        f"{cp['slope'].abs().max() if len(cp) else float('nan'):.3f} "
        f"(flat: <= {SLOPE_TOL}); NTK "
        + ", ".join(f"{v:+.2f}" for v in hidden[hidden.parameterisation == "ntk"].slope)
        + ", SP "
        + ", ".join(f"{v:+.2f}" for v in hidden[hidden.parameterisation == "sp"].slope)
        + " (paper: CompleteP flat, NTK shrinking, SP growing)",
        evidence=["tables/coordinate_slopes.csv", "tables/coordinate_check.csv", "figures/coordinate_check.png"],
    )


def metrics(slopes, transfer, optimum, efficiency, consistency) -> dict:
    cons = consistency.groupby(["task", "parameterisation", "width"])[["cka_to_base", "action_agreement"]].mean()
    return {
        "coordinate_slopes": {f"{r.parameterisation}/{r.layer}": float(r.slope) for r in slopes.itertuples()},
        "lr_shift": {f"{r.task}/{r.parameterisation}": int(r.shift) for r in transfer.itertuples()},
        "best_final_return": {
            f"{r.task}/{r.parameterisation}/w{r.width}": float(r.best_final_return) for r in optimum.itertuples()
        },
        "best_auc": {f"{r.task}/{r.parameterisation}/w{r.width}": float(r.best_auc) for r in efficiency.itertuples()},
        "consistency": {
            f"{t}/{p}/w{w}": {"cka": float(v.cka_to_base), "action_agreement": float(v.action_agreement)}
            for (t, p, w), v in cons.iterrows()
        },
    }
