"""The trained models and the cross-key constraints on netdiff's settings (checked by ``register`` before any job
runs)."""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Variant:
    acam: bool  # the ACAM global tokens
    aux: bool  # the auxiliary constraint losses (weight training.aux)
    description: str


MODELS = {
    "netdiff": Variant(True, True, "NetDiff: graph transformer with ACAM tokens and auxiliary losses"),
    "graph_transformer": Variant(False, True, "the same graph transformer without global tokens (DiGress-style)"),
    "no_aux": Variant(True, False, "NetDiff without the auxiliary losses"),
}
HEURISTICS = ["greedy", "mutual_nearest", "random_feasible", "omnidirectional"]


def problems(cfg: dict) -> Iterator[str]:
    channel, calibration, data = cfg["channel"], cfg["calibration"], cfg["data"]
    if channel["sectors"] not in calibration["sectors"]:
        yield f"calibration.sectors: {calibration['sectors']} must include channel.sectors ({channel['sectors']})"
    if channel["side_db"] not in calibration["side_db"]:
        yield f"calibration.side_db: {calibration['side_db']} must include channel.side_db ({channel['side_db']})"
    if not set(data["test_nodes"]) <= set(calibration["nodes"]):
        yield f"calibration.nodes: {calibration['nodes']} must include every one of data.test_nodes"
    if data["placements"] is not None and not Path(data["placements"]).is_file():
        yield f"data.placements: {data['placements']} is not a file (an .npz of positions and orientations)"
    steps = cfg["training"]["diffusion_steps"]
    if max(cfg["partial"]["restarts"]) > steps:
        yield f"partial.restarts: {cfg['partial']['restarts']} must not exceed training.diffusion_steps ({steps})"
    if steps not in cfg["partial"]["restarts"]:
        yield f"partial.restarts: must include training.diffusion_steps ({steps}), full diffusion from noise"
    if cfg["model"]["dim"] % cfg["model"]["heads"]:
        yield f"model.dim: {cfg['model']['dim']} is not a multiple of model.heads ({cfg['model']['heads']})"
    if "netdiff" not in cfg["models"]:
        yield "models: must include 'netdiff' (the paper's model; the others are its baselines)"
