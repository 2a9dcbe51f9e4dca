"""The rule functions end to end on a tiny model, and the user's checkpoint path (paper scale)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icml26.sheaf_repulsion import rules
from icml26.sheaf_repulsion.verdict import CRITERIA
from tests.conftest import figure_files

NAMES = 5
ARCH = {"layers": 1, "heads": 2, "width": 16, "mlp_width": 16}
TRAINING = {"steps": 20, "batch_size": 16, "lr": 1e-2, "weight_decay": 0.01, "target": 2.0, "every": 10}
DISCOVERY = {
    "steps": 15,
    "batch_size": 16,
    "lr": 0.1,
    "sparsity": 1.0,
    "sparsity_max_times": 20.0,
    "sparsity_min_times": 0.01,
    "overlap": 0.66,
    "overlap_max_times": 20.0,
    "overlap_min_times": 0.01,
    "completeness": 0.01,
}
COMMON = {"names": NAMES, "architecture": ARCH, "seed": 0, "device": "cpu"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sheaf")
    f = {
        name: str(out / name)
        for name in (
            "model.npz",
            "training.csv",
            "oasr.npz",
            "independent.npz",
            "baselines.npz",
            "minimal.csv",
            "circuits.csv",
            "overlap.csv",
            "discovery.csv",
            "claims.json",
            "metrics.json",
        )
    }
    rules.model([], f["model.npz"], f["training.csv"], training=TRAINING, held_out=32, **COMMON)
    for method in ("oasr", "independent"):
        rules.discover(
            f["model.npz"],
            f[f"{method}.npz"],
            str(out / f"{method}_curve.csv"),
            str(out / f"{method}_seconds.csv"),
            method=method,
            discovery={**DISCOVERY, "overlap": DISCOVERY["overlap"] if method == "oasr" else 0.0},
            runs=3,
            held_out=32,
            curve_every=5,
            **COMMON,
        )
    rules.baselines(
        f["model.npz"],
        f["oasr.npz"],
        f["baselines.npz"],
        str(out / "baseline_seconds.csv"),
        held_out=32,
        acdc_threshold=0.01,
        acdc_sentences=16,
        **COMMON,
    )
    rules.timing(
        f["model.npz"],
        [str(out / f"{m}_seconds.csv") for m in ("oasr", "independent")],
        str(out / "baseline_seconds.csv"),
        str(out / "costs.csv"),
        str(out / "machine.json"),
        batch_size=8,
        repeats=1,
        **COMMON,
    )
    rules.minimal(f["model.npz"], f["minimal.csv"], held_out=32, size=2, candidates=8, tolerance=0.05, **COMMON)
    rules.tables(
        f["model.npz"],
        f["oasr.npz"],
        f["independent.npz"],
        f["baselines.npz"],
        [str(out / f"{m}_curve.csv") for m in ("oasr", "independent")],
        f["circuits.csv"],
        f["overlap.csv"],
        f["discovery.csv"],
        held_out=32,
        criteria=CRITERIA,
        **COMMON,
    )
    figures = figure_files(out / "figures", "iou", "iou_by_k", "circuits", "minimal", "discovery")
    rules.figures(
        f["circuits.csv"],
        f["overlap.csv"],
        f["minimal.csv"],
        f["discovery.csv"],
        criteria=CRITERIA,
        complete_from=0.8,
        **figures,
    )
    rules.verdict(
        f["circuits.csv"],
        f["overlap.csv"],
        f["minimal.csv"],
        f["training.csv"],
        f["discovery.csv"],
        f["claims.json"],
        f["metrics.json"],
        criteria=CRITERIA,
        sentences=32,
        substitution="a test stand-in",
    )
    return out, f, figures


def test_the_chain_writes_every_table_figure_and_all_three_claims(run):
    out, f, figures = run
    claims = json.loads(Path(f["claims.json"]).read_text())
    assert [c["id"] for c in claims] == [
        "oasr_finds_valid_circuits_with_near_chance_overlap",
        "effect_grows_with_number_of_circuits",
        "minimal_circuit_without_indispensable_edge",
    ]
    circuits = rules.read_csv(f["circuits.csv"])
    assert circuits.groupby("method").size().to_dict() == {"acdc": 1, "eap": 1, "independent": 3, "oasr": 3}
    assert len(rules.read_csv(f["overlap.csv"])) == 6  # 3 pairs per method
    # the discovery curve: points every 5 of the 15 steps, and its last point is the circuit the table measures
    curve = rules.read_csv(f["discovery.csv"])
    assert curve.groupby(["method", "run"]).size().tolist() == [3] * 6 and set(curve["step"]) == {5, 10, 15}
    last = curve[curve["step"] == 15].set_index(["method", "run"]).sort_index()
    found = circuits[circuits["method"].isin(["oasr", "independent"])].set_index(["method", "run"]).sort_index()
    for column in ("edges", "density", "accuracy", "faithfulness", "complement_accuracy"):
        assert last[column].tolist() == pytest.approx(found[column].tolist(), abs=1e-6), column
    details = claims[0]["details"]
    assert details["discovery_steps"] == 15 and set(details["faithfulness_ld_ratio"]) == {"oasr", "independent"}
    assert details["accuracy_without_first_independent_circuit"] == pytest.approx(
        found.loc[("independent", 0), "complement_accuracy"]
    )
    costs = rules.read_csv(str(out / "costs.csv")).set_index("what")["seconds"]
    assert set(costs.index) == {
        "forward pass",
        "forward pass with a mask",
        "oasr discovery run",
        "oasr discovery step",
        "independent discovery run",
        "independent discovery step",
        "EAP ranking",
        "ACDC-lite run",
    }
    assert (costs > 0).all() and costs["oasr discovery run"] > costs["oasr discovery step"]
    assert all(Path(path).read_bytes()[:4] in (b"\x89PNG", b"%PDF") for path in figures.values())


def test_the_user_s_checkpoint_is_used_as_it_is_and_a_wrong_one_is_named(run, tmp_path):
    _, f, _ = run
    rules.model(
        [f["model.npz"]], str(tmp_path / "again.npz"), str(tmp_path / "t.csv"), training=TRAINING, held_out=32, **COMMON
    )
    assert (tmp_path / "again.npz").read_bytes() == Path(f["model.npz"]).read_bytes()
    wider = {**COMMON, "architecture": {**ARCH, "width": 32}}
    with pytest.raises(ValueError, match=f"{f['model.npz']}: not a state dict of the configured"):
        rules.model(
            [f["model.npz"]], str(tmp_path / "x.npz"), str(tmp_path / "x.csv"), training=TRAINING, held_out=32, **wider
        )
    with pytest.raises(ValueError, match="absent.npz: not a state dict"):
        rules.load_model(str(tmp_path / "absent.npz"), ARCH, NAMES)
    whole = Path(f["model.npz"]).read_bytes()
    for name, content in (("truncated.npz", whole[: len(whole) // 2]), ("garbled.npz", b"not a zip" * 100)):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError, match=f"{name}: not a state dict"):
            rules.load_model(str(tmp_path / name), ARCH, NAMES)
    assert not (tmp_path / "x.npz").exists()
