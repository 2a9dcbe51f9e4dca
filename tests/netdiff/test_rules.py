"""The rule functions chained end to end on a tiny configuration, as the workflow calls them."""

from __future__ import annotations

import pandas as pd
import pytest

from icml26.common.claims import read_claims
from icml26.common.io import read_csv, read_json
from icml26.netdiff import rules

CHANNEL = {"sectors": 4, "side_db": -6.0, "alpha": 3.0, "power": 1.0, "noise": 0.001}
DATA = {"train_nodes": {"low": 5, "high": 6}, "train": 8, "test_nodes": [6, 7], "test": 2, "rounds": 2, "seed": 0}
MODEL = {"dim": 8, "edge_dim": 4, "heads": 2, "layers": 1, "tokens": 2, "scale": 8.0}
TRAINING = {"steps": 3, "diffusion_steps": 4, "batch_size": 4, "lr": 0.01, "aux": 0.5, "log_every": 3}
PARTIAL = {"nodes": 6, "traces": 1, "frames": 3, "speed": 0.01, "turn": 0.3, "restarts": [2, 4], "seed": 0}
CRITERIA = {"confidence": 0.95, "resamples": 50, "seed": 0, "near": 0.02, "flat": 1.5}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("netdiff")
    p = {name: str(d / name) for name in ("train.npz", "test.npz", "calibration.csv", "milp.csv", "base.csv")}
    calibration = {"sectors": [4], "side_db": [-6.0], "nodes": [6, 7], "instances": 1, "seed": 0}
    rules.calibration(p["calibration.csv"], calibration=calibration, radius=0.6, rounds=2)
    milp = {"nodes": [5], "instances": 2, "time_limit": 10.0, "seed": 0}
    rules.milp_check(p["milp.csv"], milp=milp, radius=0.6, channel=CHANNEL, rounds=2)
    rules.dataset([], p["train.npz"], p["test.npz"], data=DATA, radius=0.6, channel=CHANNEL)
    models, evaluations = {}, []
    for name in ("netdiff", "graph_transformer"):
        models[name] = str(d / f"{name}" / "seed0.safetensors")
        (d / name).mkdir()
        rules.train(
            p["train.npz"], models[name], str(d / f"{name}.loss.csv"), name=name, seed=0, model=MODEL,
            training=TRAINING, channel=CHANNEL,
        )  # fmt: skip
        evaluations.append(str(d / "evaluations" / name / "seed0.csv"))
        rules.evaluate(p["test.npz"], models[name], evaluations[-1], name=name, seed=0, channel=CHANNEL)
    rules.baselines(p["test.npz"], p["base.csv"], channel=CHANNEL, seed=0)
    rules.partial(
        models["netdiff"], str(d / "seed0.csv"), seed=0, partial=PARTIAL, radius=0.6, channel=CHANNEL, rounds=2
    )
    tables = {
        f"{n}_table": str(d / f"{n}.table.csv")
        for n in ("results", "repair", "comparisons", "counts", "partial", "gap")
    }
    rules.tables(
        evaluations, p["base.csv"], [str(d / "seed0.csv")], p["milp.csv"], **tables,
        models=list(models), criteria=CRITERIA,
    )  # fmt: skip
    rules.verdict(
        p["calibration.csv"], tables["results_table"], tables["comparisons_table"], tables["counts_table"],
        tables["partial_table"], tables["gap_table"], str(d / "claims.json"), str(d / "metrics.json"),
        channel=CHANNEL, test_nodes=DATA["test_nodes"], criteria=CRITERIA,
        substitution="a test stand-in",
    )  # fmt: skip
    timing = {n: str(d / f"timing.{n}") for n in ("inference", "partial", "machine", "claims")}
    rules.timing(
        list(models.values()), tables["partial_table"], timing["inference"], timing["partial"], timing["machine"],
        timing={"nodes": [5, 7], "instances": 1, "repeats": 1}, partial=PARTIAL, radius=0.6, channel=CHANNEL, rounds=2,
    )  # fmt: skip
    rules.timing_verdict(
        timing["inference"],
        timing["partial"],
        timing["machine"],
        timing["claims"],
        criteria=CRITERIA,
        substitution="a test stand-in",
    )
    return d, tables, timing


