"""The RL runs a config asks for, and what a run's name means.

A run is named after its method, except RLTF-FM: the spec leaves its loss weight λ_FM open, so FM runs once
per swept weight (``fm_weights``), named ``fm_w<λ>`` (``fm_w0.1``, ``fm_w1``); every table keeps one column
for the run's name. Seeds: ``seeds_by_method`` gives a method its own list (the methods no claim needs many
seeds for keep fewer, to fit the quick budget), the others run ``seeds``. No torch or transformers here: the
workflow imports it to build the DAG.
"""

from __future__ import annotations

FM = "fm"
FM_PREFIX = "fm_w"


def fm_name(weight: float) -> str:
    """The run name of FM at loss weight ``weight``: ``fm_w`` and the weight as ``%g`` writes it."""
    return f"{FM_PREFIX}{weight:g}"


def names(cfg: dict) -> list[str]:
    """Every run name of ``cfg`` in its ``methods`` order, FM expanded over ``fm_weights``."""
    found = []
    for method in cfg["methods"]:
        found += [fm_name(w) for w in cfg["fm_weights"]] if method == FM else [method]
    return found


def parse(name: str) -> tuple[str, dict]:
    """A run name as (method, overrides of the ``rl`` block): ``fm_w0.1`` -> ("fm", {"fm_weight": 0.1})."""
    if name == FM:
        raise ValueError(f"run {name!r}: an FM run is named by its loss weight, {FM_PREFIX}<weight> (fm_weights)")
    if name.startswith(FM_PREFIX):
        try:
            return FM, {"fm_weight": float(name[len(FM_PREFIX) :])}
        except ValueError:
            raise ValueError(f"run {name!r}: {FM_PREFIX} must be followed by FM's loss weight (fm_w0.1)") from None
    return name, {}


def seeds(cfg: dict, name: str) -> list[int]:
    """The seeds of a run: its method's ``seeds_by_method`` entry, else ``seeds``."""
    return list(cfg["seeds_by_method"].get(parse(name)[0], cfg["seeds"]))


def pairs(cfg: dict) -> list[tuple[str, int]]:
    """(run name, seed) for every RL run of one task."""
    return [(name, seed) for name in names(cfg) for seed in seeds(cfg, name)]


def fm_weight(name: str) -> float | None:
    """FM's loss weight in a run name, None for any other method."""
    return parse(name)[1].get("fm_weight")


def is_fm(name: str) -> bool:
    """The run is RLTF-FM (at some weight)."""
    return name.startswith(FM_PREFIX)
