"""Rule functions of the crl_bpt pipeline: paths and plain parameters in, files out.

DAG: blackbox (render the images, train the dual encoder or load the user's CLIP; the target domain's training
and test images) -> calibration (test accuracy of every human template and of the templates naming the target
domain: how much a template can matter) and agent (SFT on the human templates, or the user's causal LM) ->
run_{method}_{seed} (one search under the call budget) -> tables -> figures, verdict; timing beside.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_npz, write_csv, write_json, write_npz


def _domain(target: dict):
    from .scenes import Domain

    return Domain(target["style"], target["era"], target["finish"])


def _human(count: int, seed: int) -> list[str]:
    from .grammar import human_set

    return human_set(count, seed)


def blackbox(
    checkpoint: list[str],
    encoder_folder: str,
    images_file: str,
    loss_file: str,
    *,
    encoder: dict,
    images: dict,
    target: dict,
    seed: int,
) -> None:
    """The frozen black box: a tiny CLIP trained here on every domain with grammar captions, or the user's CLIP
    folder (``checkpoint``; copied unchanged); and the target domain's training and test images."""
    import time

    from ..common.determinism import seed_everything
    from ..common.lm.model import save_checkpoint
    from . import blackbox as bb
    from . import grammar, scenes

    seed_everything(seed)
    domain = _domain(target)
    if checkpoint:
        model, tok = bb.load_encoder(checkpoint[0])
        losses = []
    else:
        domains = scenes.all_domains()
        pool, labels, which = scenes.image_set(images["pool"], domains, seed)
        tok = bb.tokenizer()
        settings = bb.EncoderSettings(**{k: encoder[k] for k in bb.ENCODER_SIZES})
        model = bb.build_encoder(settings, tok, scenes.SIZE, seed)
        print(f"dual encoder: {sum(p.numel() for p in model.parameters()):,} parameters on {len(pool)} images")

        def captions(index, rng):
            return [
                grammar.caption(
                    rng,
                    int(labels[i]),
                    domains[which[i]].style,
                    domains[which[i]].era,
                    domains[which[i]].finish,
                    encoder["truthful"],
                )
                for i in index
            ]

        start = time.perf_counter()
        losses = bb.train_encoder(
            model,
            tok,
            pool,
            captions,
            steps=encoder["steps"],
            batch_size=encoder["batch_size"],
            lr=encoder["lr"],
            seed=seed,
            log=lambda line: print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True),
        )
    save_checkpoint(model, tok, encoder_folder)
    if images.get("coop"):
        write_npz(images_file, **_coop_images(images, model.config.vision_config.image_size, seed))
    else:
        train, train_labels, _ = scenes.image_set(images["train"], [domain], seed + 1)
        test, test_labels, _ = scenes.image_set(images["test"], [domain], seed + 2)
        write_npz(images_file, train=train, train_labels=train_labels, test=test, test_labels=test_labels)
    write_csv(loss_file, pd.DataFrame({"step": np.arange(1, len(losses) + 1), "loss": losses}))


def _coop_images(images: dict, size: int, seed: int) -> dict:
    """The CoOp data set's ``shots`` training images per class and ``test`` of its test images at the black box's
    input size, with the class names (paper scale)."""
    from . import coop

    classes, split = coop.read_split(images["coop"])
    train, train_labels = coop.load_images(coop.few_shot(split["train"], images["shots"], seed + 1), size)
    test, test_labels = coop.load_images(coop.subset(split["test"], images["test"], seed + 2), size)
    print(f"{images['coop']}: {len(classes)} classes, {len(train)} training and {len(test)} test images", flush=True)
    return {"train": train, "train_labels": train_labels, "test": test, "test_labels": test_labels,
            "classes": np.array(classes)}  # fmt: skip


def _classifier(encoder_folder: str, images_file: str, part: str, device: str = "cpu"):
    """The black box over ``part`` of the images, among the data set's class names (the scenes' when the file
    names none)."""
    from ..common.device import resolve_device
    from .blackbox import Classifier, load_encoder
    from .scenes import CLASSES

    model, tok = load_encoder(encoder_folder, resolve_device(device))
    arrays = read_npz(images_file)
    classes = [str(c) for c in arrays["classes"]] if "classes" in arrays else CLASSES
    return Classifier(model, tok, arrays[part], arrays[f"{part}_labels"], classes)


