"""Data loaders (each source format: good, truncated, garbled, wrong shape), the verdicts (each can come out
false), and the rule functions end to end on a user's own tiny dataset (the paper-scale data path)."""

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED, PREMISE_NOT_MET
from icml26.common.sources import SourceError
from icml26.optifluence import data, rules, verdict
from icml26.optifluence.lira import tpr_at_fpr


def _user_npz(path, n=40, side=6, seed=0, channels=None):
    """A tiny dataset of the user's own, in the ``npz`` format (grey N x H x W, or N x C x H x W)."""
    rng = np.random.default_rng(seed)
    shape = (n, side, side) if channels is None else (n, channels, side, side)
    np.savez(path, images=rng.integers(0, 256, shape).astype(np.uint8), labels=np.arange(n) % 3)


def _idx(path, array, dims):
    header = bytes([0, 0, 8, dims]) + b"".join(int(n).to_bytes(4, "big") for n in array.shape)
    path.write_bytes(gzip.compress(header + array.astype(np.uint8).tobytes()))


def _fashion(folder, n=6, truncate=False, wrong_dims=False, label=3):
    images = np.arange(n * 28 * 28).reshape(n, 28, 28) % 256
    _idx(
        folder / data.FASHION_FILES[0], images if not wrong_dims else images.reshape(n, -1), 3 if not wrong_dims else 2
    )
    _idx(folder / data.FASHION_FILES[1], np.full(n, label), 1)
    if truncate:
        raw = gzip.decompress((folder / data.FASHION_FILES[0]).read_bytes())
        (folder / data.FASHION_FILES[0]).write_bytes(gzip.compress(raw[:-100]))
    return data.source_files("fashion_mnist", str(folder))


def test_digits_ship_with_scikit_learn_and_split_into_disjoint_parts():
    images, labels = data.load("digits", [])
    assert images.shape == (1797, 1, 8, 8) and 0 <= images.min() and images.max() == 1.0
    parts = data.split(images, labels, 100, 50, seed=0)
    assert len(parts["base_y"]) == 100 and len(parts["cand_y"]) == 50 and len(parts["test_y"]) == 1647
    assert data.classes(parts) == 10
    assert len(data.split(images, labels, 100, 50, seed=0, test=200)["test_y"]) == 200
    assert (data.split(images, labels, 100, 50, seed=0, test=200)["test_x"] == parts["test_x"][:200]).all()
    with pytest.raises(ValueError, match="must leave test images"):
        data.split(images, labels, 1000, 797, seed=0)


def test_pooling_averages_blocks_and_refuses_a_factor_that_does_not_divide_the_side():
    images = np.arange(2 * 4 * 4, dtype=np.float32).reshape(2, 1, 4, 4)
    pooled = data.pool(images, 2)
    assert pooled.shape == (2, 1, 2, 2) and pooled.dtype == np.float32
    assert pooled[0, 0, 0, 0] == (0 + 1 + 4 + 5) / 4 and pooled[1, 0, 1, 1] == (26 + 27 + 30 + 31) / 4
    colour = np.stack([images[:, 0], 100 + images[:, 0], 200 + images[:, 0]], axis=1)
    assert (data.pool(colour, 2) == pooled + np.array([0, 100, 200], np.float32)[:, None, None]).all()  # per channel
    assert data.pool(images, 1) is images
    with pytest.raises(ValueError, match="dataset.pool: 3 does not divide"):
        data.pool(images, 3)


def test_fashion_mnist_files_parse_and_bad_ones_fail_naming_the_file(tmp_path):
    images, labels = data.load("fashion_mnist", _fashion(tmp_path))
    assert images.shape == (6, 1, 28, 28) and images.max() <= 1.0 and (labels == 3).all()
    for kwargs, problem in (
        ({"truncate": True}, "truncated"),
        ({"wrong_dims": True}, "IDX file of 3"),
        ({"label": 12}, "labels must be 0..9"),
    ):
        folder = tmp_path / problem.split()[0]
        folder.mkdir()
        with pytest.raises(SourceError, match=f"{folder}.*{problem}"):
            data.load("fashion_mnist", _fashion(folder, **kwargs))
    garbled = tmp_path / "garbled"
    garbled.mkdir()
    files = _fashion(garbled)
    (garbled / data.FASHION_FILES[0]).write_bytes(b"not gzip at all")
    with pytest.raises(SourceError, match="not a readable gzip file"):
        data.load("fashion_mnist", files)


