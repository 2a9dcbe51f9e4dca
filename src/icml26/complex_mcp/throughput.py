"""Measured (not derived) numbers: MCP tool-call throughput and seconds per task per agent.

Interleaved repeats (MCP and direct calls alternate; every agent runs once per round) and medians, as
``icml26.common.timing.interleaved`` does for synchronous code; the files go under ``timing/``.
"""

from __future__ import annotations

import asyncio
import time

import pandas as pd

from .agents import SCRIPTED
from .episodes import Limits, run_episode
from .servers import Toolbox
from .tasks import TEMPLATES, make_task
from .world import build_world


def measure(
    *, calls: int, repeats: int, worlds: list[int], max_turns: int, max_idle: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    return asyncio.run(_measure(calls, repeats, worlds, Limits(max_turns, max_idle)))


async def _measure(calls: int, repeats: int, worlds: list[int], limits: Limits) -> tuple[pd.DataFrame, pd.DataFrame]:
    async with Toolbox.for_sandbox(worlds[0]) as toolbox:
        sandbox = toolbox.sandbox
        mcp_seconds, direct_seconds = [], []
        for _ in range(repeats):  # interleaved: MCP, direct, MCP, direct, ...
            start = time.perf_counter()
            for _ in range(calls):
                await toolbox.call("shop_list_categories", {})
            mcp_seconds.append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(calls):
                sandbox.shop_list_categories()
            direct_seconds.append(time.perf_counter() - start)
        rates = pd.DataFrame(
            [
                {"path": "in-memory MCP client session", "calls_per_second": calls / pd.Series(mcp_seconds).median()},
                {"path": "direct Python call", "calls_per_second": calls / pd.Series(direct_seconds).median()},
            ]
        )
        seconds: dict[str, list[float]] = {agent: [] for agent in SCRIPTED}
        tasks = [(world, make_task(world, template, 0)) for world in map(build_world, worlds) for template in TEMPLATES]
        for _ in range(repeats):
            for agent in SCRIPTED:
                start = time.perf_counter()
                for world, task in tasks:
                    await run_episode(
                        toolbox, agent, task, world, failure_rate=0.1, failure_seed=0, distractors=None, limits=limits
                    )
                seconds[agent].append((time.perf_counter() - start) / len(tasks))
    per_task = pd.DataFrame(
        [
            {"agent": agent, "seconds_per_task": float(pd.Series(s).median()), "tasks": len(tasks)}
            for agent, s in seconds.items()
        ]
    )
    return rates, per_task