def calibration(
    encoder_folder: str, images_file: str, calibration_table: str, *, human: dict, target: dict, device: str
) -> None:
    """Test accuracy of every human template and of the templates that name the target domain in part or in full:
    how much a template can matter to this black box (not counted against any budget)."""
    from . import grammar

    test = _classifier(encoder_folder, images_file, "test", device)
    named = {"baseline": grammar.BASELINE}
    if test.classes == list(grammar.CLASSES):  # the scenes: the templates naming the target domain
        domain = _domain(target)
        named |= {
            "names the era": grammar.fill_domain(domain.style, (domain.era,)),
            "names the finish": grammar.fill_domain(domain.style, (domain.finish,)),
            "names the domain in full": grammar.fill_domain(domain.style, (domain.finish, domain.era)),
        }
    templates = _human(human["count"], human["seed"])
    frame = pd.DataFrame([*named.items(), *(("human", t) for t in templates)], columns=["kind", "template"])
    frame = frame[["template", "kind"]].assign(human=frame["template"].isin(templates))
    frame["test_accuracy"] = [float(test.correct(t).mean()) for t in frame["template"]]
    write_csv(
        calibration_table, frame.sort_values(["kind", "test_accuracy", "template"], ascending=[True, False, True])
    )


def agent(
    checkpoint: list[str],
    model_folder: str,
    loss_file: str,
    *,
    model: dict,
    sft: dict,
    human: dict,
    search: dict,
    seed: int,
    device: str,
) -> None:
    """The agent's "LLM prior": SFT on the human templates (random references in its context) of a causal LM
    built from ``model``'s sizes, or of the user's causal LM when ``checkpoint`` names its folder (its tokenizer
    must write and read back the template language, and ``search.max_new_tokens`` hold a template in it)."""

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
    from . import agent as prior

    seed_everything(seed)
    trained_as = ModelSettings.from_config(model)  # a bad key is one line before any model is loaded
    templates = _human(human["count"], human["seed"])
    if checkpoint:
        tok = load_tokenizer(checkpoint[0])
        prior.check_reads(tok, checkpoint[0])
        prior.check_budget(tok, templates, search["max_new_tokens"], checkpoint[0])
        net = load_model(checkpoint[0], resolve_device(device))
    else:
        tok = prior.tokenizer()
        net = build_model(trained_as, tok, seed).to(resolve_device(device))
    settings = SFTSettings.from_config(sft, key="sft")
    examples = prior.sft_examples(
        tok, templates, settings.steps * settings.batch_size, search["references"], np.random.default_rng(seed)
    )
    print(f"agent: SFT of {parameter_count(net):,} parameters on {len(templates)} human templates", flush=True)
    net = prepare_for_training(net, trained_as)
    trainable = sum(p.numel() for p in net.parameters() if p.requires_grad)
    print(f"agent: training {trainable:,} parameters ({trained_as.precision})", flush=True)
    losses, _ = sft_with_progress(net, examples, settings, seed=seed, pad_id=pad_id(tok), label="agent")
    save_checkpoint(trained_weights(net).cpu(), tok, model_folder)
    steps, means = window_means(losses, settings.log_every)
    write_csv(loss_file, pd.DataFrame({"step": steps, "loss": means}))


def run(
    encoder_folder: str,
    images_file: str,
    model_folder: str,
    calls: str,
    steps: str,
    curve: str,
    scores: str,
    timing: str,
    *,
    method: str,
    seed: int,
    search: dict,
    human: dict,
    model: dict,
    device: str,
) -> None:
    """One search with ``method`` under the call budget: every call, every step, the best template's test accuracy
    against calls spent, the final best template's result on each test image, and seconds per call and update. The
    agent trains as ``model`` says (LoRA, bf16 autocast, gradient checkpointing: off at quick)."""
    import time

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from . import search as searching
    from .blackbox import BlackBox, CallBudget

    seed_everything(seed)
    settings = searching.SearchSettings(**search)
    box = BlackBox(_classifier(encoder_folder, images_file, "train", device), CallBudget(settings.budget))
    if box.images < settings.batch_images:  # a CoOp set's few shots: its classes x images.shots
        raise ValueError(f"search.batch_images: {settings.batch_images} exceeds the {box.images} training images")
    test = _classifier(encoder_folder, images_file, "test", device)
    net = tok = None
    if searching.METHODS[method].kind != "human":
        from ..common.lm.model import ModelSettings, load_model, prepare_for_training
        from ..common.lm.tokenizer import load_tokenizer

        tok, net = load_tokenizer(model_folder), load_model(model_folder, resolve_device(device))
        net = prepare_for_training(net, ModelSettings.from_config(model))
    start = time.perf_counter()
    trace = searching.run(
        method,
        box,
        _human(human["count"], human["seed"]),
        settings,
        seed=seed,
        test_accuracy=lambda t: float(test.correct(t).mean()),
        agent=net,
        tok=tok,
        log=lambda line: print(line, flush=True),
    )
    seconds = time.perf_counter() - start
    label = {"method": method, "seed": seed}
    write_csv(calls, pd.DataFrame([{**label, **c} for c in trace.calls]))
    step_rows = pd.DataFrame([{**label, **s} for s in trace.steps])
    seconds_columns = [c for c in step_rows if c.endswith("_s")]  # wall-clock: to the timing file only
    write_csv(steps, step_rows.drop(columns=seconds_columns))
    write_csv(curve, pd.DataFrame([{**label, **p} for p in trace.curve]))
    correct = test.correct(trace.best)
    write_csv(
        scores,
        pd.DataFrame(
            {**label, "template": trace.best, "image": np.arange(len(correct)), "correct": correct.astype(int)}
        ),
    )
    updates = step_rows["update_s"].dropna().tolist() if "update_s" in step_rows else []
    write_csv(
        timing,
        pd.DataFrame(
            [
                {
                    **label,
                    "calls": box.budget.used,
                    "seconds": seconds,
                    "call_s": box.seconds / max(1, box.budget.used),
                    "update_s": float(np.mean(updates)) if updates else float("nan"),
                    "updates": len(updates),
                    "calls_per_s": box.budget.used / seconds,
                }
            ]
        ),
    )
    print(
        f"{method} seed {seed}: best {trace.best!r}, test accuracy {correct.mean():.3f}, "
        f"{box.budget.used} calls in {seconds:.1f} s",
        flush=True,
    )