def test_every_claim_is_judged_from_the_tables(run):
    d, _, timing = run
    claims = read_claims(d / "claims.json")
    assert [c.id for c in claims] == [
        "simulator_calibrated",
        "reaches_95_percent_of_target",
        "beats_heuristics",
        "improves_over_graph_transformer",
        "acam_matches_counts",
        "partial_diffusion_near_full",
    ]
    assert all(c.state != "not evaluated" and c.headline and c.evidence for c in claims)
    assert [c.id for c in read_claims(timing["claims"])] == ["constant_inference_time"]
    figures = {f"inference_{kind}": str(d / f"inference.{kind}") for kind in ("png", "pdf")}
    rules.timing_figures(timing["inference"], timing["machine"], flat=CRITERIA["flat"], **figures)
    assert (d / "inference.png").stat().st_size > 0
    assert set(read_json(d / "metrics.json")) == {
        "share", "connected", "count_error", "partial_share", "partial_churn", "target_vs_milp"
    }  # fmt: skip


def test_the_tables_cover_every_method_and_test_n(run):
    _, tables, timing = run
    results = read_csv(tables["results_table"])
    methods = {"netdiff", "netdiff_raw", "graph_transformer", "graph_transformer_raw", "target"}
    methods |= {"greedy", "mutual_nearest", "random_feasible", "omnidirectional"}
    assert set(results["method"]) == methods and set(results["nodes"]) == {6, 7}
    assert (results.loc[results["method"] == "netdiff", "violations"] == 0).all()  # repaired: feasible
    gap = read_csv(tables["gap_table"]).iloc[0]
    assert gap["bound_violations"] == 0 and gap["target_surrogate_ratio"] <= 1 + 1e-9
    assert read_csv(tables["partial_table"])["restart"].tolist() == [2, 4]
    inference = read_csv(timing["inference"])
    assert set(inference["method"]) == methods - {"netdiff_raw", "graph_transformer_raw"}
    assert (inference.loc[inference["method"] == "netdiff", "denoiser_calls"] == 4).all()
    assert pd.api.types.is_float_dtype(inference["seconds"])
    model = inference["denoiser_calls"] > 0
    assert inference.loc[model, "seconds_per_call"].tolist() == pytest.approx(
        (inference.loc[model, "seconds"] / 4).tolist()
    )
    assert inference.loc[~model, "seconds_per_call"].isna().all()  # heuristics and the target make no calls
    repair = read_csv(tables["repair_table"]).set_index(["model", "nodes"])
    assert (repair["repaired_violations"] == 0).all()  # repair removes every violation (not always every gap)
    raw = results.set_index(["method", "nodes"]).loc[("netdiff_raw", 6)]
    assert repair.loc[("netdiff", 6), "raw_share"] == raw["share"]
    trade_off = read_csv(timing["partial"])
    assert trade_off["restart"].tolist() == [2, 4] and trade_off[["seconds", "share", "churn"]].notna().all().all()


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="a GPU is visible: cuda would be honoured")
def test_a_cuda_run_without_a_gpu_fails_before_writing_anything(run, tmp_path):
    d, _, _ = run
    out = tmp_path / "out.csv"
    with pytest.raises(RuntimeError, match="device: cuda was requested but no CUDA GPU is visible"):
        rules.evaluate(
            str(d / "test.npz"),
            str(d / "netdiff" / "seed0.safetensors"),
            str(out),
            name="netdiff",
            seed=0,
            channel=CHANNEL,
            device="cuda",
        )
    assert not out.exists()
