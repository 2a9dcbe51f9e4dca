"""Cross-key constraints on focus_dllm's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

BENCHMARKS = ("gsm8k", "math", "sharegpt")  # tasks read from files (.benchmarks.TASKS; kept light here)


def _benchmark_problems(cfg: dict, read: list[str]) -> Iterator[str]:
    """The paper's evaluation sets: each read from a file, with a model that reads text (a checkpoint), never mixed
    with the procedural tasks (a model trained here has no words for them)."""
    others = [t for t in cfg["tasks"] if t not in BENCHMARKS]
    if others:
        yield f"tasks: {', '.join(read)} (read from files) and {', '.join(others)} (procedural) cannot run together"
    missing = [t for t in read if t not in cfg.get("benchmarks", {})]
    if missing:
        yield f"benchmarks: no file or folder for {', '.join(missing)}"
    if cfg["model"]["checkpoint"] is None:
        yield f"model.checkpoint: {', '.join(read)} need a model that reads text (the paper's SDAR folder)"


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
    read = [t for t in cfg["tasks"] if t in BENCHMARKS]
    if read:
        yield from _benchmark_problems(cfg, read)
        return
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
