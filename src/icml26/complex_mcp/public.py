"""The reference benchmark's public tasks, run against the reference's own sandbox and judged as the paper judges.

``AIDC-AI/complex-mcp`` publishes 47 tasks (``benchmark/data/data.parquet``: a seed, an instruction, the apps it
touches, a level, the tool calls of a recorded solution, and the gold final state of every app) over its own
stateful apps (``LightSystem``, ``LightTalk``, ``LightShop``, ...). Their initial states come from the apps' own
seeded generators, so the tasks can only be run against those apps: the user starts the reference's sandbox (its
Docker image serves each app as a Streamable HTTP MCP server, ``config/light.yaml``: ports 9000-9006) and gives
their URLs (``public.servers``). Nothing of the reference is copied here; this module is a client of its servers,
speaking its session protocol:

- ``LightSystem.login(seed)`` opens the shared clock's session; every app's ``login(seed, os_cfg)`` then opens
  the app's, tied to it; each login returns the app's initial state (``session_info``);
- the agent's calls to a session app get that app's ``session_id`` added (the agent never sees it, nor the
  ``login`` / ``logout`` tools or the apps' ``_``-prefixed internal tools); a call to an app the task did not log
  into fails as the reference's harness fails it;
- ``logout(session_id)`` returns each app's final state, which the judge (``judge.judge``, the paper's semantics)
  compares with the task's gold state; ``REFERENCE_EXCLUDE_KEYS`` (the intended set) and the released set beside.

Agents: ``llm`` (the user's model, ``agents.LanguageModelAgent``) and ``replay``, which replays the recorded
solution's calls one per turn: on the reference's sandbox it should reach every gold state, so it checks the
harness and the sandbox before any model is judged. The scripted agents of our own benchmark plan over our
worlds and have no plan for these tasks.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from .judge import REFERENCE_EXCLUDE_KEYS, RELEASED_EXCLUDE_KEYS, judge
from .protocol import END, call_text, parse

COLUMNS = ("seed", "query", "apps", "level", "output", "tool_cnt", "gt_env")
SYSTEM = "LightSystem"  # the app whose session every other app's login is tied to
SESSION_TOOLS = ("login", "logout")
PUBLIC_AGENTS = ("replay", "llm")


@dataclass(frozen=True)
class PublicTask:
    number: int  # its row in the file
    seed: int
    instruction: str
    apps: tuple[str, ...]
    level: int
    gold: dict  # app -> its gold final state (the logout result)
    gold_tools: tuple[str, ...]  # the tools the recorded solution called
    recorded: str  # the recorded solution's transcript


def read_tasks(path: str | Path) -> list[PublicTask]:
    """The tasks of a ``data.parquet`` in the reference's format; a wrong file fails in one line naming it."""
    import pandas as pd

    from ..common.sources import checked, fail

    try:
        frame = pd.read_parquet(checked(path))
    except (OSError, ValueError) as problem:
        fail(path, f"not a parquet file: {problem}")
    missing = [c for c in COLUMNS if c not in frame]
    if missing:
        fail(path, f"missing column(s) {missing}: expected the reference's data.parquet ({', '.join(COLUMNS)})")
    tasks, first_row = [], {}
    for number, row in enumerate(frame.itertuples(index=False)):
        key = (str(row.seed), str(row.query))
        if key in first_row:  # the same task twice would be run, and counted, twice
            fail(path, f"row {number} repeats row {first_row[key]} (seed {row.seed}, the same instruction)")
        first_row[key] = number
        try:
            apps, gold, tools = json.loads(row.apps), json.loads(row.gt_env), json.loads(row.tool_cnt)
            recorded = json.loads(row.output)
        except (TypeError, json.JSONDecodeError) as problem:
            fail(path, f"row {number}: apps, gt_env, tool_cnt and output must be JSON ({problem})")
        if not isinstance(apps, list) or not isinstance(gold, dict) or not isinstance(tools, dict):
            fail(path, f"row {number}: apps must be a list, gt_env and tool_cnt objects")
        tasks.append(
            PublicTask(number, int(row.seed), str(row.query), tuple(apps), int(row.level), gold, tuple(tools), recorded)
        )
    if not tasks:
        fail(path, "holds no task")
    return tasks


