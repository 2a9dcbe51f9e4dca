"""Verdicts on synthetic episode tables (each in every state it can reach), and the rule functions end to end."""

import json

import pandas as pd

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE
from icml26.complex_mcp import rules, verdict
from tests.conftest import figure_files


def rows(agent, successes, **extra):
    return [
        {"agent": agent, "world": i // 7, "template": f"t{i % 7}", "task": 0, "level": 1 + i % 3, "success": s, **extra}
        for i, s in enumerate(successes)
    ]


def test_paired_drop_is_an_exact_mcnemar_test():
    better, worse = pd.Series([1] * 10 + [0] * 2), pd.Series([0] * 8 + [1] * 4)
    test = verdict.paired_drop(better, worse)
    assert (test["only_better"], test["only_worse"]) == (8, 2)
    assert abs(test["p_value"] - 56 / 1024) < 1e-12  # P(Binomial(10, 1/2) >= 8)
    assert verdict.paired_drop(pd.Series([1, 1]), pd.Series([1, 1]))["p_value"] == 1.0


def test_oracle_claim():
    assert verdict.oracle_solves_everything(pd.DataFrame(rows("oracle", [1] * 21))).state == HOLDS
    assert verdict.oracle_solves_everything(pd.DataFrame(rows("oracle", [1] * 20 + [0]))).state == FAILS


def test_the_llm_claim_is_judged_only_when_an_llm_played_and_comes_out_every_way():
    from icml26.common.claims import PREMISE_NOT_MET

    oracle = rows("oracle", [1] * 35)
    assert verdict.llm_falls_short(pd.DataFrame(oracle)) is None  # the scripted agents alone: nothing to judge
    weak = verdict.llm_falls_short(pd.DataFrame(oracle + rows("llm", [1] * 7 + [0] * 28)))
    assert weak.state == HOLDS and weak.measured["success"] == 0.2
    assert weak.interval[0].high < 0.60  # Clopper-Pearson of 7 / 35 lies below the paper's 60 %
    strong = verdict.llm_falls_short(pd.DataFrame(oracle + rows("llm", [1] * 33 + [0] * 2)))
    assert strong.state == FAILS
    near = verdict.llm_falls_short(pd.DataFrame(oracle + rows("llm", [1] * 20 + [0] * 15)))
    assert near.state == INCONCLUSIVE  # 0.57 with an interval across 0.60
    unsolvable = rows("oracle", [1] * 30 + [0] * 5)
    assert verdict.llm_falls_short(pd.DataFrame(unsolvable + rows("llm", [0] * 35))).state == PREMISE_NOT_MET


def test_over_confidence_and_defeatism_claims_come_out_both_ways():
    oracle = rows("oracle", [1] * 21)
    costly = pd.DataFrame(
        oracle + rows("skip_verification", [0] * 10 + [1] * 11) + rows("no_retry", [0] * 12 + [1] * 9)
    )
    free = pd.DataFrame(oracle + rows("skip_verification", [1] * 21) + rows("no_retry", [1] * 20 + [0]))
    sweep = pd.DataFrame(rows("no_retry", [1] * 21, failure_rate=0.0) + rows("no_retry", [0] * 21, failure_rate=0.3))
    assert verdict.over_confidence_costs(costly).state == HOLDS
    assert verdict.over_confidence_costs(free).state == FAILS  # never costs anything: a drop of exactly zero
    assert verdict.defeatism_costs(costly, sweep).state == HOLDS
    assert verdict.defeatism_costs(free, sweep).state == INCONCLUSIVE  # one pair lost in 21: can't tell
    claim = verdict.defeatism_costs(costly, sweep)
    assert claim.by_construction and not claim.reproduced  # a scripted agent built to show it


def test_saturation_claim_comes_out_both_ways():
    def table(high_successes):
        return pd.DataFrame(
            rows("retrieval", [1] * 21, distractors=0) + rows("retrieval", high_successes, distractors=199)
        )

    falls = verdict.retrieval_saturation(table([0] * 15 + [1] * 6))
    assert falls.state == HOLDS and falls.reproduced  # measured on the BM25 agent, not built into it
    assert verdict.retrieval_saturation(table([1] * 20 + [0])).state == INCONCLUSIVE
    assert verdict.retrieval_saturation(table([1] * 21)).state == FAILS


def test_rule_functions_end_to_end(tmp_path):
    settings = {
        "worlds": [0],
        "tasks_per_template": 1,
        "llm": {"checkpoint": None},
        "agents": ["oracle", "skip_verification", "no_retry", "retrieval", "random"],
        "failure_rate": 0.1,
        "failure_rates": [0.0, 0.3],
        "distractors": [0, 199],
        "max_turns": 40,
        "max_idle": 2,
        "device": "cpu",
    }
    paths = {}
    for experiment in ("agents", "saturation", "failures"):
        paths[experiment] = str(tmp_path / f"episodes_{experiment}.csv")
        rules.episodes(paths[experiment], experiment=experiment, **settings)
    again = tmp_path / "again.csv"
    rules.episodes(str(again), experiment="agents", **settings)
    assert again.read_bytes() == (tmp_path / "episodes_agents.csv").read_bytes()
    out = {
        name: str(tmp_path / f"{name}.csv")
        for name in ("by_level", "saturation_table", "failure_table", "status", "judge_variants")
    }
    rules.tables(paths["agents"], paths["saturation"], paths["failures"], **out)
    by_level = pd.read_csv(out["by_level"])
    assert set(by_level["agent"]) == set(settings["agents"]) and (by_level["success"].between(0, 1)).all()
    rules.verdict(
        paths["agents"],
        paths["saturation"],
        paths["failures"],
        str(tmp_path / "claims.json"),
        str(tmp_path / "metrics.json"),
        substitution="a test stand-in",
    )
    claims = json.loads((tmp_path / "claims.json").read_text())
    assert [c["id"] for c in claims] == [
        "oracle_reaches_100_percent",
        "tool_retrieval_saturates",
        "over_confidence_costs_success",
        "defeatism_costs_success",
    ]
    assert claims[0]["holds"] is True
    figures = ("agents", "saturation", "failures")
    rules.figures(
        out["by_level"],
        out["status"],
        out["saturation_table"],
        out["failure_table"],
        **figure_files(tmp_path, *figures),
    )
    assert all((tmp_path / f"{name}.{ext}").stat().st_size > 0 for name in figures for ext in ("png", "pdf"))
