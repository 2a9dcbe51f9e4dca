"""Cross-key constraints on optifluence's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

from .canaries import seeds_needed


def problems(cfg: dict) -> Iterator[str]:
    archs = cfg["architectures"]
    for key, names in (("target", [cfg["target"]]), ("transfer", cfg["transfer"])):
        unknown = [n for n in names if n not in archs]
        if unknown:
            yield f"{key}: {', '.join(unknown)} not among architectures ({', '.join(archs)})"
    if cfg["target"] in cfg["transfer"]:
        yield f"transfer: {cfg['target']} is the target architecture, not a transfer one"
    for name, spec in archs.items():
        extra = [key for key in ("blocks", "widen") if key in spec]
        if extra and spec["kind"] != "resnet":
            yield f"architectures.{name}: {', '.join(extra)} only shape a resnet, not a {spec['kind']}"
    if cfg["unrolling"]["truncation"] in cfg["ablation"]:
        yield f"ablation: {cfg['unrolling']['truncation']} is unrolling.truncation itself (the optifluence type)"
    too_long = [k for k in [cfg["unrolling"]["truncation"], *cfg["ablation"]] if k > cfg["training"]["steps"]]
    if too_long:
        yield f"unrolling.truncation / ablation: {too_long} exceed training.steps ({cfg['training']['steps']})"
    needed = seeds_needed(cfg["canaries_per_type"], cfg["ablation"])
    if needed > cfg["split"]["candidates"]:
        yield (
            f"split.candidates: {cfg['split']['candidates']} cannot seed the canary sets without sharing "
            f"images ({needed} needed at canaries_per_type = {cfg['canaries_per_type']})"
        )
    if cfg["audit"]["models"] * min(cfg["audit"]["base_fraction"], 0.5) < 6:
        yield "audit.models: too few for LiRA's leave-one-out Gaussian fits (need >= 2 IN and OUT per canary)"
    path = cfg["dataset"]["path"]
    if cfg["dataset"]["name"] in ("npz", "cifar10", "mnist") and not path:
        yield f"dataset.path: the {cfg['dataset']['name']} dataset needs the path of its file or folder"
    if path and not Path(path).exists():
        yield f"dataset.path: {path} does not exist"
