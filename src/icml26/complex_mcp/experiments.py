"""The three experiments as grids of episodes, run in one asyncio loop over one toolbox.

- ``agents``: every agent on every task at the main failure rate, every tool exposed;
- ``saturation``: the retrieval agent against the number of distractor tools exposed beside the gold
  tools (no failures, so only retrieval can go wrong);
- ``failures``: oracle, no-retry and skip-verification against the network failure rate.

Tasks: ``tasks_per_template`` of each template on each world seed. Rows are ordered by the loops below,
and nothing in them is a wall-clock time, so the tables are byte-identical on rerun.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

from .episodes import Limits, run_episode
from .servers import Toolbox
from .tasks import TEMPLATES, make_task
from .world import build_world

EXPERIMENTS = ("agents", "saturation", "failures")
FAILURE_AGENTS = ("oracle", "no_retry", "skip_verification")


def grid(
    experiment: str,
    *,
    agents: list[str],
    failure_rate: float,
    failure_rates: list[float],
    distractors: list[int],
    llm: dict,
) -> Iterator[tuple[str, float, int | None, dict]]:
    """(agent, failure rate, distractors, agent options) of every episode per task, in a fixed order. With
    ``llm.checkpoint`` set, the agents experiment adds the user's model as agent ``llm``, shown the gold
    tools and ``llm.distractors`` others (every tool's description would not fit a small context)."""
    if experiment == "agents":
        yield from ((agent, failure_rate, None, {}) for agent in agents)
        if llm.get("checkpoint"):
            options = {k: llm[k] for k in ("checkpoint", "max_new_tokens", "temperature", "device") if k in llm}
            yield "llm", failure_rate, llm["distractors"], options
    elif experiment == "saturation":
        yield from (("retrieval", 0.0, k, {}) for k in distractors)
    elif experiment == "failures":
        yield from ((agent, rate, None, {}) for rate in failure_rates for agent in FAILURE_AGENTS)
    else:
        raise ValueError(f"experiment must be one of {EXPERIMENTS}, got {experiment!r}")


async def _run(experiment: str, worlds: list[int], tasks_per_template: int, limits: Limits, **grid_args) -> list[dict]:
    rows: list[dict] = []
    start = time.perf_counter()
    async with Toolbox.for_sandbox(worlds[0]) as toolbox:
        for seed in worlds:
            world = build_world(seed)
            for template in TEMPLATES:
                for index in range(tasks_per_template):
                    task = make_task(world, template, index)
                    for agent, rate, distractors, options in grid(experiment, **grid_args):
                        row = await run_episode(
                            toolbox,
                            agent,
                            task,
                            world,
                            failure_rate=rate,
                            failure_seed=index,
                            distractors=distractors,
                            limits=limits,
                            agent_options=options,
                        )
                        rows.append({**row, "task": index})
            done = [r for r in rows if r["world"] == seed]
            print(
                f"{experiment}: world {seed}: {len(done)} episodes, "
                f"success {sum(r['success'] for r in done) / len(done):.2f}"
                f" ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    return rows


def run(experiment: str, worlds: list[int], tasks_per_template: int, limits: Limits, **grid_args) -> list[dict]:
    return asyncio.run(_run(experiment, worlds, tasks_per_template, limits, **grid_args))
