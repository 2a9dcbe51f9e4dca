"""Rule functions of the focus_dllm pipeline: paths and plain parameters in, files out.

DAG (workflow/rules/focus_dllm.smk), per seed: examples (the task mixture, train and test; at paper scale the
paper's evaluation sets, :mod:`.benchmarks`) -> train (the block-diffusion LM, the user's model folder, or a
pointer to the paper's model, :mod:`.sdar` or :mod:`.llada2`, decoded where it was fetched) -> decode_{decoder}
(quality, steps and rows per token on the test prompts) and observe (a dense decoder's per-token importances,
confidences and fates: the correlation analysis); then over every seed -> tables -> figures, verdict; throughput
(timing, the first seed's model) -> its verdict and figure beside. A seed redraws the examples, the initialisation
and the training: the claims are judged over all.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_json, write_csv, write_json


def _codec(layout: dict):
    from .encoding import Codec

    return Codec(layout["block_size"], layout["prompt_blocks"], layout["answer_blocks"])


SOURCE = "source.json"  # in a model folder: the Hugging Face folder of the paper's model it stands for


def _source(model_folder: str) -> str | None:
    from pathlib import Path

    path = Path(model_folder) / SOURCE
    return read_json(path)["checkpoint"] if path.is_file() else None


def _model(model_folder: str, device: str, layout: dict):
    """The run's model on the config's ``device`` (``auto``: a GPU when torch sees one): the one saved in
    ``model_folder``, or the paper's model (SDAR, LLaDA 2.0) its ``source.json`` names, at the layout's block
    size."""
    from ..common.device import resolve_device
    from .hub import architecture
    from .model import load

    source = _source(model_folder)
    if source is None:
        return load(model_folder).to(resolve_device(device))
    reader = architecture(source)
    print(f"{source}: {reader.__name__.rsplit('.', 1)[1]}, block size {layout['block_size']}", flush=True)
    return reader.load(source, block_size=layout["block_size"]).to(resolve_device(device))


def _reader(layout: dict, model_folder: str):
    """What turns examples into the decoder's prompts and grades its output: the task codec, or the chat template
    of the paper's model's tokenizer (:class:`.benchmarks.ChatPrompts`)."""
    source = _source(model_folder)
    if source is None:
        return _codec(layout)
    from .benchmarks import ChatPrompts

    return ChatPrompts(source, layout["block_size"])


def _examples(examples_file: str, part: str) -> list:
    from .benchmarks import Problem
    from .tasks import Example

    return [
        Problem(r["task"], r["prompt"], r["answer"])
        if isinstance(r["prompt"], str)
        else Example(r["task"], tuple(r["prompt"]), tuple(r["answer"]))
        for r in read_json(examples_file)[part]
    ]


def _mixed_prompts(reader, examples_file: str):
    """The test prompts ``(ids, valid)`` with the tasks in turn, so that a batch of any size mixes them."""
    test = _examples(examples_file, "test")
    by_task = [[e for e in test if e.task == t] for t in sorted({e.task for e in test})]
    mixed = [group[i] for i in range(max(map(len, by_task))) for group in by_task if i < len(group)]
    return reader.prompts(mixed)


def examples(
    examples_file: str,
    *,
    tasks: list[str],
    lengths: dict,
    counts: dict,
    layout: dict,
    seed: int,
    benchmarks: dict | None = None,
    benchmark_sets: list[str] = (),
) -> None:
    """``counts['train']`` training and ``counts['test']`` test examples per task (drawn from one seeded stream,
    test first), each checked to fit the layout; for the paper's evaluation sets (``benchmarks``: task -> file or
    folder, the rule's ``benchmark_sets``) ``counts['test']`` problems of each, drawn by ``seed``, and nothing to
    train on."""
    from . import benchmarks as sets
    from . import tasks as mixture

    if any(t in sets.TASKS for t in tasks):
        missing = [t for t in tasks if t not in (benchmarks or {})]
        if missing:
            raise ValueError(f"focus_dllm.benchmarks: no file for {', '.join(missing)} (tasks: {', '.join(tasks)})")
        test = [vars(p) for t in tasks for p in sets.read(t, benchmarks[t], counts["test"], seed)]
        print(f"{len(test)} test problems from {', '.join(f'{t} ({benchmarks[t]})' for t in tasks)}", flush=True)
        write_json(examples_file, {"test": test, "train": []})
        return
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
    device: str = "cpu",
) -> None:
    """Train the block-diffusion LM on the training examples (on ``device``: the config's ``device``), or take the
    user's model folder unchanged: a folder of this architecture is copied; the paper's model (SDAR or LLaDA 2.0, a
    Hugging Face folder of billions of weights) is checked and named in ``source.json``, and decoded where it
    lies."""
    import time

    import torch

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import model as bd
    from . import training as trainer
    from .hub import architecture

    seed_everything(seed)
    hub = architecture(checkpoint[0]) if checkpoint else None
    if hub is not None:
        from pathlib import Path

        name = hub.__name__.rsplit(".", 1)[1]
        config = hub.Config.from_folder(checkpoint[0], block_size=layout["block_size"])  # checked, not loaded
        Path(model_folder).mkdir(parents=True, exist_ok=True)
        write_json(Path(model_folder) / SOURCE, {"checkpoint": checkpoint[0], "model": name, "layers": config.layers})
        print(f"{checkpoint[0]}: the paper's model ({name}, {config.layers} layers), used as it is", flush=True)
        write_csv(loss_file, pd.DataFrame(columns=["step", "loss"]))
        return
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
        net = bd.BlockDiffusionLM(config).to(resolve_device(device))  # initialised on the CPU: the same everywhere
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
    bd.save(net.cpu(), model_folder)
    write_csv(loss_file, pd.DataFrame({"step": np.arange(1, len(losses) + 1), "loss": losses}))


def decode_quality(
    examples_file: str,
    model_folder: str,
    results_file: str,
    *,
    decoder: dict,
    layout: dict,
    batch_size: int,
    seed: int,
    device: str = "cpu",
) -> None:
    """Decode every test prompt of ``seed``'s run with ``decoder`` (``threshold``, ``alpha``: None for dense) in
    batches: per example whether the answer is right (empty where the set has no reference); per batch the steps
    and rows."""
    from .decoding import DecodeSettings, decode

    reader, net = _reader(layout, model_folder), _model(model_folder, device, layout)
    test = _examples(examples_file, "test")
    settings = DecodeSettings(threshold=decoder["threshold"], alpha=decoder["alpha"])
    rows = []
    for start in range(0, len(test), batch_size):
        chunk = test[start : start + batch_size]
        prompts, valid = reader.prompts(chunk)
        tokens, stats = decode(net, prompts, layout["answer_blocks"], settings, valid)
        for i, (example, ids) in enumerate(zip(chunk, tokens.tolist())):
            right = reader.correct(example, ids)
            rows.append(
                {
                    "decoder": decoder["name"],
                    "seed": seed,
                    "example": start + i,
                    "batch": start // batch_size,
                    "task": example.task,
                    "correct": right if right is None else int(right),
                    "batch_steps": stats.steps,
                    "batch_rows": stats.rows,
                    "batch_tokens": tokens.numel(),
                }
            )
        print(f"{decoder['name']}, seed {seed}: {start + len(chunk)}/{len(test)} test prompts", flush=True)
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
    device: str = "cpu",
) -> None:
    """Decode the test prompts densely, observing every masked token at every step; per task the correlation of
    Δ with decodability and the recall of each selector at each ``alpha``."""
    from . import analysis
    from .decoding import DecodeSettings, decode

    reader, net = _reader(layout, model_folder), _model(model_folder, device, layout)
    test = _examples(examples_file, "test")
    by_task: dict[str, list] = {}
    for task in sorted({e.task for e in test}):
        chunk = [e for e in test if e.task == task]
        steps = []
        for start in range(0, len(chunk), batch_size):
            part = chunk[start : start + batch_size]
            prompts, valid = reader.prompts(part)
            settings = DecodeSettings(threshold=threshold, observe=True)
            tokens, stats = decode(net, prompts, layout["answer_blocks"], settings, valid)
            lengths = [reader.answer_span(e, ids) for e, ids in zip(part, tokens.tolist())]
            steps += analysis.mark_answers(stats.observed, lengths, layout["block_size"])
        by_task[task] = steps
    correlation = [{"seed": seed, "task": t, **analysis.correlation(s)} for t, s in by_task.items()]
    recall = [
        {"seed": seed, "task": t, "alpha": a, "selector": sel, "recall": analysis.recall(s, sel, a, seed=seed)}
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
    device: str = "cpu",
) -> None:
    """Generated tokens per second of each decoder at each batch size on the test prompts, interleaved, median of
    ``repeats``, with the per-step latency and peak memory (a measured output: ``timing/``)."""
    from ..common.timing import write_machine
    from .decoding import DecodeSettings
    from .throughput import measure

    net = _model(model_folder, device, layout)
    prompts, valid = _mixed_prompts(_reader(layout, model_folder), examples_file)
    settings = {d["name"]: DecodeSettings(threshold=d["threshold"], alpha=d["alpha"]) for d in decoders}
    rows = measure(net, prompts, layout["answer_blocks"], settings, batch_sizes, repeats, valid)
    for row in rows:
        print(f"batch {row['batch']} {row['decoder']}: {row['tokens_per_s']:.0f} tokens/s", flush=True)
    write_csv(throughput_table, pd.DataFrame(rows))
    write_machine(machine)


def depth(
    examples_file: str,
    model_folder: str,
    depth_table: str,
    *,
    layers: list[int],
    batch_size: int,
    repeats: int,
    focus: dict,
    layout: dict,
    device: str = "cpu",
) -> None:
    """FOCUS (``focus``'s alpha) against dense decoding as depth grows: tokens/s (interleaved, median of
    ``repeats``), real and padding rows per generated token at ``batch_size``. ``forced eviction`` rows: a model of
    the trained one's width at each depth of ``layers``, random weights, one token decoded per step (threshold 1),
    so FOCUS's retain target is small and compaction has room; ``trained`` rows: the trained model as the verdict
    decodes it (``focus``'s threshold). A measured output (docs/ARCHITECTURE.md, "Measured outputs")."""
    import torch

    from .decoding import DecodeSettings
    from .throughput import measure

    trained = _model(model_folder, device, layout)
    prompts, valid = _mixed_prompts(_reader(layout, model_folder), examples_file)
    thresholds = {"forced eviction": 1.0, "trained": focus["threshold"]}
    models = [("trained", trained)]
    weights = trained.embed.weight
    for count in layers:
        torch.manual_seed(count)
        models.append(("forced eviction", trained.with_layers(count).to(weights.device, weights.dtype).eval()))
    rows = []
    for setting, model in models:
        threshold = thresholds[setting]
        decoders = {
            "dense": DecodeSettings(threshold=threshold),
            "focus": DecodeSettings(threshold=threshold, alpha=focus["alpha"]),
        }
        for row in measure(model, prompts, layout["answer_blocks"], decoders, [batch_size], repeats, valid):
            rows.append({"setting": setting, "layers": model.config.layers, **row})
            print(f"{setting}, {model.config.layers} layers, {row['decoder']}: {row['tokens_per_s']:.0f} tokens/s")
    write_csv(depth_table, pd.DataFrame(rows))


def tables(
    quality: list[str],
    correlation: list[str],
    recall: list[str],
    quality_table: str,
    summary_table: str,
    correlation_table: str,
    recall_table: str,
) -> None:
    """Every seed's and decoder's per-example results in one table; per decoder, seed and task: accuracy, rows per
    generated token and block steps per batch (the decoder's over every task of the seed); the seeds' correlation
    and recall tables in one each."""
    from ..common.io import read_csvs

    frame = read_csvs(quality).sort_values(["decoder", "seed", "example"])
    write_csv(quality_table, frame)
    batches = frame.drop_duplicates(["decoder", "seed", "batch"])
    per_run = batches.groupby(["decoder", "seed"])[["batch_steps", "batch_rows", "batch_tokens"]].sum()
    summary = frame.groupby(["decoder", "seed", "task"], sort=True)["correct"].mean().rename("accuracy").reset_index()
    run = pd.MultiIndex.from_frame(summary[["decoder", "seed"]])
    summary["rows_per_token"] = (per_run["batch_rows"] / per_run["batch_tokens"]).reindex(run).to_numpy()
    summary["steps_per_batch"] = batches.groupby(["decoder", "seed"])["batch_steps"].mean().reindex(run).to_numpy()
    write_csv(summary_table, summary)
    write_csv(correlation_table, read_csvs(correlation).sort_values(["seed", "task"]))
    write_csv(recall_table, read_csvs(recall).sort_values(["seed", "task", "alpha"], kind="stable"))


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
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from ..common.io import read_csv
    from . import verdict as v

    quality, correlation = read_csv(quality_table), read_csv(correlation_table)
    solved = v.solved_tasks(quality, dense)
    found = [
        v.few_decodable(correlation, solved),
        v.importance_predicts(correlation, read_csv(recall_table), alpha, solved),
        v.preserves_quality(quality, dense, focus),
        v.saves_compute(quality, dense, focus),
    ]
    write_claims(claims, found, substitution=substitution)
    by_seed = quality.groupby(["decoder", "seed"])["correct"].mean()
    write_json(
        metrics,
        {
            "accuracy": quality.groupby("decoder")["correct"].mean().to_dict(),
            "accuracy_by_seed": {d: {str(s): a for s, a in by_seed[d].items()} for d in by_seed.index.levels[0]},
            "decoded_fraction": correlation.groupby("task")["decoded_fraction"].mean().to_dict(),
            "dense_accuracy_by_task": solved.to_dict(),
        },
    )


def timing_verdict(
    throughput_table: str, machine: str, claims: str, *, dense: str, focus: str, substitution: str
) -> None:
    """The wall-clock claim, in ``timing/claims.json`` (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.claims import write_claims
    from ..common.io import read_csv
    from . import verdict as v

    write_claims(
        claims,
        [v.raises_throughput(read_csv(throughput_table), dense, focus, read_json(machine))],
        substitution=substitution,
    )


def figures(
    summary_table: str,
    recall_table: str,
    quality_table: str,
    correlation_table: str,
    *,
    dense: str,
    focus: str,
    **outputs: str,
) -> None:
    """Accuracy per task and decoder, against ``dense`` over all tasks; recall of each selector beside the
    importance claim's per-seed statistics."""
    from ..common.figures import figure_set, save_figure
    from ..common.io import read_csv
    from . import plots
    from . import verdict as v

    solved = v.solved_tasks(read_csv(quality_table), dense)
    auroc, rho = v.importance_statistics(read_csv(correlation_table), solved)
    with figure_set(outputs) as paths:
        save_figure(plots.quality(read_csv(summary_table), dense), *paths("quality"))
        save_figure(plots.recall(read_csv(recall_table), auroc, rho), *paths("recall"))


def timing_figures(
    throughput_table: str, depth_table: str, machine: str, *, dense: str, focus: str, **outputs: str
) -> None:
    """Throughput against batch size, and FOCUS against dense as depth grows, as measured (docs/ARCHITECTURE.md,
    "Measured outputs")."""
    from ..common.figures import figure_set, save_figure
    from ..common.io import read_csv
    from ..common.timing import describe
    from . import plots

    where = describe(read_json(machine))
    with figure_set(outputs) as paths:
        save_figure(plots.throughput(read_csv(throughput_table), dense, focus, where), *paths("throughput"))
        save_figure(plots.depth(read_csv(depth_table), where), *paths("depth"))
