"""The rule functions end to end on a tiny policy, the user's model by path (paper scale), bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.claims import read_claims
from icml26.common.sources import SourceError
from icml26.text_feedback_rl import rules
from tests.conftest import figure_files

MODEL = {"hidden_size": 16, "layers": 1, "heads": 2, "intermediate_size": 32, "context": 64, "checkpoint": None}
SFT = {
    "steps": 4,
    "batch_size": 8,
    "lr": 0.003,
    "warmup_steps": 1,
    "weight_decay": 0.0,
    "clip_norm": 1.0,
    "log_every": 2,
}
RL = {
    "steps": 2,
    "prompts": 2,
    "group": 2,
    "lr": 0.001,
    "clip": 0.2,
    "kl_coef": 0.02,
    "temperature": 1.0,
    "sd_weight": 1.0,
    "fm_weight": 1.0,
    "eval_every": 1,
}
EVALUATION = {"samples": 2, "temperature": 1.0, "curve_problems": 4}
TASKS = {"permutation": {"n": 5, "constraints": [3, 5]}, "code": {"length": 2}}
METHODS = ["grpo_single", "grpo_multi", "sd", "fm_w1", "sd_turn2_baseline"]


def _problems(out: Path, task: str) -> str:
    path = str(out / f"{task}.json")
    rules.problems(path, task=task, task_settings=TASKS[task], train=12, test=6, seed=0)
    return path


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    out = tmp_path_factory.mktemp("tfrl")
    scores, curves, timings, losses = [], [], [], []
    for task in TASKS:
        problems = _problems(out, task)
        folder, loss = str(out / f"{task}_warm"), str(out / f"{task}_loss.csv")
        rules.warmstart(
            problems, [], folder, loss, task=task, task_settings=TASKS[task], model=MODEL, sft=SFT, seed=0, device="cpu"
        )
        losses.append(loss)
        for method in METHODS:
            names = [str(out / f"{task}_{method}.{kind}.csv") for kind in ("scores", "curve", "timing")]
            rules.run(
                problems,
                folder,
                *names,
                task=task,
                task_settings=TASKS[task],
                method=method,
                seed=0,
                model=MODEL,
                rl=RL,
                evaluation=EVALUATION,
                device="cpu",
            )
            scores.append(names[0]), curves.append(names[1]), timings.append(names[2])
    f = {
        name: str(out / name)
        for name in (
            "accuracy.csv",
            "comparisons.csv",
            "curves.csv",
            "warmstart.csv",
            "steps.csv",
            "machine.json",
            "claims.json",
            "metrics.json",
        )
    }
    rules.tables(
        scores,
        curves,
        losses,
        f["accuracy.csv"],
        f["comparisons.csv"],
        f["curves.csv"],
        f["warmstart.csv"],
        criteria={"confidence": 0.95, "resamples": 200},
    )
    rules.timing(timings, f["steps.csv"], f["machine.json"])
    rules.figures(f["accuracy.csv"], f["comparisons.csv"], f["curves.csv"], **figure_files(out, "accuracy", "curves"))
    rules.verdict(
        f["comparisons.csv"],
        f["accuracy.csv"],
        f["curves.csv"],
        f["claims.json"],
        f["metrics.json"],
        substitution="a test stand-in",
    )
    return out, f


def test_the_tables_hold_every_task_method_and_comparison(pipeline):
    out, f = pipeline
    accuracy = pd.read_csv(f["accuracy.csv"])
    assert len(accuracy) == len(TASKS) * len(METHODS)
    assert accuracy[["greedy", "sampled"]].stack().between(0, 1).all()
    comparisons = pd.read_csv(f["comparisons.csv"])
    # 4 methods against each GRPO baseline (3 against the other one), SD against its one ablation; two metrics
    assert len(comparisons) == len(TASKS) * 2 * (4 + 4 + 1)
    assert (comparisons["low"] <= comparisons["difference"] + 1e-12).all()
    curves = pd.read_csv(f["curves.csv"])
    assert sorted(curves["step"].unique()) == [0, 1, 2]
    steps = pd.read_csv(f["steps.csv"])
    assert set(steps["method"]) == set(METHODS) and (steps["sampling_tokens_per_s"] > 0).all()
    assert (out / "accuracy.png").stat().st_size > 0 and (out / "curves.pdf").stat().st_size > 0


def test_the_verdict_judges_every_claim_of_the_spec(pipeline):
    _, f = pipeline
    claims = {c.id: c for c in read_claims(f["claims.json"])}
    assert set(claims) == {
        "self_distillation_beats_grpo",
        "feedback_modelling_beats_grpo_lambda_1",
        "sd_first_turn_baseline_matters",
    }
    assert all(c.state != "not evaluated" for c in claims.values())
    assert set(json.loads(Path(f["metrics.json"]).read_text())) == set(TASKS)


def test_the_user_s_model_loads_by_path_and_is_warm_started(pipeline, tmp_path):
    from icml26.common.lm.model import ModelSettings, build_model, save_checkpoint
    from icml26.text_feedback_rl import dialogue
    from icml26.text_feedback_rl.tasks import make_task

    task = make_task("code", TASKS["code"])
    tok = dialogue.tokenizer(task)
    user = tmp_path / "user_model"
    save_checkpoint(build_model(ModelSettings(**{**MODEL, "checkpoint": None}), tok, 5), tok, user)
    problems = _problems(tmp_path, "code")
    rules.warmstart(
        problems,
        [str(user)],
        str(tmp_path / "warm"),
        str(tmp_path / "loss.csv"),
        task="code",
        task_settings=TASKS["code"],
        model={**MODEL, "checkpoint": str(user)},
        sft=SFT,
        seed=0,
        device="cpu",
    )
    assert (tmp_path / "warm" / "model.safetensors").exists()
    assert len(pd.read_csv(tmp_path / "loss.csv")) == 2


def test_a_tokenizer_that_cannot_write_the_task_words_is_named(tmp_path):
    from icml26.common.lm.model import ModelSettings, build_model, save_checkpoint
    from icml26.text_feedback_rl import dialogue
    from icml26.text_feedback_rl.tasks import make_task

    tok = dialogue.tokenizer(make_task("code", TASKS["code"]))
    save_checkpoint(build_model(ModelSettings(**MODEL), tok, 0), tok, tmp_path / "code_only")
    problems = _problems(tmp_path, "permutation")

    def warm_start_from(folder: str) -> None:
        rules.warmstart(
            problems,
            [str(tmp_path / folder)],
            str(tmp_path / "w"),
            str(tmp_path / "l.csv"),
            task="permutation",
            task_settings=TASKS["permutation"],
            model=MODEL,
            sft=SFT,
            seed=0,
            device="cpu",
        )

    with pytest.raises(
        SourceError, match=r"code_only: its tokenizer does not read back \d+ words of the permutation task"
    ):
        warm_start_from("code_only")
    with pytest.raises(SourceError, match="no_such_folder: no such"):
        warm_start_from("no_such_folder")
    assert not (tmp_path / "w").exists() and not (tmp_path / "l.csv").exists()


def test_too_few_distinct_problems_names_the_key(tmp_path):
    with pytest.raises(ValueError, match=r"text_feedback_rl.problems: the code task gave only 55 distinct"):
        rules.problems(str(tmp_path / "p.json"), task="code", task_settings={"length": 1}, train=60, test=5, seed=0)
    assert not (tmp_path / "p.json").exists()


def test_an_fm_run_trains_at_the_weight_its_name_gives(pipeline, monkeypatch, tmp_path):
    from icml26.text_feedback_rl import training

    seen = {}

    def capture(method, model, reference, tok, task, train, settings, **_):
        seen.update(method=method, settings=settings)
        raise RuntimeError("stop after the settings")

    monkeypatch.setattr(training, "run", capture)
    out, _ = pipeline
    names = [str(tmp_path / kind) for kind in ("s.csv", "c.csv", "t.csv")]
    with pytest.raises(RuntimeError, match="stop after the settings"):
        rules.run(
            str(out / "code.json"),
            str(out / "code_warm"),
            *names,
            task="code",
            task_settings=TASKS["code"],
            method="fm_w0.25",
            seed=0,
            model=MODEL,
            rl=RL,
            evaluation=EVALUATION,
            device="cpu",
        )
    assert seen["method"] == "fm" and seen["settings"].fm_weight == 0.25 and RL["fm_weight"] == 1.0
