"""Rule functions of the complex_mcp pipeline: paths and plain parameters in, files out.

DAG: episodes_{agents,saturation,failures} -> tables -> figures, verdict; timing (MCP throughput,
seconds per task) beside.
"""

from __future__ import annotations

import pandas as pd

from ..common.io import read_csv, write_csv, write_json


def episodes(
    table: str,
    *,
    experiment: str,
    worlds: list[int],
    tasks_per_template: int,
    agents: list[str],
    failure_rate: float,
    failure_rates: list[float],
    distractors: list[int],
    max_turns: int,
    max_idle: int,
    llm: dict,
    device: str,
) -> None:
    """Every episode of one experiment: one row per (world, task, agent setting) with the judge's score; with
    ``llm.checkpoint`` (``paper`` scale) the user's causal LM joins the agents experiment as ``llm``, on
    ``device``."""
    from .episodes import Limits
    from .experiments import run

    rows = run(
        experiment,
        worlds,
        tasks_per_template,
        Limits(max_turns, max_idle),
        agents=agents,
        failure_rate=failure_rate,
        failure_rates=failure_rates,
        distractors=distractors,
        llm={**llm, "device": device},
    )
    write_csv(table, pd.DataFrame(rows))


def public(tasks_file: str, table: str, summary: str, *, public: dict, llm: dict, device: str) -> None:
    """The reference benchmark's public tasks, each with each agent, against its sandbox servers (``public.py``):
    one judged row per task and agent, and per agent the success rate with its Wilson 95 % interval, the mean
    completion and misbehaviour beside the released judge's success."""
    import asyncio

    from scipy.stats import binomtest

    from .public import read_tasks, run_task

    tasks = read_tasks(tasks_file)
    rows = []
    for agent in public["agents"]:
        options = (
            {k: llm[k] for k in ("checkpoint", "max_new_tokens", "temperature")} | {"device": device}
            if agent == "llm"
            else {}
        )
        for task in tasks:
            row = asyncio.run(
                run_task(
                    public["servers"],
                    task,
                    agent,
                    distractors=public["distractors"],
                    max_turns=public["max_turns"],
                    max_idle=2,
                    seed=task.seed,
                    agent_options=options,
                )
            )
            rows.append(row)
            print(f"public task {task.number + 1}/{len(tasks)} ({agent}): success {row['success']}", flush=True)
    frame = pd.DataFrame(rows)
    write_csv(table, frame)
    lines = []
    for agent, group in frame.groupby("agent", sort=False):
        interval = binomtest(int(group["success"].sum()), len(group)).proportion_ci(method="wilson")
        lines.append(
            {
                "agent": agent,
                "tasks": len(group),
                "success": group["success"].mean(),
                "low": interval.low,
                "high": interval.high,
                "completion": group["completion"].mean(),
                "misbehave": group["misbehave"].mean(),
                "released_success": group["released_success"].mean(),
            }
        )
    write_csv(summary, pd.DataFrame(lines))


def tables(
    agents: str,
    saturation: str,
    failures: str,
    by_level: str,
    saturation_table: str,
    failure_table: str,
    status: str,
    judge_variants: str,
) -> None:
    """Success, completion and misbehaviour per agent and level; success against exposed tools and failure
    rate; tool-status counts; the judge's released exclude-keys behaviour beside the intended one."""
    from . import summary

    main, sweep, rates = read_csv(agents), read_csv(saturation), read_csv(failures)
    write_csv(by_level, summary.by_level(main))
    write_csv(saturation_table, summary.saturation(sweep))
    write_csv(failure_table, summary.failure_rates(rates))
    write_csv(status, summary.tool_status(main))
    write_csv(judge_variants, summary.judge_variants(main))


def timing(
    throughput: str,
    per_task: str,
    machine: str,
    *,
    calls: int,
    repeats: int,
    worlds: list[int],
    max_turns: int,
    max_idle: int,
) -> None:
    """Tool calls per second through the in-memory MCP session (and straight on the sandbox), and seconds
    per task per agent: interleaved repeats, medians (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine
    from .throughput import measure

    call_rates, task_seconds = measure(
        calls=calls, repeats=repeats, worlds=worlds, max_turns=max_turns, max_idle=max_idle
    )
    write_csv(throughput, call_rates)
    write_csv(per_task, task_seconds)
    write_machine(machine)


def figures(by_level: str, status: str, saturation_table: str, failure_table: str, **outputs: str) -> None:
    """Success per agent and level with calls per episode by status (agents), the retrieval agent's success
    against the tools exposed (saturation) and success against the network failure rate (failures)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.agents(read_csv(by_level), read_csv(status)), *paths("agents"))
        save_figure(plots.saturation(read_csv(saturation_table), read_csv(by_level)), *paths("saturation"))
        save_figure(plots.failures(read_csv(failure_table)), *paths("failures"))


def verdict(agents: str, saturation: str, failures: str, claims: str, metrics: str, *, substitution: str) -> None:
    """Judge the spec's claims and collect the headline numbers."""
    from ..common.claims import verdict_word, write_claims
    from . import summary
    from . import verdict as verdicts

    main, sweep, rates = read_csv(agents), read_csv(saturation), read_csv(failures)
    judged = [
        verdicts.oracle_solves_everything(main),
        verdicts.retrieval_saturation(sweep),
        verdicts.over_confidence_costs(main),
        verdicts.defeatism_costs(main, rates),
    ]
    judged += [claim for claim in [verdicts.llm_falls_short(main)] if claim is not None]  # when an LLM played
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.headline}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    overall = summary.by_level(main)
    overall = overall[overall["level"] == "all"]
    write_json(
        metrics,
        {
            "success": {r.agent: r.success for r in overall.itertuples()},
            "completion": {r.agent: r.completion for r in overall.itertuples()},
            "episodes": int(len(main) + len(sweep) + len(rates)),
        },
    )
