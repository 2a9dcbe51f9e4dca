"""Rule functions of the text_feedback_rl pipeline: paths and plain parameters in, files out.

DAG: problems_{task} (distinct training and test problems) -> warmstart_{task} (SFT of the policy built here,
or of the user's checkpoint at paper scale) -> run_{task}_{method}_{seed} (one RL run, ``method`` a run name of
:mod:`.runs`: learning curve, final single-turn scores per test problem, seconds per step) -> tables (accuracy,
comparisons with intervals, curves, warm start) -> figures, verdict; timing (seconds per RL step and phase,
sampling tokens/s) beside.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, write_csv, write_json

SCORE_COLUMNS = ["task", "method", "seed", "problem", "greedy", "sampled"]
REFERENCES = ("grpo_single", "grpo_multi")  # every method is compared with both
ABLATIONS = ("sd_turn2_baseline", "sd_importance")  # and SD with each of its ablations


def _task(task: str, task_settings: dict):
    from .tasks import make_task

    return make_task(task, task_settings)


def problems(problems_file: str, *, task: str, task_settings: dict, train: int, test: int, seed: int) -> None:
    """``train + test`` distinct problems of ``task``; the first ``test`` drawn are the test set."""
    from .tasks import Problem

    maker = _task(task, task_settings)
    rng = np.random.default_rng(seed)
    seen: dict[tuple, Problem] = {}
    for _ in range(50 * (train + test)):
        problem = maker.draw(rng)
        seen.setdefault(problem.words, problem)
        if len(seen) == train + test:
            break
    else:
        raise ValueError(
            f"text_feedback_rl.problems: the {task} task gave only {len(seen)} distinct problems, "
            f"fewer than train + test = {train + test}"
        )
    drawn = [{"words": list(p.words), "solution": list(p.solution)} for p in seen.values()]
    print(f"{task}: {train} training and {test} test problems", flush=True)
    write_json(problems_file, {"task": task, "test": drawn[:test], "train": drawn[test:]})


def _problems(problems_file: str, part: str) -> list:
    from .tasks import Problem

    return [Problem(tuple(r["words"]), tuple(r["solution"])) for r in read_json(problems_file)[part]]


def warmstart(
    problems_file: str,
    checkpoint: list[str],
    model_folder: str,
    loss_file: str,
    *,
    task: str,
    task_settings: dict,
    model: dict,
    sft: dict,
    seed: int,
    device: str,
) -> None:
    """SFT warm start on the training problems (:mod:`.warmstart`): of a policy built from ``model``'s sizes,
    or of the user's causal LM when ``checkpoint`` names its folder (its tokenizer must write and read back the
    task words, in any number of tokens)."""

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from ..common.lm.model import (
        ModelSettings,
        build_model,
        load_model,
        parameter_count,
        prepare_for_training,
        save_checkpoint,
        trained_weights,
    )
    from ..common.lm.sft import SFTSettings, sft_with_progress, window_means
    from ..common.lm.tokenizer import load_tokenizer, pad_id
    from . import dialogue
    from . import warmstart as warm

    seed_everything(seed)
    trained_as = ModelSettings.from_config(model)  # a bad key is one line before any model is loaded
    maker = _task(task, task_settings)
    if checkpoint:
        tok = load_tokenizer(checkpoint[0])
        dialogue.check_reads(tok, maker, checkpoint[0])
        net = load_model(checkpoint[0], resolve_device(device))
    else:
        tok = dialogue.tokenizer(maker)
        net = build_model(trained_as, tok, seed).to(resolve_device(device))
    examples = warm.examples(tok, maker, _problems(problems_file, "train"), np.random.default_rng(seed + 1))
    settings = SFTSettings.from_config(sft, key="sft")
    print(f"{task}: warm start of {parameter_count(net):,} parameters on {len(examples)} examples", flush=True)
    net = prepare_for_training(net, trained_as)  # as `model` says: off below paper scale
    losses, _ = sft_with_progress(net, examples, settings, seed=seed, pad_id=pad_id(tok), label=task)
    save_checkpoint(trained_weights(net).cpu(), tok, model_folder)
    steps, means = window_means(losses, settings.log_every)
    write_csv(loss_file, pd.DataFrame({"task": task, "step": steps, "loss": means}))


def run(
    problems_file: str,
    model_folder: str,
    scores: str,
    curve: str,
    timing: str,
    *,
    task: str,
    task_settings: dict,
    method: str,
    seed: int,
    model: dict,
    rl: dict,
    evaluation: dict,
    device: str,
) -> None:
    """One RL run (``method``: a run name of :mod:`.runs`, FM with its weight) from the warm start: the learning
    curve (single-turn greedy and sampled pass@1, and the second turn's accuracy, on the first
    ``curve_problems`` test problems), the final single-turn scores on every test problem, and the seconds of
    each step's phases (``timing``)."""
    import copy

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from ..common.lm.model import ModelSettings, load_model, prepare_for_training
    from ..common.lm.tokenizer import load_tokenizer
    from . import dialogue, evaluate, runs, training

    method_name, overrides = runs.parse(method)
    seed_everything(seed)
    maker = _task(task, task_settings)
    tok = load_tokenizer(model_folder)
    net = load_model(model_folder, resolve_device(device))
    reference = copy.deepcopy(net).eval()  # the frozen KL reference, copied before training options wrap the policy
    for p in reference.parameters():
        p.requires_grad_(False)
    net = prepare_for_training(net, ModelSettings.from_config(model))
    train, test = _problems(problems_file, "train"), _problems(problems_file, "test")
    longest = dialogue.answer_budget(tok, maker)  # the answer's tokens and <eos>
    sampling = {"samples": evaluation["samples"], "temperature": evaluation["temperature"], "max_new_tokens": longest}
    shown = test[: evaluation["curve_problems"]]

    def point(model, step: int) -> dict:
        found = evaluate.single_turn(model, tok, maker, shown, **sampling, seed=seed + 7)
        second = evaluate.second_turn(model, tok, maker, shown, max_new_tokens=longest, seed=seed + 7)
        return {
            "greedy": float(found["greedy"].mean()),
            "sampled": float(found["sampled"].mean()),
            "second_turn": float(second.mean()),
        }

    settings = training.RLSettings(**{**rl, **overrides})
    points, progress = training.run(
        method_name,
        net,
        reference,
        tok,
        maker,
        train,
        settings,
        max_new_tokens=longest,
        seed=seed,
        evaluate=point,
        log=lambda line: print(f"{task} {line}", flush=True),
    )
    final = evaluate.single_turn(net, tok, maker, test, **sampling, seed=seed + 11)
    label = {"task": task, "method": method, "seed": seed}
    write_csv(scores, pd.DataFrame({**label, "problem": np.arange(len(test)), **final}, columns=SCORE_COLUMNS))
    write_csv(curve, pd.DataFrame([{**label, **p} for p in points]))
    write_csv(timing, pd.DataFrame([{**label, **p} for p in progress]))


