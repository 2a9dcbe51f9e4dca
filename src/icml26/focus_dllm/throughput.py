"""Generated tokens per second of each decoder at each batch size, timed interleaved (dense, FOCUS, dense,
FOCUS, ... over repeats; the median of each) so a change of load hits every decoder alike (docs/ARCHITECTURE.md,
"Measured outputs"). Only generated tokens count: the prompt's prefill is part of the time, not of the tokens.
Per-step latency is the median seconds over the batch's block steps (prefill and final clean passes included in
the seconds, not in the steps). ``peak_mb`` is the memory one decode adds at its peak, after the timed runs
(:func:`icml26.common.timing.peak_memory_mb`: the CUDA allocator's peak, or on CPU the resident set's high-water
mark). Beside the seconds, the deterministic compute count: rows through the network per generated token, and
the padding rows computed beside them (each sequence's row set padded to the batch's widest)."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from ..common.timing import interleaved, medians, peak_memory_mb
from .decoding import DecodeSettings, decode
from .model import BlockDiffusionLM


def measure(
    model: BlockDiffusionLM,
    prompts: torch.Tensor,
    blocks: int,
    decoders: dict[str, DecodeSettings],
    batch_sizes: Sequence[int],
    repeats: int,
    valid: torch.Tensor | None = None,
) -> list[dict]:
    """One row per batch size and decoder: median seconds, tokens per second, rows per generated token. The
    batch of size ``b`` is the first ``b`` prompts (cycled when there are fewer; ``valid``: their real tokens
    when left-padded): order them as the batches should mix them (the throughput rule takes the tasks in turn).
    Every sequence generates ``blocks`` whole blocks, an end of text or not (a fixed output length, as serving
    benchmarks measure throughput)."""
    rows, device = [], str(next(model.parameters()).device)
    for size in batch_sizes:
        chosen = torch.arange(size) % len(prompts)
        batch, real = prompts[chosen], None if valid is None else valid[chosen]
        tokens = size * blocks * model.config.block_size
        stats = {}

        def run(name: str):
            def once():
                stats[name] = decode(model, batch, blocks, decoders[name], real)[1]
                if device.startswith("cuda"):
                    torch.cuda.synchronize()  # a GPU's queued work belongs to the decode that queued it

            return once

        seconds = medians(interleaved({name: run(name) for name in decoders}, repeats=repeats))
        peak = {name: peak_memory_mb(run(name), device) for name in decoders}
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
                    "padding_per_token": stats[name].padding / tokens,
                    "steps": stats[name].steps,
                }
            )
    return rows
