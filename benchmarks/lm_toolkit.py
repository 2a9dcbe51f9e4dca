"""Benchmark of the shared LM toolkit (icml26.common.lm): training and sampling throughput of the
quick-size model, the sampler against plain ``model.generate`` at two vocabulary sizes (a task grammar's and a
real tokenizer's 32,000), and what importing the toolkit adds to a job's start-up.

Writes benchmarks/LM_TOOLKIT.md (medians of interleaved repeats; the machine is described there).

    python benchmarks/lm_toolkit.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "LM_TOOLKIT.md"
BATCH, PROMPT, NEW = 32, 24, 24  # a policy-gradient step's shape: 32 rollouts, 24-token prompts and answers
REAL_VOCABULARY = 32000  # a user's own tokenizer (Llama's)


def import_seconds(statement: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import torch

    from icml26.common.determinism import pin_threads
    from icml26.common.lm.model import ModelSettings, build_model, parameter_count
    from icml26.common.lm.sampling import generate
    from icml26.common.lm.sft import SFTSettings, sft
    from icml26.common.lm.tokenizer import task_tokenizer
    from icml26.common.timing import describe, interleaved, machine, medians

    pin_threads(2)
    tokenizer = task_tokenizer([f"w{i}" for i in range(64)])
    model = build_model(ModelSettings(context=PROMPT + NEW), tokenizer, seed=0)
    generator = torch.Generator().manual_seed(0)
    words = torch.randint(6, len(tokenizer), (BATCH, PROMPT + NEW), generator=generator).tolist()
    examples = [(row[:PROMPT], row[PROMPT:]) for row in words]
    steps = 5

    def train():
        sft(
            model,
            examples,
            SFTSettings(steps=steps, batch_size=BATCH, warmup_steps=1, log_every=10**6),
            seed=0,
            pad_id=tokenizer.pad_token_id,
            log=lambda line: None,
        )

    def sample_with(net, prompts, vocabulary):
        return generate(net, prompts, max_new_tokens=NEW, stop_ids=[], pad_id=vocabulary.pad_token_id, seed=0)

    def sample():
        sample_with(model, [row[:PROMPT] for row in words], tokenizer)

    def plain(net, prompts):
        """``model.generate`` drawing the same tokens with nothing kept: the floor the sampler is measured against."""
        from transformers import GenerationConfig

        ids = torch.as_tensor(prompts)
        config = GenerationConfig(
            max_new_tokens=NEW, do_sample=True, temperature=None, top_k=0, top_p=None, pad_token_id=0, eos_token_id=[]
        )
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            return net.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config)

    real_tokenizer = task_tokenizer([f"w{i}" for i in range(REAL_VOCABULARY - len(tokenizer) + 64)])
    real = build_model(ModelSettings(context=PROMPT + NEW), real_tokenizer, seed=0)
    real_words = torch.randint(6, len(real_tokenizer), (BATCH, PROMPT), generator=generator).tolist()
    prompts = [row[:PROMPT] for row in words]
    same = torch.equal(plain(real, real_words)[:, PROMPT:], sample_with(real, real_words, real_tokenizer).tokens)

    seconds = medians(
        interleaved(
            {
                "train": train,
                "sample": sample,
                "plain": lambda: plain(model, prompts),
                "sample_real": lambda: sample_with(real, real_words, real_tokenizer),
                "plain_real": lambda: plain(real, real_words),
            },
            repeats=args.repeats,
        )
    )
    light = "import icml26.common.io"
    heavy = "import icml26.common.lm.model, icml26.common.lm.sampling, icml26.common.lm.sft"
    imports = medians(
        interleaved(
            {"light": lambda: import_seconds(light), "heavy": lambda: import_seconds(heavy)}, repeats=args.repeats
        )
    )
    rows = [
        (
            "training tokens/s (SFT, batch 32 x 48 tokens, forward + backward + AdamW)",
            f"{steps * BATCH * (PROMPT + NEW) / seconds['train']:.0f}",
        ),
        ("sampling tokens/s (batch 32, 24 new tokens after 24, KV cache)", f"{BATCH * NEW / seconds['sample']:.0f}"),
        (
            f"sampler time / plain `generate` time, vocabulary {len(tokenizer)}",
            f"{seconds['sample'] / seconds['plain']:.3f}",
        ),
        (
            f"sampler time / plain `generate` time, vocabulary {len(real_tokenizer):,} "
            f"(same tokens: {'yes' if same else 'NO'})",
            f"{seconds['sample_real'] / seconds['plain_real']:.3f}",
        ),
        ("job start-up added by importing the toolkit (s)", f"{imports['heavy'] - imports['light']:.2f}"),
    ]
    lines = [
        "# Shared LM toolkit benchmark",
        "",
        (
            f"Written by `python benchmarks/lm_toolkit.py` (medians of {args.repeats} interleaved repeats) on "
            f"{describe(machine())}, torch {torch.__version__}, 2 threads. The model is the quick-scale default "
            f"(`ModelSettings()`: {parameter_count(model) / 1e6:.2f} M parameters, vocabulary {len(tokenizer)})."
        ),
        "These are measured numbers: they differ from machine to machine and run to run.",
        "",
        "| measurement | value |",
        "|---|---|",
        *[f"| {name} | {value} |" for name, value in rows],
        "",
    ]
    OUT.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
