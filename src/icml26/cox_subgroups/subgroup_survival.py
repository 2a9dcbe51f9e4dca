"""A discovered subgroup as a survival analyst reads it, with lifelines.

For one method's box on one seed's split: Kaplan-Meier curves of the subgroup and of its complement on the
held-out rows (95 % bands, exponential Greenwood) with a log-rank test, and a Cox summary (hazard ratios with
95 % intervals) of the subgroup's model, fitted on the training rows inside the box. The search itself fits
thousands of Cox models with the project's vectorised Newton solver (``cox.py``); lifelines fits the one model
a reader inspects. Its summary sits beside the Newton coefficient: lifelines breaks tied times by Efron's
method and the search by Breslow's, so the two differ slightly where times tie and agree where they do not
(``tests/cox_subgroups/test_subgroup_survival.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import boxes, cox, realdata, splits

GROUPS = ("subgroup", "complement")


@dataclass(frozen=True)
class Study:
    """One run's rows with the covariates of its Cox model and whether each row lies in the method's box."""

    name: str
    method: str
    seed: int
    time_unit: str
    covariates: list[str]
    scale: str  # how the covariates enter the Cox model (the hazard ratio is per unit of this scale)
    train: pd.DataFrame  # time, event, covariates..., in_subgroup
    test: pd.DataFrame


def _box(run: pd.DataFrame, method: str) -> tuple[int, np.ndarray]:
    """The run's seed and the box its ``method`` selected, as recorded (original units)."""
    row = run[run["method"] == method]
    if row.empty:
        raise ValueError(f"method {method!r} is not among this run's methods {sorted(run['method'])}")
    row = row.iloc[0]
    box = np.array([[float(v) for v in str(row[side]).split(";")] for side in ("box_low", "box_high")])
    return int(row["seed"]), box


def _study(name, method, seed, unit, frame, covariates, scale, in_box, is_test) -> Study:
    rows = frame[["time", "event", *covariates]].assign(in_subgroup=in_box)
    return Study(name, method, seed, unit, covariates, scale, rows[~is_test], rows[is_test])


def real_study(frame: pd.DataFrame, run: pd.DataFrame, *, method: str, test_size: float) -> Study:
    """A real dataset's run: subgroup on the ``subgroup`` column, the Cox model on the raw ``adjust`` column."""
    name = str(run["dataset"].iloc[0])
    seed, box = _box(run, method)
    is_test = splits.real_test_rows(len(frame), realdata.DATASETS.index(name), seed, test_size)
    adjust = realdata.covariate_names(name)[0]
    data = frame.rename(columns={"adjust": adjust})
    in_box = boxes.inside(frame[["subgroup"]].to_numpy(dtype=float), box)
    return _study(name, method, seed, realdata.TIME_UNITS[name], data, [adjust], "raw", in_box, is_test)


def case_study(
    frame: pd.DataFrame, run: pd.DataFrame, *, adjust: list[str], subgroup: list[str], method: str, test_size: float
) -> Study:
    """A case-study run: the box on the subgroup features (original units), the Cox model on the adjustment
    features standardised on the training engines, as the search fits it."""
    name = str(run["dataset"].iloc[0])
    seed, box = _box(run, method)
    is_test = splits.case_test_rows(frame["engine"], seed, test_size)
    stats = splits.standardiser(frame, adjust, ~is_test)
    data = frame.assign(**{c: (frame[c] - stats[c][0]) / stats[c][1] for c in adjust})
    in_box = boxes.inside(frame[subgroup].to_numpy(dtype=float), box)
    return _study(name, method, seed, "cycles", data, adjust, "training standard deviations", in_box, is_test)


def _groups(rows: pd.DataFrame):
    inside = rows["in_subgroup"].to_numpy()
    return {"subgroup": rows[inside], "complement": rows[~inside]}


def kaplan_meier(study: Study) -> pd.DataFrame:
    """The held-out rows' Kaplan-Meier curve of the subgroup and of its complement, with 95 % bands."""
    from lifelines import KaplanMeierFitter

    parts = []
    for group, rows in _groups(study.test).items():
        if rows.empty:
            continue
        fitted = KaplanMeierFitter(alpha=0.05).fit(rows["time"], rows["event"], label=group)
        band = fitted.confidence_interval_survival_function_
        parts.append(
            pd.DataFrame(
                {
                    "dataset": study.name,
                    "group": group,
                    "time": fitted.survival_function_.index.to_numpy(),
                    "survival": fitted.survival_function_[group].to_numpy(),
                    "lower_95": band.iloc[:, 0].to_numpy(),
                    "upper_95": band.iloc[:, 1].to_numpy(),
                    "at_risk": fitted.event_table["at_risk"].to_numpy(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _median(rows: pd.DataFrame) -> float:
    from lifelines import KaplanMeierFitter

    if rows.empty:
        return float("nan")
    return float(KaplanMeierFitter().fit(rows["time"], rows["event"]).median_survival_time_)


def logrank(study: Study) -> dict:
    """Held-out subgroup against complement: sizes, events, median survival times and the log-rank test
    (``nan`` where the box holds every held-out row or none)."""
    from lifelines.statistics import logrank_test

    groups = _groups(study.test)
    inside, outside = groups["subgroup"], groups["complement"]
    statistic = p_value = float("nan")
    if len(inside) and len(outside):
        test = logrank_test(inside["time"], outside["time"], inside["event"], outside["event"])
        statistic, p_value = float(test.test_statistic), float(test.p_value)
    return {
        "dataset": study.name,
        "method": study.method,
        "seed": study.seed,
        "time_unit": study.time_unit,
        **{f"n_{g}": len(rows) for g, rows in groups.items()},
        **{f"events_{g}": int(rows["event"].sum()) for g, rows in groups.items()},
        **{f"median_{g}": _median(rows) for g, rows in groups.items()},
        "logrank_statistic": statistic,
        "logrank_p": p_value,
    }


def cox_summary(study: Study, alpha: float) -> pd.DataFrame:
    """lifelines' Cox summary of the subgroup's model on its training rows (hazard ratio per unit of
    ``study.scale``, 95 % interval, Wald p) beside the search's Newton coefficient (ridge ``alpha``)."""
    from lifelines import CoxPHFitter

    rows = _groups(study.train)["subgroup"]
    columns = ["time", "event", *study.covariates]
    summary = CoxPHFitter().fit(rows[columns], duration_col="time", event_col="event").summary
    newton = cox.fit(cox.Survival.sorted(rows[study.covariates], rows["time"], rows["event"].astype(bool)), alpha)
    return pd.DataFrame(
        {
            "dataset": study.name,
            "method": study.method,
            "seed": study.seed,
            "covariate": study.covariates,
            "scale": study.scale,
            "rows": len(rows),
            "events": int(rows["event"].sum()),
            "coef": summary["coef"].to_numpy(),
            "hazard_ratio": summary["exp(coef)"].to_numpy(),
            "hazard_ratio_lower_95": summary["exp(coef) lower 95%"].to_numpy(),
            "hazard_ratio_upper_95": summary["exp(coef) upper 95%"].to_numpy(),
            "p": summary["p"].to_numpy(),
            "coef_newton": newton,
        }
    )
