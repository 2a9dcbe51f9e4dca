"""The result tables: verdicts by origin, kill rates by mutation operator, scores by mutation level.

A mutant is *killed* by a method when its verdict is ``incorrect``. Kill rates are over the
well-formed mutants (``ill-formed`` ones are counted beside) that differential random testing did
not find equivalent to the gold spec (accidental equivalents are counted beside, not as misses).
The equivalence method's verdicts come from the same files (``equivalence_verdict``).
"""

from __future__ import annotations

import pandas as pd

WELL_FORMED = ("correct", "incorrect", "unknown")


def _rates(group: pd.DataFrame) -> dict:
    well_formed = group[group["verdict"].isin(WELL_FORMED)]
    accidental = well_formed[
        (well_formed["random_label"] == "equivalent_on_random") & (well_formed["verdict"] != "incorrect")
    ]
    judged = well_formed.drop(accidental.index)
    return {
        "mutants": len(group),
        "ill_formed": int((~group["verdict"].isin(WELL_FORMED)).sum()),
        "accidental_equivalents": len(accidental),
        "judged": len(judged),
        "killed": int((judged["verdict"] == "incorrect").sum()),
        "survived_correct": int((judged["verdict"] == "correct").sum()),
        "unknown": int((judged["verdict"] == "unknown").sum()),
        "kill_rate": float((judged["verdict"] == "incorrect").mean()) if len(judged) else float("nan"),
        "equivalence_kill_rate": float((judged["equivalence_verdict"] == "incorrect").mean())
        if len(judged)
        else float("nan"),
        "equivalence_unknown_rate": float((judged["equivalence_verdict"] == "unknown").mean())
        if len(judged)
        else float("nan"),
    }


def kill_rates(specs: pd.DataFrame) -> pd.DataFrame:
    """One row per mutation operator of the level-1 mutants, then ``level2`` and ``all``."""
    mutants = specs[specs["origin"] == "mutant"]
    rows = [
        {"operator": op, **_rates(group)} for op, group in mutants[mutants["level"] == 1].groupby("operator", sort=True)
    ]
    rows.append({"operator": "level2", **_rates(mutants[mutants["level"] == 2])})
    rows.append({"operator": "all", **_rates(mutants)})
    return pd.DataFrame(rows)


def by_level(specs: pd.DataFrame) -> pd.DataFrame:
    """Mean obligation score and verdict shares by mutation level (0: gold and equivalent rewrites)."""
    rows = []
    known = specs[specs["origin"].isin(["gold", "equivalent", "mutant"]) & specs["verdict"].isin(WELL_FORMED)]
    for level, group in known.groupby("level", sort=True):
        rows.append(
            {
                "level": int(level),
                "specs": len(group),
                "mean_score": float(group["score"].mean()),
                "correct": float((group["verdict"] == "correct").mean()),
                "incorrect": float((group["verdict"] == "incorrect").mean()),
                "unknown": float((group["verdict"] == "unknown").mean()),
                "equivalence_correct": float((group["equivalence_verdict"] == "correct").mean()),
                "equivalence_unknown": float((group["equivalence_verdict"] == "unknown").mean()),
            }
        )
    return pd.DataFrame(rows)


def by_origin(specs: pd.DataFrame) -> pd.DataFrame:
    """Counts of each verdict (test-based and equivalence-based) by origin, with mean soundness and completeness."""
    rows = []
    for origin, group in specs.groupby("origin", sort=True):
        row = {
            "origin": origin,
            "specs": len(group),
            "mean_soundness": float(group["soundness"].mean()),
            "mean_completeness": float(group["completeness"].mean()),
        }
        for verdict in ("correct", "incorrect", "unknown"):
            row[verdict] = int((group["verdict"] == verdict).sum())
            row[f"equivalence_{verdict}"] = int((group["equivalence_verdict"] == verdict).sum())
        row["other"] = int((~group["verdict"].isin(WELL_FORMED)).sum())
        rows.append(row)
    return pd.DataFrame(rows)
