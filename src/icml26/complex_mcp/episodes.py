"""One episode: an agent, a task and a world, talking through the text protocol to the MCP toolbox.

The harness shows the agent the instruction and its exposed tools, then alternates: the agent's text is
parsed (``protocol``), each call goes to the toolbox, the results come back as ``<response>`` blocks. The
episode stops at ``[END]``, after ``max_idle`` turns without a call, or after ``max_turns``. The judge then
compares the final world with the gold state. Exposure (ours, after the paper's modes): the tools the
careful program needs plus ``distractors`` others drawn at random (None: every tool).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .agents import AGENTS
from .apps import error
from .judge import INTENDED_EXCLUDE_KEYS, RELEASED_WORLD_EXCLUDE_KEYS, judge
from .protocol import parse, response_text
from .servers import Toolbox
from .tasks import Task, gold_state, prepare
from .world import World


@dataclass(frozen=True)
class Limits:
    max_turns: int = 60
    max_idle: int = 2


def exposed_tools(toolbox: Toolbox, gold: list[str], distractors: int | None, seed: int) -> list[dict]:
    if distractors is None:
        return list(toolbox.tools)
    others = sorted(t["name"] for t in toolbox.tools if t["name"] not in gold)
    if distractors > len(others):  # never clamped: the results would be labelled with a count never shown
        raise ValueError(f"distractors: {distractors} asked for, but only {len(others)} tools lie beside the gold ones")
    chosen = set(gold) | set(random.Random(seed).sample(others, k=distractors))
    return [t for t in toolbox.tools if t["name"] in chosen]


def introduction(task: Task, tools: list[dict]) -> str:
    listing = "\n".join(f"- {t['name']}({', '.join(t['parameters'])}): {t['description']}" for t in tools)
    return f"Task: {task.instruction}\nTools:\n{listing}\nCall tools as <tool>{{...}}</tool>; say [END] when done."


async def run_episode(
    toolbox: Toolbox,
    agent_name: str,
    task: Task,
    world: World,
    *,
    failure_rate: float,
    failure_seed: int,
    distractors: int | None,
    limits: Limits,
    agent_options: dict | None = None,
) -> dict:
    start = prepare(world, task)
    gold = gold_state(task, start)
    sandbox = toolbox.sandbox  # the world the toolbox serves: reset to this task's start
    sandbox.reset(start, failure_rate, failure_seed)
    old = start.snapshot()
    tools = exposed_tools(toolbox, task.gold_tools(start), distractors, failure_seed)
    shown = {t["name"] for t in tools}
    agent = AGENTS[agent_name](task, tools, seed=failure_seed, **(agent_options or {}))
    talk = await converse(agent, introduction(task, tools), toolbox.call, shown, limits)
    new = sandbox.world.snapshot()
    score, released = judge(old, new, gold, INTENDED_EXCLUDE_KEYS), judge(old, new, gold, RELEASED_WORLD_EXCLUDE_KEYS)
    return {
        "agent": agent_name,
        "template": task.template,
        "level": task.level,
        "world": world.seed,
        "failure_rate": failure_rate,
        "distractors": -1 if distractors is None else distractors,
        "tools_shown": len(tools),
        **scored(talk, score, released),
        "released_total": released.total,
    }


async def converse(agent, observation: str, call, shown: set[str], limits: Limits) -> dict:
    """The harness's turns: the agent's text parsed, each call to a shown tool made with ``call(name, arguments)``
    (an unshown one is an error result), the results sent back, until ``[END]``, ``max_idle`` turns without a call,
    or ``max_turns``; the turns, calls and result statuses."""
    statuses, idle, turns, calls = Counter(), 0, 0, 0
    while turns < limits.max_turns:
        turns += 1
        parsed = parse(agent.act(observation))
        results = [error(problem) for problem in parsed.errors]
        for request in parsed.calls:
            calls += 1
            if request.name not in shown:
                results.append(error(f"tool {request.name!r} is not available"))
            else:
                results.append(await call(request.name, request.arguments))
        statuses.update(r.get("status", "error") for r in results)
        if parsed.end:
            break
        idle = 0 if results else idle + 1
        if idle >= limits.max_idle:
            break
        observation = "\n".join(response_text(r) for r in results) or "<response>no tool call</response>"
    return {"turns": turns, "calls": calls, "statuses": statuses}


def scored(talk: dict, score, released) -> dict:
    """An episode row's counts and the judge's scores (intended exclude keys, and the released ones' success)."""
    statuses = talk["statuses"]
    return {
        "turns": talk["turns"],
        "calls": talk["calls"],
        "ok": statuses["ok"],
        "failed": statuses["failed"],
        "error": statuses["error"],
        "total": score.total,
        "recall": score.recall,
        "misbehave": score.misbehave,
        "success": int(score.success),
        "completion": score.completion,
        "released_success": int(released.success),
    }