def _comparisons(frame: pd.DataFrame, criteria: dict) -> pd.DataFrame:
    """Every run against both GRPO baselines and SD against its ablations, per task and metric. FM's runs
    (one per swept weight) are one family: each of its intervals is at ``1 - (1 - confidence) / weights``
    (Bonferroni), so that one FM claim holding by chance stays within the stated error rate."""
    from ..common.bootstrap import difference
    from .runs import is_fm

    fm_runs = {m for m in frame["method"].unique() if is_fm(m)}
    rows = []
    for (task, metric), group in frame.melt(
        id_vars=["task", "method", "seed", "problem"], value_vars=["sampled", "greedy"], var_name="metric"
    ).groupby(["task", "metric"], sort=True):
        matrix = {
            m: g.pivot(index="seed", columns="problem", values="value").to_numpy() for m, g in group.groupby("method")
        }
        pairs = [(m, b) for b in REFERENCES for m in matrix if m != b and b in matrix]
        pairs += [("sd", a) for a in ABLATIONS if "sd" in matrix and a in matrix]
        for method, baseline in pairs:
            confidence = criteria["confidence"]
            if method in fm_runs:
                confidence = 1 - (1 - confidence) / len(fm_runs)
            found = difference(
                matrix[method],
                matrix[baseline],
                confidence=confidence,
            )
            rows.append(
                {
                    "task": task,
                    "metric": metric,
                    "method": method,
                    "baseline": baseline,
                    "difference": found.mean,
                    "low": found.low,
                    "high": found.high,
                    "interval": found.method,
                    "confidence": confidence,
                    "seeds": min(len(matrix[method]), len(matrix[baseline])),
                }
            )
    columns = ["task", "metric", "method", "baseline", "difference", "low", "high", "interval", "confidence", "seeds"]
    return pd.DataFrame(rows, columns=columns)


