"""Benchmark of FOCUS against dense threshold decoding (icml26.focus_dllm), side by side on one machine.

Two settings:
- **trained**: the quick pipeline's seed-0 model (``data/quick/focus_dllm/seed0``: run ``snakemake focus_dllm``
  first) on its test prompts, the tasks in turn, at threshold 0.9 as the verdict compares them;
- **forced eviction**: random weights at depths 4, 8 and 12 (equal width), threshold 1.0 (one token decoded per
  step, so FOCUS's retain target is small and most masked tokens can be evicted): where compaction has room.

Per row: generated tokens/s (medians of interleaved repeats), FOCUS / dense, block steps, real rows per generated
token and the padding rows computed beside them (each sequence's rows padded to the batch's widest). Writes
benchmarks/FOCUS_DLLM.md; the numbers are measured, not expected values.

    python benchmarks/focus_dllm.py [--repeats 5] [--threads 1]
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "FOCUS_DLLM.md"
TRAINED = ROOT / "data" / "quick" / "focus_dllm" / "seed0"
LAYOUT = {"block_size": 16, "prompt_blocks": 1, "answer_blocks": 1}  # the quick layout
DEPTHS = (4, 8, 12)
BATCHES = (64, 128)
ALPHA = 1.5  # the verdict's FOCUS (config/papers/focus_dllm.yaml, compare.focus)


def _pair(measure, model, prompts, blocks, threshold, batches, repeats):
    from icml26.focus_dllm.decoding import DecodeSettings

    decoders = {
        "dense": DecodeSettings(threshold=threshold),
        "focus": DecodeSettings(threshold=threshold, alpha=ALPHA),
    }
    rows = measure(model, prompts, blocks, decoders, batches, repeats)
    by = {(r["batch"], r["decoder"]): r for r in rows}
    return [(b, by[(b, "dense")], by[(b, "focus")]) for b in batches]


def _line(setting: str, depth: int, batch: int, dense: dict, focus: dict) -> str:
    return (
        f"| {setting} | {depth} | {batch} | {dense['tokens_per_s']:.0f} | {focus['tokens_per_s']:.0f} | "
        f"**{focus['tokens_per_s'] / dense['tokens_per_s']:.2f}** | {dense['steps']} / {focus['steps']} | "
        f"{dense['rows_per_token']:.1f} / {focus['rows_per_token']:.1f} | "
        f"{dense['padding_per_token']:.1f} / {focus['padding_per_token']:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import torch

    from icml26.common.determinism import pin_threads
    from icml26.common.timing import describe, machine
    from icml26.focus_dllm import rules
    from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM
    from icml26.focus_dllm.throughput import measure

    pin_threads(args.threads)
    lines = []
    if (TRAINED / "model").is_dir():
        model = rules._model(str(TRAINED / "model"), "cpu", LAYOUT)
        prompts, _ = rules._mixed_prompts(rules._codec(LAYOUT), str(TRAINED / "examples.json"))  # the tasks in turn
        for batch, dense, focus in _pair(measure, model, prompts, 1, 0.9, BATCHES, args.repeats):
            lines.append(_line("trained (quick seed 0)", model.config.layers, batch, dense, focus))
            print(lines[-1], flush=True)
    else:
        print(f"{TRAINED / 'model'} is missing: run `snakemake focus_dllm` first; the trained rows are skipped")
    for depth in DEPTHS:
        config = BlockDiffusionConfig(vocab_size=64, mask_token_id=63, layers=depth)
        torch.manual_seed(0)
        model = BlockDiffusionLM(config).eval()
        prompts = torch.randint(0, 62, (max(BATCHES), LAYOUT["block_size"]), generator=torch.Generator().manual_seed(1))
        for batch, dense, focus in _pair(measure, model, prompts, 1, 1.0, BATCHES, args.repeats):
            lines.append(_line("forced eviction (random weights)", depth, batch, dense, focus))
            print(lines[-1], flush=True)

    header = [
        "# FOCUS vs dense decoding benchmark",
        "",
        f"Written by `python benchmarks/focus_dllm.py` (medians of {args.repeats} interleaved repeats, "
        f"{args.threads} thread) on {describe(machine())}. FOCUS at alpha = {ALPHA}; one answer block of 16 "
        "tokens after a 16-token prompt; width 128, 4 heads. These are measured numbers: they differ from machine "
        "to machine and run to run.",
        "",
        "| setting | layers | batch | dense tokens/s | FOCUS tokens/s | FOCUS / dense | block steps (dense / FOCUS) "
        "| real rows per token (dense / FOCUS) | padding rows per token (dense / FOCUS) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    OUT.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
