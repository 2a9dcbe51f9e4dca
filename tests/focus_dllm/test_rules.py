"""The rule functions end to end on a tiny model, the user's model by path, a bad folder."""

import pandas as pd
import pytest

from icml26.common.sources import SourceError
from icml26.focus_dllm import rules
from icml26.focus_dllm.analysis import SELECTORS
from icml26.focus_dllm.tasks import TASKS

LAYOUT = {"block_size": 8, "prompt_blocks": 2, "answer_blocks": 1}
LENGTHS = {"copy": 4, "reverse": 4, "walk": 5, "pcfg": 0, "add": 2}
MODEL = {"sizes": {"hidden_size": 16, "layers": 3, "heads": 2, "intermediate_size": 32}}
TRAINING = {"steps": 5, "batch_size": 8, "lr": 0.003, "log_every": 5}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("focus")
    examples = str(out / "examples.json")
    rules.examples(examples, tasks=list(TASKS), lengths=LENGTHS, counts={"train": 8, "test": 4}, layout=LAYOUT, seed=0)
    rules.train(
        examples, [], str(out / "model"), str(out / "loss.csv"), layout=LAYOUT, model=MODEL, training=TRAINING, seed=0
    )
    return out, examples


def test_decoding_quality_rows_per_test_example(trained):
    out, examples = trained
    for name, alpha in (("dense", None), ("focus", 1.0), ("keep_all", 1e9)):
        rules.decode_quality(
            examples,
            str(out / "model"),
            str(out / f"{name}.csv"),
            decoder={"name": name, "threshold": 0.9, "alpha": alpha},
            layout=LAYOUT,
            batch_size=6,
            seed=0,
        )
    dense, focus = pd.read_csv(out / "dense.csv"), pd.read_csv(out / "focus.csv")
    assert len(dense) == len(focus) == 4 * len(TASKS) and set(dense["correct"]) <= {0, 1}
    assert (focus["batch_rows"] > 0).all() and (focus["batch_steps"] > 0).all()
    # with a retain target no block can reach, FOCUS evicts nothing: the same answers, steps and rows as dense
    # (FOCUS's own totals are no invariant: it may take more steps, as issue 51 measured on the trained model)
    keep_all = pd.read_csv(out / "keep_all.csv")
    columns = ["example", "correct", "batch_steps", "batch_rows", "batch_tokens"]
    pd.testing.assert_frame_equal(keep_all[columns], dense[columns])


def test_observation_tables(trained):
    out, examples = trained
    rules.observe(
        examples,
        str(out / "model"),
        str(out / "corr.csv"),
        str(out / "recall.csv"),
        threshold=0.9,
        alphas=[1.0, 2.0],
        layout=LAYOUT,
        batch_size=6,
        seed=0,
    )
    corr, recall = pd.read_csv(out / "corr.csv"), pd.read_csv(out / "recall.csv")
    assert set(corr["task"]) == set(TASKS) and corr["decoded_fraction"].between(0, 1).all()
    assert len(recall) == len(TASKS) * 2 * len(SELECTORS)
    oracle = recall[recall["selector"] == "oracle"]["recall"].dropna()
    assert (oracle >= recall[recall["selector"] == "random"]["recall"].dropna().min()).all()


def test_the_user_s_model_is_used_as_it_is_and_a_bad_folder_is_named(trained, tmp_path):
    out, examples = trained
    rules.train(
        examples,
        [str(out / "model")],
        str(tmp_path / "m"),
        str(tmp_path / "l.csv"),
        layout=LAYOUT,
        model=MODEL,
        training=TRAINING,
        seed=0,
    )
    assert (tmp_path / "m" / "model.safetensors").read_bytes() == (out / "model" / "model.safetensors").read_bytes()
    with pytest.raises(SourceError, match="absent: not a block-diffusion model folder"):
        rules.train(
            examples,
            [str(tmp_path / "absent")],
            str(tmp_path / "m2"),
            str(tmp_path / "l2.csv"),
            layout=LAYOUT,
            model=MODEL,
            training=TRAINING,
            seed=0,
        )
    assert not (tmp_path / "m2").exists()


def test_an_example_that_does_not_fit_is_named(tmp_path):
    with pytest.raises(ValueError, match="a copy example of prompt 21 and answer 20 tokens does not fit"):
        rules.examples(
            str(tmp_path / "e.json"),
            tasks=["copy"],
            lengths={"copy": 20},
            counts={"train": 1, "test": 1},
            layout=LAYOUT,
            seed=0,
        )
    assert not (tmp_path / "e.json").exists()