def tables(
    scores: list[str],
    curves: list[str],
    losses: list[str],
    accuracy_table: str,
    comparisons_table: str,
    curves_table: str,
    warmstart_table: str,
    *,
    criteria: dict,
) -> None:
    """Final single-turn accuracy per task, run and seed; every run against single- and multi-turn GRPO (and
    SD against its ablations) with intervals (:func:`_comparisons`); the learning curves; the warm start's loss."""
    frame = read_csvs(scores)
    accuracy = frame.groupby(["task", "method", "seed"], sort=True)[["greedy", "sampled"]].mean().reset_index()
    write_csv(accuracy_table, accuracy)
    write_csv(comparisons_table, _comparisons(frame, criteria))
    write_csv(curves_table, read_csvs(curves).sort_values(["task", "method", "seed", "step"]))
    write_csv(warmstart_table, read_csvs(losses))


def timing(runs: list[str], step_table: str, machine: str) -> None:
    """Seconds per RL step (rollout, scoring, update) per task and method, and sampling tokens per second
    (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine

    frame = read_csvs(runs)
    frame["step_s"] = frame[["rollout_s", "scoring_s", "update_s"]].sum(axis=1)
    table = frame.groupby(["task", "method"], sort=True).agg(
        rollout_s=("rollout_s", "median"),
        scoring_s=("scoring_s", "median"),
        update_s=("update_s", "median"),
        step_s=("step_s", "median"),
        tokens=("tokens", "sum"),
        rollout_total_s=("rollout_s", "sum"),
    )
    table["sampling_tokens_per_s"] = table["tokens"] / table["rollout_total_s"]
    write_csv(step_table, table.drop(columns=["rollout_total_s"]).reset_index())
    write_machine(machine)


def figures(accuracy_table: str, comparisons_table: str, curves_table: str, **outputs: str) -> None:
    """Final single-turn accuracy per method and task, and the learning curves."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    accuracy, curves = read_csv(accuracy_table), read_csv(curves_table)
    with figure_set(outputs) as paths:
        save_figure(plots.accuracy(accuracy, read_csv(comparisons_table)), *paths("accuracy"))
        save_figure(plots.curves(curves), *paths("curves"))


def verdict(
    comparisons_table: str, accuracy_table: str, curves_table: str, claims: str, metrics: str, *, substitution: str
) -> None:
    from ..common.claims import write_claims
    from . import runs
    from . import verdict as v

    comparisons, curves = read_csv(comparisons_table), read_csv(curves_table)
    primary = comparisons[comparisons["metric"] == "sampled"]
    fm = sorted({m for m in primary["method"] if runs.is_fm(m)}, key=runs.fm_weight)
    against_grpo, feedback = v.premises(curves, baseline=True), v.premises(curves, baseline=False)
    write_claims(
        claims,
        [
            v.outperforms_baselines(primary, "sd", "self_distillation_beats_grpo", "RLTF-SD", against_grpo),
            *[v.feedback_modelling_beats_grpo(primary, run, against_grpo) for run in fm or [None]],
            v.first_turn_baseline_matters(primary, feedback),
        ],
        substitution=substitution,
    )
    accuracy = read_csv(accuracy_table).groupby(["task", "method"], sort=True)[["greedy", "sampled"]].mean()
    write_json(
        metrics,
        {
            task: {metric: accuracy.loc[task, metric].to_dict() for metric in ("sampled", "greedy")}
            for task in accuracy.index.get_level_values("task").unique()
        },
    )
