"""The result tables, from the per-instance evaluation rows (one row per instance, method and seed).

Intervals are Student's t over the seeds and the test instances' paired variance (``common.bootstrap.difference``;
over the instances alone for a method without seeds); NetDiff and its ablations are judged on their *repaired*
topologies (feasible and connected by construction), their raw samples are reported beside as ``<model>_raw``.
Count errors compare the raw samples with the target (what the denoiser itself produced; repair changes the
counts).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.bootstrap import difference

VIOLATIONS = ["range_violations", "sector_violations", "parity_violations"]
COUNTS = ["density", "sector_usage"]


def _per_seed(frame: pd.DataFrame, method: str, nodes: int, column: str) -> np.ndarray:
    """``[seeds, instances]`` of one method's ``column`` at one N."""
    rows = frame[(frame["method"] == method) & (frame["nodes"] == nodes)]
    return rows.pivot(index="seed", columns="instance", values=column).to_numpy(float)


def _interval(values: np.ndarray, criteria: dict) -> tuple[float, float, str]:
    """Interval of the mean of ``[seeds, instances]`` (difference against zero), and how it was made."""
    d = difference(values, np.zeros((1, values.shape[1])), **_confidence(criteria))
    return d.low, d.high, d.method


def _confidence(criteria: dict) -> dict:
    return {"confidence": criteria["confidence"]}


def results(frame: pd.DataFrame, criteria: dict) -> pd.DataFrame:
    """Per method and N: mean share of the target's throughput with its interval, connectivity, violations per
    topology, min SINR, share of transmissions at >= 0 dB, density and sector usage."""
    frame = frame.assign(violations=frame[VIOLATIONS].sum(axis=1))
    rows = []
    for (method, nodes), group in frame.groupby(["method", "nodes"], sort=True):
        low, high, how = _interval(_per_seed(frame, method, nodes, "share"), criteria)
        rows.append(
            {
                "method": method,
                "nodes": nodes,
                "instances": group["instance"].nunique(),
                "seeds": group["seed"].nunique(),
                "share": group["share"].mean(),
                "low": low,
                "high": high,
                "interval": how,
                "connected": group["connected"].astype(float).mean(),
                "violations": group["violations"].mean(),
                **{c: group[c].mean() for c in ("min_sinr_db", "good_links", "density", "sector_usage")},
            }
        )
    return pd.DataFrame(rows)


def repair(results_table: pd.DataFrame, models: list[str]) -> pd.DataFrame:
    """Each trained model's scores before repair (its raw samples) and after, side by side per test N: share of the
    target, connectivity and violations per topology. A raw share above 1 comes from infeasible topologies."""
    columns = ["share", "connected", "violations"]
    table = results_table.set_index(["method", "nodes"])
    rows = [
        {"model": model, "nodes": nodes}
        | {f"raw_{c}": float(table.loc[(f"{model}_raw", nodes), c]) for c in columns}
        | {f"repaired_{c}": float(table.loc[(model, nodes), c]) for c in columns}
        for model in models
        for nodes in sorted(results_table["nodes"].unique())
        if (model, nodes) in table.index and (f"{model}_raw", nodes) in table.index
    ]
    return pd.DataFrame(rows, columns=["model", "nodes", *[f"{s}_{c}" for s in ("raw", "repaired") for c in columns]])


def comparisons(frame: pd.DataFrame, models: list[str], criteria: dict) -> pd.DataFrame:
    """NetDiff minus every other method, per N: the share of the target (repaired, every baseline), and for the
    other trained models the share and violations of the raw samples too."""
    frame = frame.assign(violations=frame[VIOLATIONS].sum(axis=1))
    others = [m for m in frame["method"].unique() if m != "netdiff" and not m.endswith("_raw") and m != "target"]
    rows = []
    for nodes in sorted(frame["nodes"].unique()):
        pairs = [("share", "netdiff", b, "share") for b in sorted(others)]
        pairs += [
            (metric, "netdiff_raw", f"{b}_raw", column)
            for b in models
            if b != "netdiff"
            for metric, column in (("raw_share", "share"), ("raw_violations", "violations"))
        ]
        for metric, a, b, column in pairs:
            d = difference(
                _per_seed(frame, a, nodes, column), _per_seed(frame, b, nodes, column), **_confidence(criteria)
            )
            rows.append(
                {
                    "nodes": nodes,
                    "metric": metric,
                    "method": "netdiff",
                    "baseline": b.removesuffix("_raw"),
                    "difference": d.mean,
                    "low": d.low,
                    "high": d.high,
                    "interval": d.method,
                }
            )
    columns = ["nodes", "metric", "method", "baseline", "difference", "low", "high", "interval"]
    return pd.DataFrame(rows, columns=columns)


