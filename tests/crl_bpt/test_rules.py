"""The rule functions end to end on a tiny black box and agent, the user's CLIP and causal LM by path (paper
scale), bad inputs; the config's cross-key checks."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.claims import read_claims
from icml26.common.config import paper_section
from icml26.common.sources import SourceError
from icml26.crl_bpt import rules
from icml26.crl_bpt.settings import problems
from tests.conftest import as_fetched, figure_files

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "crl_bpt.yaml"
SMOKE = paper_section(CONFIG, "smoke")
METHODS = ["human_best", "random_search", "reinforce", "reinforce_cv", "cv_imitation_innovation", "crl_bpt_e2"]
TABLES = ("accuracy", "comparisons", "curves", "variance", "readability")


def _blackbox(out: Path, checkpoint=()) -> tuple[str, str]:
    folder, images = str(out / "blackbox"), str(out / "images.npz")
    rules.blackbox(
        list(checkpoint),
        folder,
        images,
        str(out / "bb_loss.csv"),
        encoder=SMOKE["blackbox"],
        images=SMOKE["images"],
        target=SMOKE["target"],
        seed=0,
    )
    return folder, images


def _agent(out: Path, checkpoint=(), name="agent") -> str:
    folder = str(out / name)
    rules.agent(
        list(checkpoint),
        folder,
        str(out / f"{name}_loss.csv"),
        model=SMOKE["model"],
        sft=SMOKE["sft"],
        human=SMOKE["human"],
        search=SMOKE["search"],
        seed=0,
        device="cpu",
    )
    return folder


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    out = tmp_path_factory.mktemp("crl")
    encoder, images = _blackbox(out)
    agent = _agent(out)
    f = {n: str(out / f"{n}.csv") for n in (*TABLES, "calibration", "runs")}
    rules.calibration(encoder, images, f["calibration"], human=SMOKE["human"], target=SMOKE["target"], device="cpu")
    runs = {kind: [] for kind in ("calls", "steps", "curve", "scores", "timing")}
    for method in METHODS:
        for seed in (0, 1):
            names = {kind: str(out / f"{method}_{seed}.{kind}.csv") for kind in runs}
            rules.run(
                encoder,
                images,
                agent,
                **names,
                method=method,
                seed=seed,
                search=SMOKE["search"],
                human=SMOKE["human"],
                model=SMOKE["model"],
                device="cpu",
            )
            for kind, path in names.items():
                runs[kind].append(path)
    rules.tables(
        runs["calls"], runs["steps"], runs["curve"], runs["scores"], *(f[n] for n in TABLES), criteria=SMOKE["criteria"]
    )
    rules.timing(runs["timing"], f["runs"], str(out / "machine.json"))
    rules.figures(
        f["accuracy"],
        f["curves"],
        f["calibration"],
        runs["calls"],
        f["readability"],
        f["variance"],
        **figure_files(out, "accuracy_vs_calls", "accuracy", "reward_variance", "readability"),
    )
    claims, metrics = str(out / "claims.json"), str(out / "metrics.json")
    rules.verdict(
        f["comparisons"],
        f["accuracy"],
        f["variance"],
        f["readability"],
        f["calibration"],
        claims,
        metrics,
        substitution="a test stand-in",
    )
    return out, f, runs, claims, metrics


def test_the_tables_hold_every_method_seed_and_comparison(pipeline):
    out, f, runs, _, _ = pipeline
    accuracy = pd.read_csv(f["accuracy"])
    assert len(accuracy) == len(METHODS) * 2 and accuracy["test_accuracy"].between(0, 1).all()
    comparisons = pd.read_csv(f["comparisons"])
    assert {("crl_bpt_e2", b) for b in ("human_best", "random_search", "reinforce", "cv_imitation_innovation")} <= set(
        zip(comparisons["method"], comparisons["baseline"])
    )
    assert (comparisons["low"] <= comparisons["difference"]).all() and (
        comparisons["difference"] <= comparisons["high"]
    ).all()
    variance = pd.read_csv(f["variance"])
    assert set(variance["method"]) == {"reinforce_cv", "cv_imitation_innovation", "crl_bpt_e2"}  # the CV runs only
    readability = pd.read_csv(f["readability"])
    assert "human_best" not in set(readability["method"]) and (readability["readable"] <= readability["valid"]).all()
    for path in runs["calls"]:
        assert len(pd.read_csv(path)) <= SMOKE["search"]["budget"]  # never more calls than the budget
    calibration = pd.read_csv(f["calibration"])
    assert {"baseline", "names the domain in full", "human"} <= set(calibration["kind"])
    assert pd.read_csv(f["runs"])["call_s"].gt(0).all()


def test_the_verdict_judges_every_claim_of_the_spec(pipeline):
    _, _, _, claims, metrics = pipeline
    found = {c.id: c for c in read_claims(claims)}
    assert set(found) == {
        "crl_bpt_beats_baselines",
        "prompts_readable",
        "control_variate_reduces_variance",
        "curriculum_beats_fixed_weights",
    }
    assert all(c.state != "not evaluated" and c.interval != "deterministic" for c in found.values())
    assert set(json.loads(Path(metrics).read_text())["test_accuracy"]) == set(METHODS)


def test_runs_repeat_byte_for_byte(pipeline, tmp_path):
    out, _, _, _, _ = pipeline
    names = {kind: str(tmp_path / f"again.{kind}.csv") for kind in ("calls", "steps", "curve", "scores", "timing")}
    rules.run(
        str(out / "blackbox"),
        str(out / "images.npz"),
        str(out / "agent"),
        **names,
        method="crl_bpt_e2",
        seed=1,
        search=SMOKE["search"],
        human=SMOKE["human"],
        model=SMOKE["model"],
        device="cpu",
    )
    for kind in ("calls", "curve", "scores"):
        assert Path(names[kind]).read_bytes() == (out / f"crl_bpt_e2_1.{kind}.csv").read_bytes()


def test_the_user_s_clip_and_agent_load_by_path(pipeline, tmp_path):
    out = pipeline[0]
    encoder, _ = _blackbox(tmp_path, checkpoint=[str(out / "blackbox")])  # our saved CLIP as "the user's"
    assert Path(encoder, "model.safetensors").read_bytes() == (out / "blackbox" / "model.safetensors").read_bytes()
    assert len(pd.read_csv(tmp_path / "bb_loss.csv")) == 0  # not retrained
    folder = _agent(tmp_path, checkpoint=[str(out / "agent")], name="user_agent")  # SFT'd again from the user's LM
    assert Path(folder, "model.safetensors").exists()
    assert len(pd.read_csv(tmp_path / "user_agent_loss.csv")) == 2


def test_bad_model_folders_are_one_line_and_leave_nothing(tmp_path):
    from icml26.common.lm.model import ModelSettings, build_model, save_checkpoint
    from icml26.common.lm.tokenizer import task_tokenizer

    tok = task_tokenizer(["a", "photo", "of", "{}", "."])
    save_checkpoint(
        build_model(ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32), tok, 0),
        tok,
        tmp_path / "small_vocab",
    )
    with pytest.raises(SourceError, match=r"small_vocab: its tokenizer does not read back \d+ words of the template"):
        _agent(tmp_path, checkpoint=[str(tmp_path / "small_vocab")])
    with pytest.raises(SourceError, match="no_such_clip: no such CLIP model folder"):
        _blackbox(tmp_path, checkpoint=[str(tmp_path / "no_such_clip")])
    assert not (tmp_path / "agent").exists() and not (tmp_path / "blackbox").exists()


@pytest.mark.parametrize("scale", ["smoke", "quick", "paper"])
def test_every_scale_passes_the_cross_key_checks(scale, tmp_path, monkeypatch):
    monkeypatch.chdir(as_fetched(paper_section(CONFIG, scale), tmp_path))  # paper: after `make fetch`
    assert list(problems(paper_section(CONFIG, scale))) == []


def test_each_broken_constraint_is_named_by_its_key():
    cfg = paper_section(CONFIG, "quick")
    cfg["human"]["count"] = 9
    cfg["search"].update(best_human=11, budget=12, curve_every=50, batch_images=5000)
    cfg["sft"]["warmup_steps"] = 400
    cfg["blackbox"].update(heads=5, patch_size=3, batch_size=9000)
    cfg["model"].update(heads=5, context=20)
    assert [line.split(":")[0] for line in problems(cfg)] == [
        "search.references",
        "search.best_human",
        "search.budget",
        "search.curve_every",
        "search.batch_images",
        "sft.warmup_steps",
        "blackbox.hidden_size",
        "blackbox.patch_size",
        "blackbox.batch_size",
        "model.hidden_size",
        "model.context",
    ]
    cfg = paper_section(CONFIG, "quick")
    cfg["blackbox"]["checkpoint"] = "/no/such/clip"
    assert [line.split(":")[0] for line in problems(cfg)] == ["blackbox.checkpoint"]
