"""Cross-key constraints on cerebellar_control's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    for env in cfg["envs"]:
        if env not in cfg["environments"]:
            yield f"envs names {env!r}, which has no entry in cerebellar_control.environments"
            continue
        unknown = sorted(set(cfg["faults"]) - set(cfg["environments"][env]["faults"]))
        if unknown:
            yield f"faults names {unknown}, not defined in cerebellar_control.environments.{env}.faults"