def count_errors(frame: pd.DataFrame, models: list[str], criteria: dict) -> pd.DataFrame:
    """Per model, N and count (density, sector usage): the mean absolute error of the raw samples against the
    target on the same instance, and NetDiff's minus each other model's with its interval."""
    target = frame[frame["method"] == "target"].set_index("instance")
    rows = []
    for nodes in sorted(frame["nodes"].unique()):
        errors = {}
        for model in models:
            raw = frame[(frame["method"] == f"{model}_raw") & (frame["nodes"] == nodes)]
            for count in COUNTS:
                error = (raw[count] - raw["instance"].map(target[count])).abs()
                table = raw.assign(error=error).pivot(index="seed", columns="instance", values="error")
                errors[model, count] = table.to_numpy(float)
        for model in models:
            for count in COUNTS:
                row = {"model": model, "nodes": nodes, "count": count, "error": errors[model, count].mean()}
                row["target"] = target.loc[target["nodes"] == nodes, count].mean()
                if model != "netdiff":
                    d = difference(errors["netdiff", count], errors[model, count], **_confidence(criteria))
                    row |= {"netdiff_minus": d.mean, "low": d.low, "high": d.high, "interval": d.method}
                rows.append(row)
    columns = ["model", "nodes", "count", "error", "target", "netdiff_minus", "low", "high", "interval"]
    return pd.DataFrame(rows, columns=columns)


def partial(frame: pd.DataFrame) -> pd.DataFrame:
    """Per restart step: mean share of the frame's target, churn against the previous topology and connectivity,
    over every trace, frame and NetDiff seed (``frame`` has a ``seed`` column); beside them each seed's mean share
    (``share_seed<k>``), which the verdict's interval over seeds reads."""
    table = frame.groupby("restart", sort=True).agg(
        denoising_steps=("denoising_steps", "first"),
        share=("share", "mean"),
        churn=("churn", "mean"),
        connected=("connected", "mean"),
        updates=("share", "size"),
    )
    by_seed = frame.pivot_table(index="restart", columns="seed", values="share", aggfunc="mean")
    return table.join(by_seed.add_prefix("share_seed")).reset_index()


def milp_gap(frame: pd.DataFrame) -> pd.DataFrame:
    """Per N: the target's and greedy's surrogate objective as a share of the MILP optimum (its bound, for an
    instance the time limit stopped: counted in ``stopped_at_time_limit``), and their true throughput as a share
    of the MILP solution's (the MILP optimises the surrogate, so this may exceed 1)."""
    rows = []
    for nodes, group in frame.groupby("nodes", sort=True):
        by = {m: g.set_index("instance") for m, g in group.groupby("method")}
        optimum = by["milp"]
        row = {"nodes": nodes, "instances": len(optimum)}
        if "milp_optimal" in optimum:  # an instance stopped by the time limit is judged against its bound
            row["stopped_at_time_limit"] = int((~optimum["milp_optimal"].astype(bool)).sum())
        for method in ("target", "greedy"):
            row[f"{method}_surrogate_ratio"] = (by[method]["surrogate"] / optimum["milp_optimum"]).mean()
            row[f"{method}_throughput_ratio"] = (by[method]["throughput"] / optimum["throughput"]).mean()
        connected = group[group["connected"].astype(bool)]  # the MILP bounds feasible connected topologies only
        row["bound_violations"] = int((connected["surrogate"] > connected["milp_optimum"] * (1 + 1e-6) + 1e-6).sum())
        rows.append(row)
    return pd.DataFrame(rows).rename(columns={"target_throughput_ratio": "throughput_ratio"})
