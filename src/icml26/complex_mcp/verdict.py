"""The spec's claims, judged from the episode tables.

"Costs success" and "falls" are decided on paired episodes (the same world, task and failure seed for both
sides): the 95 % percentile bootstrap interval over the pairs of the drop in success (better minus worse) must lie
above the practical margin, one point of success (``criteria.POINT``; holds); an interval wholly below it (a drop
of exactly zero everywhere among them) does not hold; otherwise the claim is inconclusive. The exact one-sided
McNemar test is reported beside, with the success rates. The paper reports LLM agents (best < 60 % success, humans
about 90 %); ours are scripted agents that isolate one behaviour each, so the paper's numbers are context, not
targets (docs/papers/complex_mcp.md).

The three bottleneck claims are labelled ``by_construction``: their agents are scripted to have exactly the
behaviour the claim is about (the over- confident agent is the oracle with its checks removed, the defeatist one the
oracle without retries, the retrieval agent a fixed ranker that more distractors can only mislead), so the verdict
could not come out otherwise; they demonstrate the harness measures the bottleneck, and are not counted as
reproduced. The oracle's 100 % is exact (a scripted plan on seeded failures): it checks that every task is solvable
and that the judge accepts the intended end state.

When an LLM agent played (``llm.checkpoint``, paper scale), the paper's own headline is judged on it: an open LLM
agent solves fewer than 60 % of the tasks (criterion fixed before any LLM run: the 95 % Clopper-Pearson interval
of its success over its episodes lies below 0.60; above it does not hold), with the premise that the oracle
solves those very episodes' tasks (the harness could let it succeed).
"""

from __future__ import annotations

import pandas as pd
from scipy.stats import binomtest

from ..common import intervals
from ..common.claims import Claim, decide, premise
from ..common.criteria import POINT

NO_PREMISE = "scripted agents on a simulated server: they have every capability they are scripted with"
# The two agents made from the oracle by removing what the claim is about. Not the retrieval agent: its BM25
# ranking of the exposed tools is measured, not built in (its success rises from 0 to 8 distractors before it
# falls: inverse document frequencies over a handful of gold tools are degenerate), so its claim is a result
# about this stand-in agent (issue 66; until 2026-12-05 it was marked by construction with a reason that was false).
BUILT_IN = {
    "over_confidence_costs_success": "the over-confident agent is the oracle with its verifications removed",
    "defeatism_costs_success": "the defeatist agent is the oracle without retries: its success is the chance of no "
    "failure",
}
PAIR = ["world", "template", "task"]
PAPER_CONTEXT = {"best_llm_success": "< 0.60", "human_success": 0.90}
LLM_BELOW = 0.60  # the paper: even the best LLM agents succeed on fewer than 60 % of the tasks
SOLVABLE = 0.99  # premise: the oracle solves (nearly) every task the LLM agent was given


def paired_drop(better: pd.Series, worse: pd.Series) -> dict:
    """Exact one-sided McNemar test that ``worse`` (0/1 per pair) succeeds less often than ``better``."""
    wins, losses = int(((better == 1) & (worse == 0)).sum()), int(((better == 0) & (worse == 1)).sum())
    p = binomtest(wins, wins + losses, 0.5, alternative="greater").pvalue if wins + losses else 1.0
    return {
        "drop": float(better.mean() - worse.mean()),
        "better_success": float(better.mean()),
        "worse_success": float(worse.mean()),
        "pairs": len(better),
        "only_better": wins,
        "only_worse": losses,
        "p_value": float(p),
    }


def _drop_intervals(better: pd.Series, worse: pd.Series) -> list:
    """The bootstrap interval over the paired episodes of the drop in success, against zero."""
    drop = intervals.over_items(
        "drop",
        [better.to_numpy(float), worse.to_numpy(float)],
        0.0,
        ">",
        function=lambda a, b: float(a.mean() - b.mean()),
        margin=POINT,
        unit="paired episodes",
    )
    return [drop]


def _pairs(rows: pd.DataFrame, column: str, a, b) -> tuple[pd.Series, pd.Series]:
    wide = rows.pivot_table(index=PAIR, columns=column, values="success", aggfunc="first").dropna(subset=[a, b])
    return wide[a], wide[b]


def oracle_solves_everything(agents: pd.DataFrame) -> Claim:
    oracle = agents[agents["agent"] == "oracle"]
    success = float(oracle["success"].mean())
    per_level = {int(k): float(v) for k, v in oracle.groupby("level")["success"].mean().items()}
    return Claim(
        id="oracle_reaches_100_percent",
        statement="The oracle plan (with retries after network failures) solves every task at every level",
        paper_value=1.0,
        measured={"success": success, "per_level": per_level},
        comparator="==",
        state=decide(exact=bool(success == 1.0)),
        premises_note=NO_PREMISE,
        note=f"{len(oracle)} episodes with seeded failures; judged by the intended exclude keys",
        headline=f"oracle success {success:.3f} over {len(oracle)} episodes (levels: "
        + ", ".join(f"{k}: {v:.2f}" for k, v in per_level.items())
        + "; paper: 100 %)",
        evidence=["tables/success_by_level.csv", "figures/agents.png"],
    )