def recorded_calls(transcript: str) -> list[str]:
    """The ``<tool>`` blocks of a recorded solution, in order, as call texts (its responses left out)."""
    calls = parse(re.sub(r"<response>.*?</response>", "", transcript, flags=re.DOTALL)).calls
    return [call_text(c.name, c.arguments) for c in calls]


class ReplayAgent:
    """Replays the recorded solution: one call per turn, then ``[END]``."""

    def __init__(self, task: PublicTask, tools: list[dict], seed: int = 0):
        self.calls = recorded_calls(task.recorded)

    def act(self, observation: str) -> str:
        return self.calls.pop(0) if self.calls else END


class Sessions:
    """The task's app sessions on a toolbox of the reference's servers (``servers.Toolbox`` over HTTP)."""

    def __init__(self, toolbox, task: PublicTask):
        self.toolbox, self.task = toolbox, task
        self.ids: dict[str, str] = {}
        self.session_servers = {t["server"] for t in toolbox.tools if t["name"] == "login"}

    async def login(self) -> dict:
        """Log into the system, then every app of the task; their initial states."""
        from ..common.sources import fail

        old = {}
        for app in (SYSTEM, *self.task.apps):
            if app not in self.session_servers:
                fail(app, f"task {self.task.number} needs the app {app}, which no given server serves (public.servers)")
            arguments = {"seed": self.task.seed}
            if app != SYSTEM:
                arguments["os_cfg"] = {"session_id": self.ids[SYSTEM], "url": self.toolbox.urls[SYSTEM]}
            answer = await self.toolbox.call_on(app, "login", arguments)
            if "session_id" not in answer:
                fail(self.toolbox.urls[app], f"{app}.login answered {answer}, no session")
            self.ids[app] = answer["session_id"]
            old[app] = answer.get("session_info", {})
        return old

    async def logout(self) -> dict:
        return {app: await self.toolbox.call_on(app, "logout", {"session_id": sid}) for app, sid in self.ids.items()}

    async def call(self, name: str, arguments: dict) -> dict:
        server = self.toolbox.owner.get(name)
        if server in self.session_servers:
            if server not in self.ids:
                return {"status": "failed", "output": f"{server} has not been logged into yet."}
            arguments = arguments | {"session_id": self.ids[server]}
        return await self.toolbox.call(name, arguments)


def visible_tools(toolbox, gold: tuple[str, ...], distractors: int | None, seed: int) -> list[dict]:
    """What the agent is shown: the recorded solution's tools and ``distractors`` others drawn at random (None:
    every tool), never the session tools or an app's internal ``_`` tools, and without their ``session_id``."""
    shown = [t for t in toolbox.tools if t["name"] not in SESSION_TOOLS and not t["name"].startswith("_")]
    if distractors is not None:
        others = sorted(t["name"] for t in shown if t["name"] not in gold)
        if distractors > len(others):
            raise ValueError(f"public.distractors: {distractors} asked for, but only {len(others)} other tools exist")
        chosen = set(gold) | set(random.Random(seed).sample(others, k=distractors))
        shown = [t for t in shown if t["name"] in chosen]
    return [t | {"parameters": [p for p in t["parameters"] if p != "session_id"]} for t in shown]


async def run_task(
    servers: dict[str, str],
    task: PublicTask,
    agent_name: str,
    *,
    distractors: int | None,
    max_turns: int,
    max_idle: int,
    seed: int,
    agent_options: dict | None = None,
) -> dict:
    """One public task with one agent against the reference's servers; the judged row."""
    from .agents import LanguageModelAgent
    from .episodes import Limits, converse, introduction, scored
    from .servers import Toolbox

    async with Toolbox.remote(servers) as toolbox:
        sessions = Sessions(toolbox, task)
        old = await sessions.login()
        tools = visible_tools(toolbox, task.gold_tools, distractors, seed)
        shown = {t["name"] for t in tools}
        make = ReplayAgent if agent_name == "replay" else LanguageModelAgent
        agent = make(task, tools, seed=seed, **(agent_options or {}))
        talk = await converse(agent, introduction(task, tools), sessions.call, shown, Limits(max_turns, max_idle))
        new = await sessions.logout()
    score = judge(old, new, task.gold, REFERENCE_EXCLUDE_KEYS)
    released = judge(old, new, task.gold, RELEASED_EXCLUDE_KEYS)
    row = {"task": task.number, "level": task.level, "apps": "+".join(task.apps), "agent": agent_name}
    return row | {"tools_shown": len(tools)} | scored(talk, score, released)
