"""Cross-key constraints on cox_subgroups' settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    if cfg["survival_views"]["method"] not in cfg["methods"]:
        yield f"survival_views.method {cfg['survival_views']['method']!r} must be one of cox_subgroups.methods"