def retrieval_saturation(saturation: pd.DataFrame) -> Claim:
    low, high = saturation["distractors"].min(), saturation["distractors"].max()
    pairs = _pairs(saturation, "distractors", low, high)
    test = paired_drop(*pairs)
    curve = {int(k): float(v) for k, v in saturation.groupby("distractors")["success"].mean().items()}
    found = _drop_intervals(*pairs)
    return Claim(
        id="tool_retrieval_saturates",
        statement="A retrieval-based agent's success falls as the number of exposed tools grows "
        f"({low} vs {high} distractor tools; 95 % interval of the paired drop above the practical margin {POINT:g})",
        paper_value="success falls as the action space grows (qualitative)",
        measured={**test, "curve": curve},
        comparator="<",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="no network failures in this experiment, so only the choice of tool can go wrong",
        headline=f"retrieval agent success {test['better_success']:.3f} with {low} distractors vs "
        f"{test['worse_success']:.3f} with {high} (p = {test['p_value']:.2g}); paper: falls as tools grow",
        evidence=["tables/saturation.csv", "figures/saturation.png"],
    )


def over_confidence_costs(agents: pd.DataFrame) -> Claim:
    pairs = _pairs(agents, "agent", "oracle", "skip_verification")
    test = paired_drop(*pairs)
    found = _drop_intervals(*pairs)
    return Claim(
        id="over_confidence_costs_success",
        statement="Skipping verifications (privilege, balance, stock, cheapest) costs success against the oracle "
        f"(95 % interval of the paired drop above the practical margin {POINT:g})",
        paper_value={"bottleneck": "over-confidence", **PAPER_CONTEXT},
        measured=test,
        comparator="<",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        by_construction=BUILT_IN["over_confidence_costs_success"],
        headline=f"skip-verification success {test['worse_success']:.3f} vs oracle {test['better_success']:.3f} "
        f"(p = {test['p_value']:.2g}); paper: agents that skip verifications fail",
        evidence=["tables/success_by_level.csv", "figures/agents.png"],
    )


def defeatism_costs(agents: pd.DataFrame, failures: pd.DataFrame) -> Claim:
    pairs = _pairs(agents, "agent", "oracle", "no_retry")
    test = paired_drop(*pairs)
    found = _drop_intervals(*pairs)
    curve = {
        float(k): float(v)
        for k, v in failures[failures["agent"] == "no_retry"].groupby("failure_rate")["success"].mean().items()
    }
    return Claim(
        id="defeatism_costs_success",
        statement="Giving up after a failure instead of recovering costs success against the oracle at the main "
        f"failure rate (95 % interval of the paired drop above the practical margin {POINT:g})",
        paper_value={"bottleneck": "strategic defeatism", **PAPER_CONTEXT},
        measured={**test, "no_retry_curve": curve},
        comparator="<",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        by_construction=BUILT_IN["defeatism_costs_success"],
        headline=f"no-retry success {test['worse_success']:.3f} vs oracle {test['better_success']:.3f} "
        f"(p = {test['p_value']:.2g}); against the failure rate: "
        + ", ".join(f"{k:g}: {v:.2f}" for k, v in curve.items()),
        evidence=["tables/success_by_level.csv", "tables/failure_rates.csv", "figures/failures.png"],
    )


def llm_falls_short(agents: pd.DataFrame) -> Claim | None:
    """The paper's headline on an LLM agent, when one played (None otherwise: the scripted agents alone)."""
    llm = agents[agents["agent"] == "llm"]
    if llm.empty:
        return None
    wins, episodes = int(llm["success"].sum()), len(llm)
    found = [intervals.proportion("LLM agent success", wins, episodes, LLM_BELOW, "<", unit="episodes")]
    oracle = _pairs(agents, "agent", "oracle", "llm")[0]
    solvable = premise(
        "oracle success on the LLM agent's episodes",
        float(oracle.mean()) if len(oracle) else float("nan"),
        SOLVABLE,
        ">=",
        "an LLM agent's failures count only on tasks the harness lets an agent solve",
    )
    per_level = {int(k): float(v) for k, v in llm.groupby("level")["success"].mean().items()}
    return Claim(
        id="llm_agent_below_60_percent",
        statement=f"An open LLM agent solves fewer than {LLM_BELOW:.0%} of the tasks (95 % Clopper-Pearson "
        "interval of its success below 0.60)",
        paper_value=PAPER_CONTEXT,
        measured={"success": wins / episodes, "episodes": episodes, "per_level": per_level},
        comparator="<",
        state=decide(found, premises=[solvable]),
        interval=found,
        premises=[solvable],
        headline=f"LLM agent success {wins / episodes:.3f} over {episodes} episodes (levels: "
        + ", ".join(f"{k}: {v:.2f}" for k, v in per_level.items())
        + "); paper: best LLM < 0.60, humans about 0.90",
        evidence=["tables/success_by_level.csv", "figures/agents.png"],
    )
