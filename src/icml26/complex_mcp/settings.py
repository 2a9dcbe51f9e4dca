"""Cross-key constraints on complex_mcp's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator

NEEDED_AGENTS = ("oracle", "skip_verification", "no_retry")  # the claims compare these


def problems(cfg: dict) -> Iterator[str]:
    missing = [a for a in NEEDED_AGENTS if a not in cfg["agents"]]
    if missing:
        yield f"agents must include {', '.join(missing)} (the claims compare them with the oracle)"
