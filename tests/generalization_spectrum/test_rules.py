"""The rule functions end to end on a tiny model, and the user's base model by path (paper scale)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.sources import SourceError
from icml26.generalization_spectrum import rules
from icml26.generalization_spectrum.verdict import CRITERIA
from tests.conftest import figure_files

MODEL = {"hidden_size": 16, "layers": 1, "heads": 2, "intermediate_size": 32, "context": 192, "checkpoint": None}
PRETRAINING = {
    "training": {
        "steps": 6,
        "batch_size": 8,
        "lr": 0.003,
        "warmup_steps": 1,
        "weight_decay": 0.0,
        "clip_norm": 1.0,
        "log_every": 3,
    },
    "demonstration_share": 0.5,
    "related_share": 0.5,
}
EVALUATION = {"samples": 2, "temperature": 1.0, "max_new_tokens": 16, "k": [1, 2]}
LEARNERS = {
    "sft": {"checkpoints": [0, 1, 2], "lr": 0.003, "batch_size": 4},
    "rft": {
        "checkpoints": [0, 2],
        "lr": 0.003,
        "batch_size": 4,
        "steps_per_round": 1,
        "samples": 2,
        "temperature": 1.0,
    },
    "rl": {"checkpoints": [0, 1, 2], "lr": 0.003, "group": 2, "temperature": 1.0, "clip": 0.2},
}
COMMON = {"seed": 0, "device": "cpu"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("spectrum")
    f = {
        name: str(out / name)
        for name in (
            "world.json",
            "problems.csv",
            "base",
            "pretraining.csv",
            "pretraining_seconds.csv",
            "reference.csv",
            "curves.csv",
            "spectrum.csv",
            "far_tail.csv",
            "passk.csv",
            "matched.csv",
            "costs.csv",
            "machine.json",
            "claims.json",
            "metrics.json",
        )
    }
    rules.world(f["world.json"], f["problems.csv"], seeds=3, examples=2, hidden_tests=3, seed=0)
    rules.base(
        f["world.json"],
        [],
        f["base"],
        f["pretraining.csv"],
        f["pretraining_seconds.csv"],
        model=MODEL,
        pretraining=PRETRAINING,
        **COMMON,
    )
    rules.reference(f["world.json"], f["base"], f["reference.csv"], evaluation=EVALUATION, **COMMON)
    for name, settings in LEARNERS.items():
        rules.learner(
            f["world.json"],
            f["base"],
            str(out / f"{name}.csv"),
            str(out / f"{name}_seconds.csv"),
            learner=name,
            model=MODEL,
            settings=settings,
            evaluation=EVALUATION,
            **COMMON,
        )
    scores = [f["reference.csv"], *(str(out / f"{name}.csv") for name in LEARNERS)]
    rules.tables(
        scores, f["curves.csv"], f["spectrum.csv"], f["far_tail.csv"], f["passk.csv"], f["matched.csv"], k=[1, 2]
    )
    rules.timing(
        f["pretraining_seconds.csv"],
        [str(out / f"{name}_seconds.csv") for name in LEARNERS],
        f["costs.csv"],
        f["machine.json"],
    )
    figures = figure_files(out / "figures", "spectrum", "curves")
    rules.figures(f["curves.csv"], f["spectrum.csv"], f["matched.csv"], **figures)
    rules.verdict(
        f["spectrum.csv"],
        f["far_tail.csv"],
        f["matched.csv"],
        f["claims.json"],
        f["metrics.json"],
        criteria=CRITERIA,
        substitution="a test stand-in",
    )
    return out, f, figures


def test_the_chain_writes_every_table_figure_and_all_three_claims(run):
    out, f, figures = run
    claims = json.loads(Path(f["claims.json"]).read_text())
    assert [c["id"] for c in claims] == [
        "rl_converts_memorisation_into_near_transfer",
        "icl_transfer_strong_but_correspondence_dependent",
        "rft_far_tail_stronger_than_sft",
    ]
    problems = pd.read_csv(f["problems.csv"])
    assert len(problems) == 15 and set(problems["variant"]) == {"D0", "D1", "D2", "D3", "D4"}
    curves = pd.read_csv(f["curves.csv"])
    assert curves.groupby("learner").size().to_dict() == {"base": 1, "icl": 1, "sft": 3, "rft": 2, "rl": 3}
    spectrum = pd.read_csv(f["spectrum.csv"]).set_index("learner")
    assert set(spectrum.index) <= {"base", "icl", "sft", "rft", "rl"} and {"base", "icl"} <= set(spectrum.index)
    assert (
        spectrum.drop(index="base")["gain_D0"]
        == spectrum.drop(index="base")["pass_D0"] - spectrum.loc["base", "pass_D0"]
    ).all()
    passk = pd.read_csv(f["passk.csv"])
    assert (
        set(passk["k"]) == {1, 2}
        and (passk.groupby(["learner", "variant"])["pass_at_k"].apply(lambda s: s.is_monotonic_increasing)).all()
    )  # pass@k never falls as k grows
    costs = pd.read_csv(f["costs.csv"]).set_index("what")
    assert list(costs.index) == ["pretraining", "learner sft", "learner rft", "learner rl"]
    assert (costs["seconds"] > 0).all() and costs.loc["pretraining", "tokens_per_second"] > 0
    assert len(pd.read_csv(f["pretraining.csv"])) == 2  # one row per logging window
    assert all(Path(path).read_bytes()[:4] in (b"\x89PNG", b"%PDF") for path in figures.values())


def test_a_rerun_gives_the_same_scores(run, tmp_path):
    _, f, _ = run
    again = str(tmp_path / "sft.csv")
    rules.learner(
        f["world.json"],
        f["base"],
        again,
        str(tmp_path / "s.csv"),
        learner="sft",
        model=MODEL,
        settings=LEARNERS["sft"],
        evaluation=EVALUATION,
        **COMMON,
    )
    assert Path(again).read_bytes() == (Path(f["world.json"]).parent / "sft.csv").read_bytes()


def test_the_user_s_base_model_is_used_as_it_is_and_a_wrong_one_is_named(run, tmp_path):
    from icml26.common.lm.model import ModelSettings, build_model, save_checkpoint
    from icml26.common.lm.tokenizer import task_tokenizer

    _, f, _ = run
    copy = tmp_path / "copy"
    rules.base(
        f["world.json"],
        [f["base"]],
        str(copy),
        str(tmp_path / "loss.csv"),
        str(tmp_path / "t.csv"),
        model=MODEL,
        pretraining=PRETRAINING,
        **COMMON,
    )
    assert (copy / "model.safetensors").read_bytes() == (Path(f["base"]) / "model.safetensors").read_bytes()
    assert pd.read_csv(tmp_path / "loss.csv").empty
    foreign = task_tokenizer(["a", "b"])
    save_checkpoint(
        build_model(ModelSettings(hidden_size=8, layers=1, heads=2, intermediate_size=8), foreign, 0),
        foreign,
        tmp_path / "foreign",
    )
    for folder, problem in (
        ("foreign", "its tokenizer does not read back"),
        ("absent", "no such causal language model folder"),
    ):
        with pytest.raises(SourceError, match=f"{folder}: {problem}"):
            rules.base(
                f["world.json"],
                [str(tmp_path / folder)],
                str(tmp_path / "x"),
                str(tmp_path / "x.csv"),
                str(tmp_path / "y.csv"),
                model=MODEL,
                pretraining=PRETRAINING,
                **COMMON,
            )
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.csv").exists()