def test_tables_verdict_and_timing_verdict(trained):
    import json

    out, examples = trained
    runs = []
    for name, alpha in (("dense", None), ("focus", 1.5)):
        path = str(out / f"q_{name}.csv")
        rules.decode_quality(
            examples,
            str(out / "model"),
            path,
            decoder={"name": name, "threshold": 0.9, "alpha": alpha},
            layout=LAYOUT,
            batch_size=6,
            seed=0,
        )
        runs.append(path)
    rules.observe(
        examples,
        str(out / "model"),
        str(out / "corr.csv"),
        str(out / "recall.csv"),
        threshold=0.9,
        alphas=[1.5],
        layout=LAYOUT,
        batch_size=6,
        seed=0,
    )
    second = out / "seed7"  # a second seed's tables: the first seed's relabelled
    second.mkdir()
    for name in ("q_dense", "q_focus", "corr", "recall"):
        pd.read_csv(out / f"{name}.csv").assign(seed=7).to_csv(second / f"{name}.csv", index=False)
    tables = [str(out / f"{name}_table.csv") for name in ("quality", "summary", "correlation", "recall")]
    rules.tables(
        runs + [str(second / "q_dense.csv"), str(second / "q_focus.csv")],
        [str(out / "corr.csv"), str(second / "corr.csv")],
        [str(out / "recall.csv"), str(second / "recall.csv")],
        *tables,
    )
    summary = pd.read_csv(tables[1])
    assert len(summary) == 2 * 2 * len(TASKS) and summary["accuracy"].between(0, 1).all()
    first, other = (summary[summary["seed"] == s].drop(columns="seed").reset_index(drop=True) for s in (0, 7))
    pd.testing.assert_frame_equal(first, other)  # per-seed rows per token and steps, not pooled across seeds
    assert len(pd.read_csv(tables[3])) == 2 * len(pd.read_csv(out / "recall.csv"))
    rules.verdict(
        tables[0],
        tables[2],
        tables[3],
        str(out / "claims.json"),
        str(out / "metrics.json"),
        dense="dense",
        focus="focus",
        alpha=1.5,
        substitution="a test stand-in",
    )
    metrics = json.loads((out / "metrics.json").read_text())
    assert set(metrics["accuracy_by_seed"]["focus"]) == {"0", "7"}
    ids = [c["id"] for c in json.loads((out / "claims.json").read_text())]
    assert ids == [
        "few_tokens_decodable_per_step",
        "importance_predicts_decodability",
        "focus_preserves_quality",
        "focus_saves_compute",
    ]
    decoders = [{"name": "dense", "threshold": 0.9, "alpha": None}, {"name": "focus", "threshold": 0.9, "alpha": 1.5}]
    rules.throughput(
        examples,
        str(out / "model"),
        str(out / "tp.csv"),
        str(out / "machine.json"),
        decoders=decoders,
        batch_sizes=[2, 4],
        repeats=1,
        layout=LAYOUT,
    )
    rules.timing_verdict(
        str(out / "tp.csv"),
        str(out / "machine.json"),
        str(out / "tclaims.json"),
        dense="dense",
        focus="focus",
        substitution="a test stand-in",
    )
    timing = json.loads((out / "tclaims.json").read_text())
    assert timing[0]["id"] == "focus_raises_throughput" and "cpu" in json.dumps(timing[0]["details"]).lower()
    rules.depth(
        examples,
        str(out / "model"),
        str(out / "depth.csv"),
        layers=[3, 4],
        batch_size=2,
        repeats=1,
        focus=decoders[1],
        layout=LAYOUT,
    )
    depth = pd.read_csv(out / "depth.csv")
    trained_layers = int(depth.loc[depth["setting"] == "trained", "layers"].iloc[0])
    assert sorted(depth.loc[depth["setting"] == "forced eviction", "layers"].unique()) == [3, 4]
    assert set(depth["decoder"]) == {"dense", "focus"} and len(depth) == 2 * 3
    assert (depth["rows_per_token"] > 0).all() and trained_layers >= 3
    # forced eviction decodes one token per step: as many steps as the answer has tokens, for both decoders
    forced = depth[depth["setting"] == "forced eviction"]
    assert (forced["steps"] == LAYOUT["block_size"] * LAYOUT["answer_blocks"]).all()
    figures = {
        f"{name}_{kind}": str(out / f"{name}.{kind}") for name in ("throughput", "depth") for kind in ("png", "pdf")
    }
    rules.timing_figures(
        str(out / "tp.csv"), str(out / "depth.csv"), str(out / "machine.json"), dense="dense", focus="focus", **figures
    )
    assert (out / "throughput.png").stat().st_size > 0 and (out / "depth.png").stat().st_size > 0


def test_every_scale_passes_the_cross_key_checks_and_each_broken_one_is_named():
    from pathlib import Path

    from icml26.common.config import paper_section
    from icml26.focus_dllm.settings import problems

    config = Path(__file__).resolve().parents[2] / "config" / "papers" / "focus_dllm.yaml"
    for scale in ("smoke", "quick", "paper"):
        assert list(problems(paper_section(config, scale))) == []
    cfg = paper_section(config, "quick")
    cfg["decoders"].append(dict(cfg["decoders"][0]))
    cfg["compare"]["focus"] = "dense_t0.8"
    cfg["throughput"]["decoders"] = ["nonesuch", "dense_t0.9"]
    cfg["analysis"]["verdict_alpha"] = 3.0
    cfg["tasks"] = ["copy", "reverse"]
    del cfg["lengths"]["reverse"]
    cfg["model"]["sizes"]["heads"] = 3
    cfg["training"]["batch_size"] = 100000
    assert [line.split(":")[0] for line in problems(cfg)] == [
        "decoders",
        "compare.focus",
        "throughput.decoders",
        "analysis.verdict_alpha",
        "lengths",
        "model.sizes.hidden_size",
        "training.batch_size",
    ]


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="a GPU is visible: cuda would be honoured")
def test_a_cuda_run_without_a_gpu_fails_before_writing_anything(trained, tmp_path):
    out, examples = trained
    with pytest.raises(RuntimeError, match="device: cuda was requested but no CUDA GPU is visible"):
        rules.decode_quality(
            examples,
            str(out / "model"),
            str(tmp_path / "runs.csv"),
            decoder={"name": "dense", "threshold": 0.9, "alpha": None},
            layout=LAYOUT,
            batch_size=6,
            seed=0,
            device="cuda",
        )
    assert not (tmp_path / "runs.csv").exists()