def test_the_user_s_npz_loads_and_bad_ones_fail_naming_the_file(tmp_path):
    good = tmp_path / "mine.npz"
    _user_npz(good)
    images, labels = data.load("npz", [str(good)])
    assert images.shape == (40, 1, 6, 6) and images.max() == 1.0 and set(labels) == {0, 1, 2}
    _user_npz(tmp_path / "rgb.npz", channels=3)
    assert data.load("npz", [str(tmp_path / "rgb.npz")])[0].shape == (40, 3, 6, 6)  # any channel count, kept
    _user_npz(tmp_path / "five.npz", channels=5)
    assert data.load("npz", [str(tmp_path / "five.npz")])[0].shape == (40, 5, 6, 6)
    grey, two = np.zeros((4, 4, 4)), np.array([0, 1, 0, 1])
    cases = {
        "missing.npz": ({"images": grey}, "needs arrays 'images' and 'labels'"),
        "shape.npz": ({"images": np.zeros((3, 4, 5)), "labels": np.zeros(3, int)}, "N x H x H"),
        "last.npz": ({"images": np.zeros((4, 4, 4, 3)), "labels": two}, r"channels first\), got shape \(4, 4, 4, 3\)"),
        "labels.npz": ({"images": grey, "labels": np.zeros(2, int)}, "'labels' must be 4"),
        "huge.npz": ({"images": grey, "labels": np.array([0, 1, 999999, 1])}, "0..K-1 with every class present"),
        "one.npz": ({"images": grey, "labels": np.zeros(4, int)}, "every class present, found 1 distinct"),
        "scale.npz": ({"images": grey + 255.0, "labels": two}, r"in \[0, 1\], found 255..255 \(0..255 pixels: store"),
        "nan.npz": ({"images": grey + np.nan, "labels": two}, "must be finite"),
        "int.npz": ({"images": grey.astype(np.int32), "labels": two}, "uint8 .0..255. or floats"),
    }
    for name, (arrays, problem) in cases.items():
        np.savez(tmp_path / name, **arrays)
        with pytest.raises(SourceError, match=f"{name}: .*{problem}"):
            data.load("npz", [str(tmp_path / name)])
    (tmp_path / "garbled.npz").write_bytes(b"PK\x03\x04 garbage")
    with pytest.raises(SourceError, match="garbled.npz: not a readable .npz"):
        data.load("npz", [str(tmp_path / "garbled.npz")])
    with pytest.raises(SourceError, match="nowhere.npz: source file not found"):
        data.load("npz", [str(tmp_path / "nowhere.npz")])


def _table(values: dict[str, dict[str, float]], width=0.02, n_in=5000) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "architecture": arch,
                "type": kind,
                "tpr": t,
                "tpr_low": max(t - width, 0),
                "tpr_high": min(t + width, 1),
                "n_in": n_in,
                "n_out": n_in,
                "canaries": 40,
            }
            for arch, kinds in values.items()
            for kind, t in kinds.items()
        ]
    )


STRONG = {"random_in": 0.05, "mislabeled": 0.4, "ood": 0.3, "optifluence": 0.9}
WEAK = {"random_in": 0.05, "mislabeled": 0.8, "ood": 0.3, "optifluence": 0.81}


CLOSE = {"random_in": 0.05, "mislabeled": 0.6, "ood": 0.3, "optifluence": 0.61}
BEHIND = {"random_in": 0.05, "mislabeled": 0.7, "ood": 0.3, "optifluence": 0.4}


def _trace(gaps):
    return pd.DataFrame({"step": range(len(gaps)), "gap_mean": gaps})


FLAT = _trace([1.0, 5.0, 8.0, 9.0, 10.0, 10.1, 9.9, 10.2])  # last quarter 10.05 against 10.05 before: converged
CLIMBING = _trace([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])  # 7.5 against 5.5: +36 %, still climbing


def test_convergence_compares_the_last_two_quarters_of_the_outer_steps():
    m = verdict.convergence(CLIMBING)
    assert (m["window"], m["last_quarter"], m["quarter_before"]) == (2, 7.5, 5.5)
    assert m["relative_change"] == pytest.approx(2.0 / 5.5)
    assert verdict.convergence(_trace([3.0, 2.0]))["relative_change"] == pytest.approx(-1 / 3)  # windows of one
    assert verdict.convergence(FLAT.iloc[::-1])["last_quarter"] == pytest.approx(10.05)  # ordered by step, not row
    with pytest.raises(ValueError, match="at least 2 outer steps"):
        verdict.convergence(_trace([1.0]))


