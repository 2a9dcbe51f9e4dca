"""The reference benchmark's public tasks through the real path -- Streamable HTTP MCP servers speaking the
reference's session protocol, a task file in its parquet format, the paper's judge -- on a tiny replica of both
(``public_replica``): the recorded solutions succeed, a partial or careless run does not, the agent never sees
the session plumbing, and wrong inputs fail in one line."""

from __future__ import annotations

import asyncio

import pandas as pd
import pytest

from icml26.common.sources import SourceError
from icml26.complex_mcp import public, public_replica, rules


@pytest.fixture(scope="module")
def sandbox():
    with public_replica.Sandbox() as servers:
        yield servers


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    return public.read_tasks(public_replica.write_tasks(tmp_path_factory.mktemp("public") / "data.parquet"))


def _run(sandbox, task, agent="replay", **options):
    settings = {"distractors": None, "max_turns": 20, "max_idle": 2, "seed": 0} | options
    return asyncio.run(public.run_task(sandbox, task, agent, **settings))


def test_the_task_file_is_read_as_the_reference_writes_it(tasks):
    assert [(t.seed, t.level, t.apps) for t in tasks] == [(42, 1, ("LightTalk",)), (7, 2, ("LightTalk",))]
    assert tasks[1].gold_tools == ("get_uid_from_name", "mark_as_read", "send_message")
    assert len(public.recorded_calls(tasks[1].recorded)) == 3 and set(tasks[0].gold) == {"LightSystem", "LightTalk"}


def test_the_recorded_solutions_reach_every_gold_state(sandbox, tasks):
    for task in tasks:
        row = _run(sandbox, task)
        assert (row["success"], row["completion"], row["misbehave"]) == (1, 1.0, 0)
        assert row["total"] == (1 if task.level == 1 else 3) and row["calls"] == len(task.gold_tools)


def test_a_partial_or_careless_run_is_not_a_success(sandbox, tasks, monkeypatch):
    calls = public.recorded_calls(tasks[1].recorded)
    monkeypatch.setattr(public, "recorded_calls", lambda transcript: calls[:2])  # the reply is never sent
    partial = _run(sandbox, tasks[1])
    assert (partial["success"], partial["recall"], partial["total"]) == (0, 1, 3)
    other = public_replica.uid(7, "Omar Diaz")
    careless = calls[:1] + [calls[1].replace(public_replica.uid(7, "Mia Chen"), other)]
    monkeypatch.setattr(public, "recorded_calls", lambda transcript: careless)  # someone else's messages read
    row = _run(sandbox, tasks[1])
    assert row["success"] == 0 and row["misbehave"] == 1 and row["recall"] == 0


def test_the_agent_never_sees_the_session_plumbing(sandbox, tasks):
    seen = {}

    class Looking(public.ReplayAgent):
        def __init__(self, task, tools, seed=0):
            super().__init__(task, tools, seed)
            seen["tools"] = tools

    original = public.ReplayAgent
    public.ReplayAgent = Looking
    try:
        _run(sandbox, tasks[0])
    finally:
        public.ReplayAgent = original
    names = {t["name"] for t in seen["tools"]}
    assert names == {"now", "get_uid_from_name", "mark_as_read", "send_message"}  # no login, logout, _step
    assert all("session_id" not in t["parameters"] for t in seen["tools"])
    shown = _run(sandbox, tasks[0], distractors=1)["tools_shown"]
    assert shown == len(tasks[0].gold_tools) + 1


def test_a_call_to_an_app_the_task_did_not_open_fails_as_the_reference_fails_it(sandbox, tasks):
    async def call():
        from icml26.complex_mcp.servers import Toolbox

        async with Toolbox.remote(sandbox) as toolbox:
            sessions = public.Sessions(toolbox, tasks[0])
            return await sessions.call("mark_as_read", {"uid": "x"})

    assert asyncio.run(call()) == {"status": "failed", "output": "LightTalk has not been logged into yet."}


def test_wrong_inputs_fail_in_one_line_naming_them(sandbox, tasks, tmp_path):
    with pytest.raises(SourceError, match=r"http://127.0.0.1:9/mcp: no MCP server of LightTalk answers there"):
        _run(sandbox | {"LightTalk": "http://127.0.0.1:9/mcp"}, tasks[0])
    with pytest.raises(SourceError, match=r"LightTalk: task 0 needs the app LightTalk, which no given server serves"):
        _run({"LightSystem": sandbox["LightSystem"]}, tasks[0])
    frame = pd.DataFrame(public_replica.solutions()).drop(columns=["gt_env"])
    frame.to_parquet(tmp_path / "short.parquet")
    with pytest.raises(SourceError, match=r"short.parquet: missing column\(s\) \['gt_env'\]"):
        public.read_tasks(tmp_path / "short.parquet")
    frame = pd.DataFrame(public_replica.solutions())
    pd.concat([frame, frame.iloc[[0]]], ignore_index=True).to_parquet(tmp_path / "twice.parquet")
    with pytest.raises(SourceError, match=rf"twice.parquet: row {len(frame)} repeats row 0 \(seed "):
        public.read_tasks(tmp_path / "twice.parquet")  # the same task would be run, and counted, twice
    (tmp_path / "text.parquet").write_text("seed,query\n")
    with pytest.raises(SourceError, match=r"text.parquet: not a parquet file"):
        public.read_tasks(tmp_path / "text.parquet")


def test_the_rule_runs_the_recorded_solutions_and_a_model_and_summarises_them(sandbox, tmp_path):
    from icml26.common.lm.replicas import causal_lm

    checkpoint = causal_lm(tmp_path / "llm", ["<tool>", "mark_as_read", "[END]"], layers=1, width=16)
    tasks_file = public_replica.write_tasks(tmp_path / "data.parquet")
    settings = {"tasks": str(tasks_file), "servers": sandbox, "agents": ["replay", "llm"], "distractors": None}
    llm = {"checkpoint": str(checkpoint), "max_new_tokens": 8, "temperature": 0.0}
    table, summary = tmp_path / "public_tasks.csv", tmp_path / "public_summary.csv"
    rules.public(str(tasks_file), str(table), str(summary), public=settings | {"max_turns": 5}, llm=llm, device="cpu")
    rows, totals = pd.read_csv(table), pd.read_csv(summary).set_index("agent")
    assert len(rows) == 4 and set(rows["agent"]) == {"replay", "llm"}
    assert totals.loc["replay", "success"] == 1.0 and totals.loc["replay", "low"] < 1.0 <= totals.loc["replay", "high"]
    assert totals.loc["llm", "success"] == 0.0  # a two-token-vocabulary model solves nothing
