"""Cross-key constraints on complex_mcp's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

NEEDED_AGENTS = ("oracle", "skip_verification", "no_retry")  # the claims compare these


def problems(cfg: dict) -> Iterator[str]:
    missing = [a for a in NEEDED_AGENTS if a not in cfg["agents"]]
    if missing:
        yield f"agents must include {', '.join(missing)} (the claims compare them with the oracle)"
    checkpoint = cfg["llm"]["checkpoint"]
    if checkpoint is not None and not (Path(checkpoint) / "config.json").is_file():
        yield f"llm.checkpoint: {checkpoint} is not a model folder (no config.json there)"