def test_verdicts_reach_every_state():
    good = _table({"a": STRONG, "b": STRONG, "c": STRONG})
    assert verdict.beats_heuristics(good, "a", 0.001, FLAT).state == HOLDS
    assert verdict.times_in_distribution(good, "a", 0.001).state == HOLDS
    assert verdict.transfers(good, ["b", "c"], 0.001, FLAT).state == HOLDS
    close = _table({"a": CLOSE, "b": STRONG, "c": CLOSE})
    assert verdict.beats_heuristics(close, "a", 0.001, FLAT).state == INCONCLUSIVE  # 0.61 vs 0.60: intervals overlap
    assert verdict.transfers(close, ["b", "c"], 0.001, FLAT).state == INCONCLUSIVE  # c cannot tell
    behind = _table({"a": BEHIND, "b": STRONG, "c": BEHIND})
    assert (
        verdict.beats_heuristics(behind, "a", 0.001, FLAT).state == FAILS
    )  # 0.40 against 0.70: separated the other way
    assert verdict.transfers(behind, ["b", "c"], 0.001, FLAT).state == FAILS
    ceiling = _table({"a": {**STRONG, "mislabeled": 1.0, "optifluence": 0.4}})
    claim = verdict.beats_heuristics(ceiling, "a", 0.001, FLAT)
    assert claim.state == PREMISE_NOT_MET and claim.holds is None  # mislabeled always detected: untestable here
    for unconverged in (
        verdict.beats_heuristics(good, "a", 0.001, CLIMBING),
        verdict.transfers(good, ["b"], 0.001, CLIMBING),
    ):
        assert unconverged.state == PREMISE_NOT_MET  # the objective still climbs: the optimisation was cut short
        assert [p.met for p in unconverged.premises] == [True, False]
    flat = _table({"a": {**STRONG, "random_in": 0.3}})
    assert verdict.times_in_distribution(flat, "a", 0.001).state == FAILS  # 3x, interval [2.7, 3.5]
    wide = _table({"a": {**STRONG, "optifluence": 0.5, "random_in": 0.125}}, width=0.05)
    assert verdict.times_in_distribution(wide, "a", 0.001).state == INCONCLUSIVE  # 4x, interval [2.6, 7.3]
    zero = _table({"a": {**STRONG, "random_in": 0.0}}, n_in=100)
    floor = verdict.times_in_distribution(zero, "a", 0.001)
    assert floor.measured["ratio"] == pytest.approx(90.0)  # 0.9 / (1/100)
    assert floor.state == PREMISE_NOT_MET and not floor.premises[0].met  # undetected: a ratio to the noise floor
    chance = _table({"a": {**STRONG, "random_in": 0.001}}, width=0.001)  # the committed quick run: TPR = FPR
    assert verdict.times_in_distribution(chance, "a", 0.001).state == PREMISE_NOT_MET
    assert verdict.transfers(good, [], 0.001, FLAT).state == NOT_EVALUATED


def test_the_tpr_interval_redraws_the_threshold_and_is_wider_than_clopper_pearson():
    from icml26.optifluence.lira import clopper_pearson
    from icml26.optifluence.tables import tpr_interval

    rng = np.random.default_rng(0)
    member = rng.random((64, 20)) < 0.5
    stat = rng.normal(size=member.shape) + 2.0 * member  # members shifted by two standard deviations
    labels, values = member.ravel(), stat.ravel()
    tpr = tpr_at_fpr(labels, values, 0.01)
    low, high = tpr_interval(member, stat, 0.01, resamples=300)
    assert low <= tpr <= high
    cp_low, cp_high = clopper_pearson(int(tpr * labels.sum()), int(labels.sum()))
    assert high - low > cp_high - cp_low  # the threshold rests on ~6 OUT scores: its noise widens the interval
    assert tpr_interval(member, stat, 0.01, resamples=300) == (low, high)  # seeded