COMPARISONS = (  # (method, baseline): the claims' pairs, the ablation ladder and the two normalisations
    *(("crl_bpt_e2", b) for b in ("human_best", "random_search", "reinforce")),
    *((m, "cv_imitation_innovation") for m in ("crl_bpt_e1", "crl_bpt_e2", "crl_bpt_e4")),
    ("reinforce_cv", "reinforce"),
    ("cv_imitation", "reinforce_cv"),
    ("cv_imitation_innovation", "cv_imitation"),
    ("crl_bpt_e2", "crl_bpt_e2_per_step"),
)


def _comparisons(scores: pd.DataFrame, criteria: dict) -> pd.DataFrame:
    from ..common.bootstrap import difference

    matrix = {
        m: g.pivot(index="seed", columns="image", values="correct").to_numpy() for m, g in scores.groupby("method")
    }
    rows = []
    for method, baseline in COMPARISONS:
        if method in matrix and baseline in matrix:
            found = difference(
                matrix[method],
                matrix[baseline],
                confidence=criteria["confidence"],
            )
            rows.append(
                {
                    "method": method,
                    "baseline": baseline,
                    "difference": found.mean,
                    "low": found.low,
                    "high": found.high,
                    "interval": found.method,
                }
            )
    return pd.DataFrame(rows, columns=["method", "baseline", "difference", "low", "high", "interval"])


def _variance(calls: pd.DataFrame, steps: pd.DataFrame, warmup: int) -> pd.DataFrame:
    """Per run with the control variate: the variance of raw and calibrated rewards over the same calls (steps
    from ``warmup`` on), the mean alpha, and the correlation of each call's raw reward with its step's baseline
    reward (the control variate subtracts a multiple of the latter: it can lower the variance only as far as the
    two move together, a fraction rho^2 at the best alpha)."""
    rows = []
    sampled = calls[(calls["role"] == "sample") & (calls["step"] >= warmup)]
    for (method, seed), group in sampled.dropna(subset=["calibrated"]).groupby(["method", "seed"], sort=True):
        run = steps[(steps["method"] == method) & (steps["seed"] == seed) & (steps["step"] >= warmup)]
        raw, calibrated = group["reward"].var(), group["calibrated"].var()
        paired = group.merge(run[["step", "baseline_reward"]], on="step", how="inner")
        spread = paired[["reward", "baseline_reward"]].std()
        rho = float(paired["reward"].corr(paired["baseline_reward"])) if (spread > 0).all() else float("nan")
        rows.append(
            {
                "method": method,
                "seed": seed,
                "calls": len(group),
                "var_reward": raw,
                "var_calibrated": calibrated,
                "ratio": calibrated / raw if raw > 0 else float("nan"),
                "alpha_mean": float(run["alpha"].mean()),
                "reward_baseline_correlation": rho,
            }
        )
    columns = ["method", "seed", "calls", "var_reward", "var_calibrated", "ratio", "alpha_mean"]
    return pd.DataFrame(rows, columns=[*columns, "reward_baseline_correlation"])


