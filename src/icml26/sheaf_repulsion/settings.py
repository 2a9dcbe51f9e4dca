"""Cross-key constraints on sheaf_repulsion's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from math import comb
from pathlib import Path

SEARCH_LIMIT = 100_000  # closed-circuit candidates the minimal search may score (each one forward pass)


def problems(cfg: dict) -> Iterator[str]:
    size, candidates = cfg["minimal"]["size"], cfg["minimal"]["candidates"]
    if size > candidates:
        yield f"minimal.size: {size} edges cannot be drawn from minimal.candidates = {candidates}"
    elif comb(candidates, size) > SEARCH_LIMIT:
        yield (
            f"minimal.candidates: {comb(candidates, size):,} circuits of {size} edges to search "
            f"(at most {SEARCH_LIMIT:,}); lower minimal.candidates or minimal.size"
        )
    if cfg["criteria"]["high"] < cfg["criteria"]["near_chance"]:
        yield "criteria.high: below criteria.near_chance, so one overlap could be both high and near chance"
    if cfg["baselines"]["acdc_sentences"] > cfg["held_out"]:
        yield f"baselines.acdc_sentences: {cfg['baselines']['acdc_sentences']} exceeds held_out ({cfg['held_out']})"
    checkpoint = cfg["model"]["checkpoint"]
    if checkpoint is not None and not (Path(checkpoint).is_file() or (Path(checkpoint) / "config.json").is_file()):
        yield (
            f"model.checkpoint: {checkpoint} is neither a file (an .npz state dict of the configured architecture) "
            "nor a model folder (a Hugging Face GPT-2: config.json, safetensors, tokenizer)"
        )