def test_rule_functions_end_to_end_on_a_user_dataset(tmp_path):
    mine = tmp_path / "mine.npz"
    _user_npz(mine, n=60, side=4, channels=3)  # RGB, through every rule
    p = {
        name: str(tmp_path / name)
        for name in (
            "images.npz",
            "seeds.npz",
            "influence.csv",
            "tpr.csv",
            "roc.csv",
            "accuracy.csv",
            "ablation.csv",
            "claims.json",
            "metrics.json",
        )
    }
    arch, training = (
        {"name": "mlp", "kind": "mlp", "size": 6},
        {"steps": 4, "lr": 0.3, "momentum": 0.9, "weight_decay": 0.0},
    )
    rules.seeds(
        [str(mine)],
        p["images.npz"],
        p["seeds.npz"],
        p["influence.csv"],
        dataset="npz",
        pool=2,
        split={"base": 20, "candidates": 30, "test": None, "seed": 0},
        architecture=arch,
        training=training,
        damping=0.1,
        canaries_per_type=2,
        ablation=[1],
        seed=0,
    )
    unrolling = {
        "models_in": 2,
        "models_out": 2,
        "outer_steps": 2,
        "outer_lr": 0.1,
        "base_fraction": 0.5,
        "checkpoint": True,
    }
    optimised = []
    for kind, k in (("unrolled_random", 2), ("optifluence", 2), ("optifluence_k1", 1)):
        optimised.append(str(tmp_path / f"{kind}.npz"))
        rules.optimise(
            p["images.npz"],
            p["seeds.npz"],
            optimised[-1],
            str(tmp_path / f"{kind}.csv"),
            str(tmp_path / f"{kind}_t.csv"),
            kind=kind,
            truncation=k,
            architecture=arch,
            training=training,
            unrolling=unrolling,
            seed=0,
        )
    types = ["random_in", "mislabeled", "ood", "ifinit", "unrolled_random", "optifluence", "optifluence_k1"]
    scores = []
    for name, kind in (("mlp", "mlp"), ("cnn", "cnn")):
        scores.append(str(tmp_path / f"scores_{name}.npz"))
        rules.audit(
            p["images.npz"],
            p["seeds.npz"],
            optimised,
            scores[-1],
            architecture={**arch, "name": name, "kind": kind},
            training=training,
            types=types,
            audit={"models": 8, "base_fraction": 0.5, "chunk": 3, "seed": 0},
            seed=0,
        )
    rules.tables(
        scores,
        p["tpr.csv"],
        p["roc.csv"],
        p["accuracy.csv"],
        p["ablation.csv"],
        architectures=["mlp", "cnn"],
        target="mlp",
        truncation=2,
        ablation=[1],
        fpr=0.1,
    )
    tpr = pd.read_csv(p["tpr.csv"])
    assert len(tpr) == 2 * len(types) and (tpr["n_in"] == 8).all() and (tpr["n_out"] == 8).all()
    assert pd.read_csv(p["ablation.csv"])["truncation"].tolist() == [1, 2]
    assert np.load(p["images.npz"])["base_x"].shape[1:] == (3, 2, 2)  # 4x4 RGB images pooled by 2
    rules.verdict(
        p["tpr.csv"],
        p["accuracy.csv"],
        str(tmp_path / "optifluence.csv"),
        p["claims.json"],
        p["metrics.json"],
        target="mlp",
        transfer=["cnn"],
        fpr=0.1,
        substitution="a test stand-in",
    )
    claims = json.loads((tmp_path / "claims.json").read_text())
    assert [c["id"] for c in claims] == [
        "optimised_canaries_beat_heuristics",
        "four_times_in_distribution",
        "canaries_transfer_across_architectures",
    ]
    assert all(c["state"] != "not evaluated" for c in claims)


@pytest.mark.skipif(not data.FASHION_MNIST.is_dir(), reason="dataset-fashion-mnist not installed (make setup)")
def test_debian_s_fashion_mnist_loads_as_the_paper_scale_data():
    images, labels = data.load("fashion_mnist", data.source_files("fashion_mnist", None))
    assert images.shape == (60000, 1, 28, 28) and sorted(set(labels.tolist())) == list(range(10))