def _readability(calls: pd.DataFrame, best: pd.DataFrame) -> pd.DataFrame:
    from .grammar import readable

    generated = calls[calls["role"] == "sample"]  # the agent's templates
    rows = []
    for (method, seed), group in generated.groupby(["method", "seed"], sort=True):
        template = best.loc[(method, seed), "template"]
        rows.append(
            {
                "method": method,
                "seed": seed,
                "generated": len(group),
                "valid": int(group["valid"].sum()),
                "readable": int(group["readable"].sum()),
                "distinct_readable": group.loc[group["readable"].astype(bool), "template"].nunique(),
                "best_template": template,
                "best_readable": readable(template),
            }
        )
    return pd.DataFrame(rows)


def tables(
    calls: list[str],
    steps: list[str],
    curves: list[str],
    scores: list[str],
    accuracy_table: str,
    comparisons_table: str,
    curves_table: str,
    variance_table: str,
    readability_table: str,
    *,
    criteria: dict,
) -> None:
    """The best template's test accuracy per method and seed; the comparisons with bootstrap intervals; the
    accuracy-vs-calls curves; reward variance with and without the control variate; readability."""
    score = read_csvs(scores)
    best = score.groupby(["method", "seed"], sort=True).agg(
        template=("template", "first"), test_accuracy=("correct", "mean")
    )
    write_csv(accuracy_table, best.reset_index())
    write_csv(comparisons_table, _comparisons(score, criteria))
    write_csv(curves_table, read_csvs(curves).sort_values(["method", "seed", "calls"]))
    call_rows, step_rows = read_csvs(calls), read_csvs(steps)
    if "calibrated" not in call_rows:
        call_rows["calibrated"] = np.nan
    if "alpha" not in step_rows:
        step_rows["alpha"] = np.nan
    write_csv(variance_table, _variance(call_rows, step_rows, criteria["variance_warmup"]))
    write_csv(readability_table, _readability(call_rows, best))


def timing(runs: list[str], run_table: str, machine: str) -> None:
    """Seconds per black-box call and per agent update, calls per second, per method (medians over seeds;
    docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine

    frame = read_csvs(runs)
    table = frame.groupby("method", sort=True).agg(
        call_s=("call_s", "median"),
        update_s=("update_s", "median"),
        calls_per_s=("calls_per_s", "median"),
        run_s=("seconds", "median"),
        calls=("calls", "median"),
    )
    write_csv(run_table, table.reset_index())
    write_machine(machine)


def figures(
    accuracy_table: str,
    curves_table: str,
    calibration_table: str,
    calls: list[str],
    readability_table: str,
    variance_table: str,
    **outputs: str,
) -> None:
    """Best-template test accuracy against calls spent and per method (with the baseline template and the template
    naming the target domain in full), reward variance with and without the control variate, readability."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    calibration = read_csv(calibration_table)
    with figure_set(outputs) as paths:
        save_figure(plots.accuracy_vs_calls(read_csv(curves_table), calibration), *paths("accuracy_vs_calls"))
        save_figure(plots.accuracy(read_csv(accuracy_table), calibration), *paths("accuracy"))
        save_figure(plots.reward_variance(read_csvs(calls), read_csv(variance_table)), *paths("reward_variance"))
        save_figure(plots.readability(read_csv(readability_table)), *paths("readability"))


def verdict(
    comparisons_table: str,
    accuracy_table: str,
    variance_table: str,
    readability_table: str,
    calibration_table: str,
    claims: str,
    metrics: str,
    *,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import verdict as v

    comparisons, calibration = read_csv(comparisons_table), read_csv(calibration_table)
    headroom = v.headroom(calibration, read_csv(accuracy_table))
    write_claims(
        claims,
        [
            v.beats_baselines(comparisons, headroom),
            v.readable(read_csv(readability_table)),
            v.variance_reduced(read_csv(variance_table)),
            v.curriculum_beats_fixed(comparisons, headroom[:1]),
        ],
        substitution=substitution,
    )
    accuracy = read_csv(accuracy_table).groupby("method", sort=True)["test_accuracy"]
    write_json(
        metrics,
        {
            "test_accuracy": accuracy.mean().to_dict(),
            "test_accuracy_sd": accuracy.std().fillna(0.0).to_dict(),
            "normalisation": {
                "ema": float(accuracy.mean().get("crl_bpt_e2", float("nan"))),
                "per_step": float(accuracy.mean().get("crl_bpt_e2_per_step", float("nan"))),
            },
            "black_box": {kind: float(g["test_accuracy"].max()) for kind, g in calibration.groupby("kind", sort=True)},
        },
    )
