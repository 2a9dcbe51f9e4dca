"""Cross-key constraints on complex_mcp's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

NEEDED_AGENTS = ("oracle", "skip_verification", "no_retry")  # the claims compare these


def problems(cfg: dict) -> Iterator[str]:
    missing = [a for a in NEEDED_AGENTS if a not in cfg["agents"]]
    if missing:
        yield f"agents must include {', '.join(missing)} (the claims compare them with the oracle)"
    from .distractors import distractor_tools

    available = len(distractor_tools())  # every task's gold tools are app tools: these are always beside them
    for key, values in (("distractors", cfg["distractors"]), ("llm.distractors", [cfg["llm"]["distractors"]])):
        too_many = [v for v in values if v > available]
        if too_many:
            yield f"{key}: {too_many[0]} is more than the {available} distractor tools there are (at most {available})"
    checkpoint = cfg["llm"]["checkpoint"]
    if checkpoint is not None and not (Path(checkpoint) / "config.json").is_file():
        yield f"llm.checkpoint: {checkpoint} is not a model folder (no config.json there)"
    public = cfg["public"]
    if public["tasks"] is not None:
        if not Path(public["tasks"]).is_file():
            yield f"public.tasks: {public['tasks']} is not a file (the reference's data.parquet, `make fetch`)"
        if "LightSystem" not in public["servers"]:
            yield "public.servers: must name LightSystem, whose session every app's login is tied to"
        if "llm" in public["agents"] and checkpoint is None:
            yield "public.agents: llm needs llm.checkpoint (the model folder), which is null"