def test_cifar10_batches_load_in_colour_and_wrong_or_hostile_files_fail_naming_the_file(tmp_path):
    import os
    import pickle

    folder = tmp_path / "cifar10"
    data.write_cifar_replica(folder, per_batch=20)
    images, labels = data.load("cifar10", data.source_files("cifar10", str(folder)))
    assert images.shape == (100, 3, 32, 32) and images.dtype == np.float32 and labels.dtype == np.int64
    raw = pickle.loads((folder / "data_batch_2").read_bytes(), encoding="bytes")
    row = raw[b"data"][3]  # the red, green and blue planes of a 32x32 image in turn
    assert images[23, 1, 5, 7] == np.float32(row[1024 + 5 * 32 + 7] / 255.0) and labels[23] == raw[b"labels"][3]
    root = tmp_path / "torchvision_root"  # torchvision's layout: the unpacked folder under a root
    root.mkdir()
    folder.rename(root / data.CIFAR_FOLDER)
    assert data.load("cifar10", data.source_files("cifar10", str(root)))[0].shape == (100, 3, 32, 32)
    batches = root / data.CIFAR_FOLDER

    def rewrite(name, batch):
        (batches / name).write_bytes(pickle.dumps(batch, protocol=2))

    grey = {b"data": np.zeros((20, 1024), np.uint8), b"labels": [0] * 20}
    rewrite("data_batch_1", grey)
    with pytest.raises(SourceError, match=r"data_batch_1: data must be N x 3072 .*got \(20, 1024\) \(a grayscale"):
        data.load("cifar10", data.source_files("cifar10", str(root)))
    rewrite("data_batch_1", {b"data": np.zeros((20, 3072), np.uint8), b"labels": [10] * 20})
    with pytest.raises(SourceError, match="data_batch_1: labels must be 0..9, found 10"):
        data.load("cifar10", data.source_files("cifar10", str(root)))
    marker = tmp_path / "ran"

    class Hostile:
        def __reduce__(self):
            return os.system, (f"touch {marker}",)

    rewrite("data_batch_1", {b"data": Hostile(), b"labels": []})
    with pytest.raises(SourceError, match=r"data_batch_1: not a CIFAR-10 python batch \(it asks for posix.system"):
        data.load("cifar10", data.source_files("cifar10", str(root)))
    assert not marker.exists()  # refused before anything ran
    rewrite("data_batch_1", grey | {b"data": np.zeros((20, 3072), np.uint8)})
    (batches / "data_batch_3").write_bytes((batches / "data_batch_1").read_bytes())  # a batch copied in twice
    with pytest.raises(SourceError, match="data_batch_3: holds the same images as data_batch_1 \\(a batch copied"):
        data.load("cifar10", data.source_files("cifar10", str(root)))
    rewrite("data_batch_3", grey | {b"data": np.ones((20, 3072), np.uint8)})
    (batches / "data_batch_4").unlink()
    with pytest.raises(SourceError, match="data_batch_4: source file not found"):
        data.load("cifar10", data.source_files("cifar10", str(root)))


def test_mnist_reads_the_idx_files_from_its_folder(tmp_path):
    files = _fashion(tmp_path, n=5, label=7)  # the same four-file IDX format
    assert data.source_files("mnist", str(tmp_path)) == files
    images, labels = data.load("mnist", files)
    assert images.shape == (5, 1, 28, 28) and (labels == 7).all()
    _idx(tmp_path / data.FASHION_FILES[1], np.full(4, 7), 1)
    with pytest.raises(SourceError, match="train-labels-idx1-ubyte.gz: holds 4 labels for the 5 images"):
        data.load("mnist", files)


def test_settings_name_a_residual_shape_given_to_another_kind_and_a_data_set_without_its_folder():
    from icml26.common.config import paper_section
    from icml26.optifluence.settings import problems

    config = Path(__file__).resolve().parents[2] / "config" / "papers" / "optifluence.yaml"
    quick = paper_section(config, "quick")
    assert list(problems(quick)) == []
    quick["architectures"]["mlp"]["blocks"] = [1, 1]
    quick["dataset"] = {"name": "cifar10", "path": None, "pool": 1}
    assert list(problems(quick)) == [
        "architectures.mlp: blocks only shape a resnet, not a mlp",
        "dataset.path: the cifar10 dataset needs the path of its file or folder",
    ]
    paper = paper_section(config, "paper")
    assert paper["target"] == "resnet9" and paper["dataset"]["name"] == "cifar10"
    assert [p for p in problems(paper) if not p.startswith("dataset.path")] == []  # only the unfetched folder
