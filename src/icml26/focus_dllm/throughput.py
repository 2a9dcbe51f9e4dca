"""Generated tokens per second of each decoder at each batch size, timed interleaved (dense, FOCUS, dense,
FOCUS, ... over repeats; the median of each) so a change of load hits every decoder alike (docs/ARCHITECTURE.md,
"Measured outputs"). Only generated tokens count: the prompt's prefill is part of the time, not of the tokens.
Per-step latency is the median seconds over the batch's block steps (prefill and final clean passes included in
the seconds, not in the steps). Peak memory is the CUDA allocator's peak during one decode (``peak_mb``); torch
keeps no allocator statistics on CPU, so there it is left empty rather than guessed. Beside the seconds, the
deterministic compute count: rows through the network per generated token."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from ..common.timing import interleaved, medians
from .decoding import DecodeSettings, decode
from .model import BlockDiffusionLM


def measure(
    model: BlockDiffusionLM,
    prompts: torch.Tensor,
    blocks: int,
    decoders: dict[str, DecodeSettings],
    batch_sizes: Sequence[int],
    repeats: int,
) -> list[dict]:
    """One row per batch size and decoder: median seconds, tokens per second, rows per generated token. The
    batch of size ``b`` is the first ``b`` prompts (cycled when there are fewer): order them as the batches
    should mix them (the throughput rule takes the tasks in turn)."""
    rows = []
    for size in batch_sizes:
        batch = prompts[torch.arange(size) % len(prompts)]
        tokens = size * blocks * model.config.block_size
        stats = {}

        def run(name: str):
            return lambda: stats.__setitem__(name, decode(model, batch, blocks, decoders[name])[1])

        seconds = medians(interleaved({name: run(name) for name in decoders}, repeats=repeats))
        peak = {name: _peak_mb(model, run(name)) for name in decoders}
        for name in decoders:
            rows.append(
                {
                    "batch": size,
                    "decoder": name,
                    "seconds": seconds[name],
                    "tokens_per_s": tokens / seconds[name],
                    "ms_per_step": 1000 * seconds[name] / stats[name].steps,
                    "peak_mb": peak[name],
                    "rows_per_token": stats[name].rows / tokens,
                    "steps": stats[name].steps,
                }
            )
    return rows


def _peak_mb(model: BlockDiffusionLM, run) -> float:
    """Peak CUDA memory allocated during one ``run`` (MiB); NaN on CPU."""
    device = next(model.parameters()).device
    if device.type != "cuda":
        return float("nan")
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    run()
    torch.cuda.synchronize(device)
    return torch.cuda.max_memory_allocated(device) / 2**20
