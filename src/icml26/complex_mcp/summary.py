"""Result tables from the episode rows (plain pandas; every number is a mean over episodes)."""

from __future__ import annotations

import pandas as pd

AGENT_ORDER = ["oracle", "skip_verification", "no_retry", "retrieval", "random", "llm"]


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame["order"] = frame["agent"].map({a: i for i, a in enumerate(AGENT_ORDER)})
    return frame.sort_values([c for c in ("order", "level") if c in frame]).drop(columns="order").reset_index(drop=True)


def by_level(rows: pd.DataFrame) -> pd.DataFrame:
    """Success, completion, misbehaving episodes and calls per agent and level, and over all levels."""

    def table(frame: pd.DataFrame, level) -> pd.DataFrame:
        grouped = frame.groupby("agent").agg(
            episodes=("success", "size"),
            success=("success", "mean"),
            completion=("completion", "mean"),
            misbehaving=("misbehave", lambda m: float((m > 0).mean())),
            calls=("calls", "mean"),
        )
        return grouped.reset_index().assign(level=level)

    parts = [table(rows[rows["level"] == level], str(level)) for level in sorted(rows["level"].unique())]
    return _ordered(pd.concat([*parts, table(rows, "all")], ignore_index=True))[
        ["agent", "level", "episodes", "success", "completion", "misbehaving", "calls"]
    ]


def saturation(rows: pd.DataFrame) -> pd.DataFrame:
    """Retrieval agent: success and completion against the distractor tools exposed (mean tools shown)."""
    return (
        rows.groupby("distractors")
        .agg(
            tools_shown=("tools_shown", "mean"),
            episodes=("success", "size"),
            success=("success", "mean"),
            completion=("completion", "mean"),
        )
        .reset_index()
        .sort_values("distractors")
        .reset_index(drop=True)
    )


def failure_rates(rows: pd.DataFrame) -> pd.DataFrame:
    """Success and completion per agent against the network failure rate."""
    table = (
        rows.groupby(["agent", "failure_rate"])
        .agg(
            episodes=("success", "size"),
            success=("success", "mean"),
            completion=("completion", "mean"),
            failed_calls=("failed", "mean"),
        )
        .reset_index()
    )
    return _ordered(table).sort_values(["failure_rate"], kind="stable").reset_index(drop=True)


def tool_status(rows: pd.DataFrame) -> pd.DataFrame:
    """Calls per episode by status (ok, failed: the tool refused; error: the call itself was bad)."""
    return _ordered(rows.groupby("agent")[["ok", "failed", "error"]].mean().reset_index())


def judge_variants(rows: pd.DataFrame) -> pd.DataFrame:
    """Success under the intended exclude keys and under the released ones (which compare order ids)."""
    table = rows.groupby("agent").agg(
        intended_success=("success", "mean"),
        released_success=("released_success", "mean"),
        intended_fields=("total", "mean"),
        released_fields=("released_total", "mean"),
    )
    return _ordered(table.reset_index())
