"""Rule functions of the generalization_spectrum pipeline: paths and plain parameters in, files out.

DAG: world (seeds, their D0-D4 variants with hidden tests, the pretraining corpus) -> base (pretrained
here, or the user's checkpoint at paper scale) -> reference (the base model and ICL, scored once) and
learner_{sft,rft,rl} (each a curve of scores over checkpoints) -> tables (matched memorisation, spectrum,
far tail, pass@k) -> figures, verdict; timing (pretraining tokens/s, seconds per learner run) beside.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, write_csv, write_json

SCORE_COLUMNS = ["learner", "checkpoint", "seed", "variant", "samples", "correct"]


def world(world_file: str, problems_table: str, *, seeds: int, examples: int, hidden_tests: int, seed: int) -> None:
    """The seeds, their five variants each with its hidden tests, and the corpus that excludes them all."""
    from . import variants
    from .world import hidden_tests as draw_tests

    rng = np.random.default_rng(seed)
    seed_programs = variants.seeds(seeds, rng)
    suites = variants.suites(seed_programs, examples, rng)
    tests_rng = np.random.default_rng(seed + 1)
    records, rows = [], []
    for i, suite in enumerate(suites):
        for name, problem in suite.items():
            tests = draw_tests(problem.program, hidden_tests, tests_rng)
            records.append({"seed": i, "variant": name, **variants.to_record(problem), "tests": tests})
            rows.append(
                {
                    "seed": i,
                    "variant": name,
                    "category": problem.program.category,
                    "statement": problem.statement,
                    "answer": problem.answer,
                }
            )
    corpus = variants.pretraining([p.program for s in suites for p in s.values()], examples, rng)
    print(f"{len(suites)} seeds x 5 variants; pretraining corpus: {len(corpus)} problems", flush=True)
    write_json(world_file, {"problems": records, "corpus": [variants.to_record(p) for p in corpus]})
    write_csv(problems_table, pd.DataFrame(rows))


def _items(world_file: str, with_demonstration: bool = False) -> list:
    from .evaluate import Item
    from .variants import from_record

    records = read_json(world_file)["problems"]
    d0 = {r["seed"]: from_record(r) for r in records if r["variant"] == "D0"}
    return [
        Item(
            r["seed"],
            r["variant"],
            from_record(r),
            [(list(x), list(y)) for x, y in r["tests"]],
            d0[r["seed"]] if with_demonstration else None,
        )
        for r in records
    ]


def _model(folder: str, device: str, items: list | None = None, max_new_tokens: int = 0):
    """The model and tokenizer in ``folder``; with ``items``, ``max_new_tokens`` (the config's
    evaluation.max_new_tokens) must hold each of their answers in this tokenizer."""
    from ..common.device import resolve_device
    from ..common.lm.model import load_model
    from ..common.lm.tokenizer import load_tokenizer
    from .prompts import check_budget

    model, tok = load_model(folder, resolve_device(device)), load_tokenizer(folder)
    if items:
        check_budget(tok, [item.problem for item in items], max_new_tokens, "evaluation.max_new_tokens", folder)
    return model, tok


def base(
    world_file: str,
    checkpoint: list[str],
    model_folder: str,
    loss_table: str,
    timing: str,
    *,
    model: dict,
    pretraining: dict,
    seed: int,
    device: str,
) -> None:
    """Pretrain the base model on the corpus (``checkpoint`` empty), or take the user's (a local Hugging
    Face folder holding a causal LM and a tokenizer that writes and reads back the task language) as it is."""

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from ..common.lm.model import (
        ModelSettings,
        build_model,
        parameter_count,
        prepare_for_training,
        save_checkpoint,
        trained_weights,
    )
    from ..common.lm.sft import SFTSettings, sft_with_progress, window_means
    from ..common.lm.tokenizer import pad_id
    from . import learners, prompts
    from .variants import from_record

    seed_everything(seed)
    if checkpoint:
        net, tok = _model(checkpoint[0], device)
        prompts.check_reads(tok, checkpoint[0])
        print(f"{checkpoint[0]}: {parameter_count(net):,} parameters, used as the base model", flush=True)
        save_checkpoint(net, tok, model_folder)
        write_csv(loss_table, pd.DataFrame(columns=["step", "loss"]))
        write_csv(timing, pd.DataFrame(columns=["tokens", "seconds", "tokens_per_second"]))
        return
    tok = prompts.tokenizer()
    corpus = [from_record(r) for r in read_json(world_file)["corpus"]]
    examples = learners.pretraining_examples(
        tok, corpus, pretraining["demonstration_share"], pretraining["related_share"], np.random.default_rng(seed + 2)
    )
    settings = SFTSettings.from_config(pretraining["training"], key="pretraining.training")
    trained_as = ModelSettings.from_config(model)
    net = build_model(trained_as, tok, seed).to(resolve_device(device))
    print(f"pretraining {parameter_count(net):,} parameters on {len(examples)} examples", flush=True)
    net = prepare_for_training(net, trained_as)  # as `model` says: off below paper scale
    losses, seconds = sft_with_progress(net, examples, settings, seed=seed, pad_id=pad_id(tok))
    tokens = settings.steps * settings.batch_size * float(np.mean([len(p) + len(a) for p, a in examples]))
    save_checkpoint(trained_weights(net).cpu(), tok, model_folder)
    steps, means = window_means(losses, settings.log_every)
    write_csv(loss_table, pd.DataFrame({"step": steps, "loss": means}))
    write_csv(timing, pd.DataFrame([{"tokens": tokens, "seconds": seconds, "tokens_per_second": tokens / seconds}]))


def _scorer(tok, items, evaluation: dict, seed: int):
    from .evaluate import score

    return lambda net, checkpoint: score(
        net,
        tok,
        items,
        samples=evaluation["samples"],
        max_new_tokens=evaluation["max_new_tokens"],
        temperature=evaluation["temperature"],
        seed=seed + 1000 * checkpoint,
    )


def reference(world_file: str, model_folder: str, scores: str, *, evaluation: dict, seed: int, device: str) -> None:
    """The base model's scores, and ICL's: the base model asked each variant with its seed's D0 problem
    solved in context (no update: a single point each)."""
    from ..common.determinism import seed_everything

    seed_everything(seed)
    net, tok = _model(model_folder, device, _items(world_file), evaluation["max_new_tokens"])
    rows = []
    for learner, items in (("base", _items(world_file)), ("icl", _items(world_file, with_demonstration=True))):
        found = _scorer(tok, items, evaluation, seed)(net, 0)
        rows += [{"learner": learner, "checkpoint": 0, **row} for row in found]
        print(f"{learner}: pass@1 {np.mean([r['correct'] / r['samples'] for r in found]):.3f}", flush=True)
    write_csv(scores, pd.DataFrame(rows, columns=SCORE_COLUMNS))


def learner(
    world_file: str,
    model_folder: str,
    scores: str,
    timing: str,
    *,
    learner: str,
    model: dict,
    settings: dict,
    evaluation: dict,
    seed: int,
    device: str,
) -> None:
    """One learner's run from the base model on every seed's D0 problem, scored on every variant at each
    checkpoint; its updates' seconds go to ``timing``. The model trains as ``model`` says (bf16 autocast,
    gradient checkpointing: off below paper scale)."""
    from ..common.determinism import seed_everything
    from ..common.lm.model import ModelSettings, prepare_for_training
    from .training import RunSettings, run

    seed_everything(seed)
    items = _items(world_file)
    net, tok = _model(model_folder, device, items, evaluation["max_new_tokens"])
    net = prepare_for_training(net, ModelSettings.from_config(model))
    d0 = [item for item in items if item.variant == "D0"]
    # the learners sample with the evaluation's budget, checked above against this tokenizer's answers
    budget = {"max_new_tokens": evaluation["max_new_tokens"]}
    run_settings = RunSettings(**{**settings, "checkpoints": tuple(settings["checkpoints"]), **budget})
    rows, progress = run(
        learner,
        net,
        tok,
        d0,
        run_settings,
        seed=seed,
        score=_scorer(tok, items, evaluation, seed),
        log=lambda line: print(line, flush=True),
    )
    write_csv(scores, pd.DataFrame(rows, columns=SCORE_COLUMNS))
    write_csv(timing, pd.DataFrame(progress, columns=["learner", "update", "value", "seconds"]))


def tables(
    scores: list[str],
    curves_table: str,
    spectrum_table: str,
    far_tail_table: str,
    passk_table: str,
    matched_table: str,
    *,
    k: list[int],
) -> None:
    """Curves (pass@1 per variant at each checkpoint), the spectrum at matched D0 (pass rates, gains over
    the base model, e_k), the far-transfer tail, pass@k at each learner's matched checkpoint, and every seed
    problem's pass@1 at the matched level (the verdict's intervals resample them)."""
    from . import spectrum
    from .matched import common_level

    frame = read_csvs(scores)
    curve = spectrum.curves(frame)
    level = common_level(curve)
    problems = spectrum.matched_problems(frame, curve, level)
    tail = spectrum.far_tail(problems)
    write_csv(curves_table, curve)
    write_csv(spectrum_table, spectrum.table(problems, level))
    write_csv(far_tail_table, tail.rename("tail").rename_axis("learner").reset_index())
    write_csv(passk_table, spectrum.pass_at_k(frame, curve, level, k))
    write_csv(matched_table, problems)


def timing(pretraining: str, runs: list[str], cost_table: str, machine: str) -> None:
    """Pretraining tokens/s and each learner run's seconds (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine

    pre = read_csv(pretraining)
    rows = [
        {
            "what": "pretraining",
            "seconds": float(pre["seconds"].sum()),
            "tokens_per_second": float(pre["tokens_per_second"].mean()) if len(pre) else float("nan"),
        }
    ]
    for path in runs:
        run = read_csv(path)
        rows.append(
            {
                "what": f"learner {run['learner'].iloc[0]}",
                "seconds": float(run["seconds"].max()),
                "tokens_per_second": float("nan"),
            }
        )
    write_csv(cost_table, pd.DataFrame(rows))
    write_machine(machine)


