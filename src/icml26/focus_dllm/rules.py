"""Rule functions of the focus_dllm pipeline: paths and plain parameters in, files out.

DAG (to be wired in workflow/rules/focus_dllm.smk): examples (the task mixture, train and test) -> train (the
block-diffusion LM, or the user's model folder) -> decode_{decoder} (quality, steps and rows per token on the test
prompts) and observe (a dense decoder's per-token importances, confidences and fates: the correlation analysis)
-> tables -> figures, verdict; throughput (timing) beside.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_json, write_csv, write_json


def _codec(layout: dict):
    from .encoding import Codec

    return Codec(layout["block_size"], layout["prompt_blocks"], layout["answer_blocks"])


def _examples(examples_file: str, part: str) -> list:
    from .tasks import Example

    return [Example(r["task"], tuple(r["prompt"]), tuple(r["answer"])) for r in read_json(examples_file)[part]]


def examples(examples_file: str, *, tasks: list[str], lengths: dict, counts: dict, layout: dict, seed: int) -> None:
    """``counts['train']`` training and ``counts['test']`` test examples per task (drawn from one seeded stream,
    test first), each checked to fit the layout."""
    from . import tasks as mixture

    codec, rng = _codec(layout), np.random.default_rng(seed)
    drawn = {"test": [], "train": []}
    for part in ("test", "train"):
        for task in tasks:
            for _ in range(counts[part]):
                example = mixture.draw(task, rng, lengths[task])
                codec.sequence(example)  # fits, else one line naming the task and the sizes
                drawn[part].append({"task": task, "prompt": list(example.prompt), "answer": list(example.answer)})
    print(f"{len(drawn['train'])} training and {len(drawn['test'])} test examples over {len(tasks)} tasks")
    write_json(examples_file, drawn)


def train(
    examples_file: str,
    checkpoint: list[str],
    model_folder: str,
    loss_file: str,
    *,
    layout: dict,
    model: dict,
    training: dict,
    seed: int,
) -> None:
    """Train the block-diffusion LM on the training examples, or take the user's model folder unchanged."""
    import torch

    from ..common.determinism import seed_everything
    from . import model as bd
    from . import training as trainer

    seed_everything(seed)
    if checkpoint:
        net = bd.load(checkpoint[0])
        print(f"{checkpoint[0]}: the user's model, used as it is", flush=True)
        bd.save(net, model_folder)
        write_csv(loss_file, pd.DataFrame(columns=["step", "loss"]))
        return
    codec = _codec(layout)
    config = bd.BlockDiffusionConfig(
        vocab_size=len(codec.words),
        mask_token_id=codec.mask_id,
        block_size=layout["block_size"],
        max_positions=codec.prompt_length + codec.answer_length,
        **model["sizes"],
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        net = bd.BlockDiffusionLM(config)
    sequences = codec.batch(_examples(examples_file, "train"))
    print(f"training {sum(p.numel() for p in net.parameters()):,} parameters on {len(sequences)} sequences")
    losses = trainer.train(net, sequences, layout["prompt_blocks"], seed=seed, **training)
    bd.save(net, model_folder)
    write_csv(loss_file, pd.DataFrame({"step": np.arange(1, len(losses) + 1), "loss": losses}))


def decode_quality(
    examples_file: str, model_folder: str, results_file: str, *, decoder: dict, layout: dict, batch_size: int
) -> None:
    """Decode every test prompt with ``decoder`` (``threshold``, ``alpha``: None for dense) in batches: per example
    whether the answer is right; per batch the steps and rows."""
    from . import tasks as mixture
    from .decoding import DecodeSettings, decode
    from .model import load

    codec, net = _codec(layout), load(model_folder)
    test = _examples(examples_file, "test")
    settings = DecodeSettings(threshold=decoder["threshold"], alpha=decoder["alpha"])
    rows = []
    for start in range(0, len(test), batch_size):
        chunk = test[start : start + batch_size]
        tokens, stats = decode(net, codec.batch(chunk, "prompt"), layout["answer_blocks"], settings)
        for i, (example, ids) in enumerate(zip(chunk, tokens.tolist())):
            rows.append(
                {
                    "decoder": decoder["name"],
                    "example": start + i,
                    "batch": start // batch_size,
                    "task": example.task,
                    "correct": int(mixture.correct(example, codec.answer(ids))),
                    "batch_steps": stats.steps,
                    "batch_rows": stats.rows,
                    "batch_tokens": tokens.numel(),
                }
            )
        print(f"{decoder['name']}: {start + len(chunk)}/{len(test)} test prompts", flush=True)
    write_csv(results_file, pd.DataFrame(rows))


def observe(
    examples_file: str,
    model_folder: str,
    correlation_file: str,
    recall_file: str,
    *,
    threshold: float,
    alphas: list[float],
    layout: dict,
    batch_size: int,
    seed: int,
) -> None:
    """Decode the test prompts densely, observing every masked token at every step; per task the correlation of
    Δ with decodability and the recall of each selector at each ``alpha``."""
    from . import analysis
    from .decoding import DecodeSettings, decode
    from .model import load

    codec, net = _codec(layout), load(model_folder)
    test = _examples(examples_file, "test")
    by_task: dict[str, list] = {}
    for task in sorted({e.task for e in test}):
        chunk = [e for e in test if e.task == task]
        steps = []
        for start in range(0, len(chunk), batch_size):
            part = chunk[start : start + batch_size]
            _, stats = decode(
                net,
                codec.batch(part, "prompt"),
                layout["answer_blocks"],
                DecodeSettings(threshold=threshold, observe=True),
            )
            steps += stats.observed
        by_task[task] = steps
    correlation = [{"task": t, **analysis.correlation(s)} for t, s in by_task.items()]
    recall = [
        {"task": t, "alpha": a, "selector": sel, "recall": analysis.recall(s, sel, a, seed=seed)}
        for t, s in by_task.items()
        for a in alphas
        for sel in analysis.SELECTORS
    ]
    write_csv(correlation_file, pd.DataFrame(correlation))
    write_csv(recall_file, pd.DataFrame(recall))
