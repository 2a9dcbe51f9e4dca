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
    print(f"{len(drawn['train'])} training and {len(drawn['test'])} test examples over {len(tasks)} tasks", flush=True)
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
    import time

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
    print(f"training {sum(p.numel() for p in net.parameters()):,} parameters on {len(sequences)} sequences", flush=True)
    start = time.perf_counter()
    losses = trainer.train(
        net,
        sequences,
        layout["prompt_blocks"],
        seed=seed,
        log=lambda line: print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True),
        **training,
    )
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


def throughput(
    examples_file: str,
    model_folder: str,
    throughput_table: str,
    machine: str,
    *,
    decoders: list[dict],
    batch_sizes: list[int],
    repeats: int,
    layout: dict,
) -> None:
    """Generated tokens per second of each decoder at each batch size on the test prompts, interleaved, median of
    ``repeats`` (a measured output: ``timing/``; no figure, since every figure is drawn by the one figure job
    from deterministic tables)."""
    from ..common.timing import write_machine
    from .decoding import DecodeSettings
    from .model import load
    from .throughput import measure

    codec, net = _codec(layout), load(model_folder)
    test = _examples(examples_file, "test")
    tasks = sorted({e.task for e in test})
    by_task = [[e for e in test if e.task == t] for t in tasks]
    mixed = [group[i] for i in range(max(map(len, by_task))) for group in by_task if i < len(group)]
    prompts = codec.batch(mixed, "prompt")  # the tasks in turn, so every batch size mixes them
    settings = {d["name"]: DecodeSettings(threshold=d["threshold"], alpha=d["alpha"]) for d in decoders}
    rows = measure(net, prompts, layout["answer_blocks"], settings, batch_sizes, repeats)
    for row in rows:
        print(f"batch {row['batch']} {row['decoder']}: {row['tokens_per_s']:.0f} tokens/s", flush=True)
    write_csv(throughput_table, pd.DataFrame(rows))
    write_machine(machine)


def tables(quality: list[str], quality_table: str, summary_table: str) -> None:
    """Every decoder's per-example results in one table, and per task and decoder: accuracy, rows per generated
    token and block steps per batch (the decoder's, over every task)."""
    from ..common.io import read_csvs

    frame = read_csvs(quality).sort_values(["decoder", "example"])
    write_csv(quality_table, frame)
    batches = frame.drop_duplicates(["decoder", "batch"])
    per_decoder = batches.groupby("decoder")[["batch_steps", "batch_rows", "batch_tokens"]].sum()
    summary = frame.groupby(["decoder", "task"], sort=True)["correct"].mean().rename("accuracy").reset_index()
    summary["rows_per_token"] = summary["decoder"].map(per_decoder["batch_rows"] / per_decoder["batch_tokens"])
    summary["steps_per_batch"] = summary["decoder"].map(batches.groupby("decoder")["batch_steps"].mean())
    write_csv(summary_table, summary)


def verdict(
    quality_table: str,
    correlation_table: str,
    recall_table: str,
    claims: str,
    metrics: str,
    *,
    dense: str,
    focus: str,
    alpha: float,
) -> None:
    from ..common.claims import write_claims
    from ..common.io import read_csv
    from . import verdict as v

    quality, correlation = read_csv(quality_table), read_csv(correlation_table)
    found = [
        v.few_decodable(correlation),
        v.importance_predicts(correlation, read_csv(recall_table), alpha),
        v.preserves_quality(quality, dense, focus),
        v.saves_compute(quality, dense, focus),
    ]
    write_claims(claims, found)
    accuracy = quality.groupby("decoder")["correct"].mean()
    write_json(
        metrics,
        {
            "accuracy": accuracy.to_dict(),
            "decoded_fraction": correlation.set_index("task")["decoded_fraction"].to_dict(),
        },
    )


def timing_verdict(throughput_table: str, machine: str, claims: str, *, dense: str, focus: str) -> None:
    """The wall-clock claim, in ``timing/claims.json`` (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.claims import write_claims
    from ..common.io import read_csv
    from . import verdict as v

    write_claims(claims, [v.raises_throughput(read_csv(throughput_table), dense, focus, read_json(machine))])


def figures(summary_table: str, recall_table: str, **outputs: str) -> None:
    """Accuracy per task and decoder; recall of each selector."""
    from ..common.figures import figure_set, save_figure
    from ..common.io import read_csv
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.quality(read_csv(summary_table)), *paths("quality"))
        save_figure(plots.recall(read_csv(recall_table)), *paths("recall"))
