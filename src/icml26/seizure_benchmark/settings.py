"""Cross-key constraints on seizure_benchmark's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    for name in cfg["algorithms"]:
        if name not in cfg["algorithm_settings"]:
            yield f"algorithms: {name!r} has no entry in seizure_benchmark.algorithm_settings"
