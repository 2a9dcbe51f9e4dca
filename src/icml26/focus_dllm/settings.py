"""Cross-key constraints on focus_dllm's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path


def problems(cfg: dict) -> Iterator[str]:
    names = [d["name"] for d in cfg["decoders"]]
    if len(set(names)) != len(names):
        yield f"decoders: names repeat ({', '.join(sorted(n for n in set(names) if names.count(n) > 1))})"
    alphas = {d["name"]: d["alpha"] for d in cfg["decoders"]}
    for role in ("dense", "focus"):
        name = cfg["compare"][role]
        if name not in alphas:
            yield f"compare.{role}: {name} is not among the decoders ({', '.join(names)})"
        elif (alphas[name] is None) != (role == "dense"):
            yield f"compare.{role}: {name} is {'FOCUS' if role == 'dense' else 'dense'} decoding"
    missing = [n for n in cfg["throughput"]["decoders"] if n not in alphas]
    if missing:
        yield f"throughput.decoders: {', '.join(missing)} not among the decoders"
    if cfg["analysis"]["verdict_alpha"] not in cfg["analysis"]["alphas"]:
        yield f"analysis.verdict_alpha: {cfg['analysis']['verdict_alpha']} is not among analysis.alphas"
    missing = [t for t in cfg["tasks"] if t not in cfg["lengths"]]
    if missing:
        yield f"lengths: no length for {', '.join(missing)}"
    sizes = cfg["model"]["sizes"]
    if cfg["model"]["checkpoint"] is None and (
        sizes["hidden_size"] % sizes["heads"] or (sizes["hidden_size"] // sizes["heads"]) % 2
    ):
        yield f"model.sizes.hidden_size: {sizes['hidden_size']} needs an even head size over {sizes['heads']} heads"
    if cfg["model"]["checkpoint"] is not None and not Path(cfg["model"]["checkpoint"]).is_dir():
        yield f"model.checkpoint: {cfg['model']['checkpoint']} is not a folder (config.json and model.safetensors)"
    if cfg["training"]["batch_size"] > cfg["examples"]["train"] * len(cfg["tasks"]):
        yield f"training.batch_size: {cfg['training']['batch_size']} exceeds the training examples"