def figures(curves_table: str, spectrum_table: str, matched_table: str, **outputs: str) -> None:
    """The spectrum (gain over the base model per distance, per learner, at matched D0, with its interval over
    the seed problems) and the curves (each variant's pass@1 against D0's over training, the matched level
    marked)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    curve, table = read_csv(curves_table), read_csv(spectrum_table)
    with figure_set(outputs) as paths:
        save_figure(plots.spectrum(table, read_csv(matched_table)), *paths("spectrum"))
        save_figure(plots.curves(curve, table), *paths("curves"))


def verdict(
    spectrum_table: str,
    far_tail_table: str,
    matched_table: str,
    claims: str,
    metrics: str,
    *,
    criteria: dict,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import verdict as v

    table, tail = read_csv(spectrum_table), read_csv(far_tail_table)
    gain = table.set_index("learner").filter(like="gain_").rename(columns=lambda c: c.removeprefix("gain_"))
    efficiency = table.set_index("learner").filter(like="e_").rename(columns=lambda c: c.removeprefix("e_"))
    tails = tail.set_index("learner")["tail"]
    problems = v.Problems(read_csv(matched_table))
    write_claims(
        claims,
        [
            v.rl_transfers_most_efficiently(problems),
            v.icl_strong_but_correspondence_dependent(problems, criteria),
            v.rft_keeps_a_stronger_far_tail(problems),
        ],
        substitution=substitution,
    )
    write_json(
        metrics,
        {
            "matched_level": float(table["level"].iloc[0]),
            "pass_at_1": table.set_index("learner").filter(like="pass_").to_dict(orient="index"),
            "gain": gain.to_dict(orient="index"),
            "efficiency": efficiency.to_dict(orient="index"),
            "far_tail": tails.to_dict(),
        },
    )
