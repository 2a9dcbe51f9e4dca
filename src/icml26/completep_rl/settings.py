"""Cross-key constraints on completep_rl's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    if cfg["base_width"] not in cfg["sweep"]["widths"]:
        yield "sweep.widths must contain completep_rl.base_width (consistency is measured against it)"
