"""The paper's multi-task sets read from their real layouts (tiny replicas written in exactly those formats): what
each map becomes on the student's grid, the tasks a set carries, missing labels left out of losses and metrics,
and a wrong file failing in one line that names it."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest
import torch
from PIL import Image
from scipy.io import savemat

from icml26.common.sources import SourceError
from icml26.prism_moe import distill, metrics, nyud, pascal_context, rules, scenes, squares
from icml26.prism_moe.settings import problems, source_files
from icml26.prism_moe.tasks import IGNORE, of
from tests.prism_moe.test_rules import SMOKE


@pytest.fixture(scope="module")
def nyud_folder(tmp_path_factory):
    return nyud.write_replica(tmp_path_factory.mktemp("data") / "NYUDv2")


@pytest.fixture(scope="module")
def pascal_folder(tmp_path_factory):
    return pascal_context.write_replica(tmp_path_factory.mktemp("data") / "PASCALContext")


def _copy(folder, tmp_path):
    return shutil.copytree(folder, tmp_path / folder.name)


def _quiet(line):
    pass


def test_the_centre_square_is_cut_from_a_wide_map_and_a_thin_edge_survives_the_reduction():
    wide = np.arange(6 * 10).reshape(6, 10)
    assert np.array_equal(squares.centre(wide), wide[:, 2:8])
    assert np.array_equal(squares.nearest(wide, 6), wide[:, 2:8])  # same size: every pixel its own
    line = np.zeros((8, 8), np.uint8)
    line[:, 3] = 1
    reduced = squares.boundary(line, 4)
    assert np.array_equal(reduced[:, 1], [1, 1, 1, 1]) and reduced[:, [0, 2, 3]].sum() == 0
    missing = np.full((8, 8), IGNORE, np.uint8)
    assert (squares.boundary(missing, 4) == IGNORE).all()
    labels = np.full((8, 8), 3, np.uint8)
    labels[:4] = IGNORE
    assert set(np.unique(squares.nearest(labels, 4))) == {3, IGNORE}  # a missing label stays missing


def test_nyud_reads_four_tasks_with_forty_classes_and_its_missing_labels(nyud_folder):
    train = nyud.read(nyud_folder, "train", 48, _quiet)
    assert of(train) == {"seg": 40, "depth": 1, "edges": 1, "normals": 3} and scenes.validate(train) is None
    truth = scenes.generate(12, 0, size=48)  # what the replica was written from (scenes 0-7: the training split)
    seg = truth["seg"][:8].astype(int)
    seg[:, :4, 2:6] = IGNORE - 1  # the unlabelled corner, inside the centre square (columns 8-11 of 60)
    assert np.array_equal(train["seg"].astype(int), np.where(seg == IGNORE - 1, IGNORE, seg))  # 1-5 -> 0-4
    assert (train["depth"][:, -4:, -6:-2] == 0).all() and (train["depth"][:, :-4] > 0).all()
    assert np.allclose(train["depth"][:, :-4], np.clip(truth["depth"][:8, :-4], 0.05, None))
    length = np.linalg.norm(train["normals"], axis=1)
    assert (length[:, -4:, -6:-2] == 0).all() and np.allclose(length[:, :-4], 1, atol=1e-6)
    assert np.array_equal(train["edges"], truth["edges"][:8])  # same size: the file's edges exactly
    assert np.array_equal(train["present"][:, :5], np.stack([np.isin(range(5), s[s != IGNORE]) for s in train["seg"]]))
    test = nyud.read(nyud_folder, "test", 32, _quiet)
    assert test["images"].shape == (4, 3, 32, 32) and scenes.validate(test) is None


def test_pascal_context_reads_five_tasks_its_person_parts_and_normals_on_nyud_classes(pascal_folder):
    train = pascal_context.read(pascal_folder, "train", 48, _quiet)
    assert of(train) == {"seg": 21, "parts": 7, "normals": 3, "edges": 1, "saliency": 1}
    assert "depth" not in train and scenes.validate(train) is None
    truth = scenes.generate(12, 0, size=48)
    seg = truth["seg"][:8]
    assert np.array_equal(train["parts"], np.where(seg == 1, 1, np.where(seg == 2, 2, 0)))  # head, torso; dog none
    assert np.array_equal(train["saliency"], truth["saliency"][:8])
    context = np.array(list(pascal_context.CONTEXT_CLASSES.values()))[seg % 6]
    valid = np.isin(context, [3, 5, 7, 9])  # wall, floor, bed (NYUD's) and the monitor; background is not
    assert np.array_equal(np.linalg.norm(train["normals"], axis=1) > 0, valid)
    assert np.array_equal(train["edges"], np.stack([scenes.boundary(c) for c in context]).astype(np.uint8))


@pytest.mark.parametrize("reader", [nyud, pascal_context])
def test_a_grayscale_image_fails_naming_the_file(reader, nyud_folder, pascal_folder, tmp_path):
    folder = _copy(nyud_folder if reader is nyud else pascal_folder, tmp_path)
    picture = sorted((folder / ("images" if reader is nyud else "JPEGImages")).iterdir())[0]
    Image.open(picture).convert("L").save(picture)
    with pytest.raises(SourceError, match=rf"{picture.name}: expected an RGB image, got mode L$"):
        reader.read(folder, "train", 32, _quiet)


def test_wrong_nyud_files_fail_in_one_line_naming_them(nyud_folder, tmp_path):
    folder = _copy(nyud_folder, tmp_path)
    (folder / "depth" / "0001.npy").unlink()
    with pytest.raises(SourceError, match=r"depth/0001.npy: missing: the depth of image 0001"):
        nyud.read(folder, "train", 32, _quiet)
    np.save(folder / "depth" / "0001.npy", np.full((48, 60), np.nan, np.float32))
    with pytest.raises(SourceError, match=r"0001.npy: expected an H x W array of finite depths"):
        nyud.read(folder, "train", 32, _quiet)
    np.save(folder / "depth" / "0001.npy", np.ones((40, 60), np.float32))
    with pytest.raises(SourceError, match=r"0001.npy: is 40 x 60, its image 48 x 60"):
        nyud.read(folder, "train", 32, _quiet)
    np.save(folder / "depth" / "0001.npy", np.ones((48, 60), np.float32))
    Image.fromarray(np.full((48, 60), 41, np.uint8)).save(folder / "segmentation" / "0002.png")
    with pytest.raises(SourceError, match=r"0002.png: holds class 41; NYUD-v2 has classes 1-40"):
        nyud.read(folder, "train", 32, _quiet)
    (folder / "gt_sets" / "val.txt").unlink()
    with pytest.raises(SourceError, match=r"val.txt: missing: a NYUD-v2 \(NYUD_MT layout\) folder"):
        nyud.read(folder, "test", 32, _quiet)


def test_wrong_pascal_files_fail_in_one_line_naming_them(pascal_folder, tmp_path):
    folder = _copy(pascal_folder, tmp_path)
    name = (folder / "ImageSets" / "Context" / "train.txt").read_text().split()[0]
    savemat(folder / "pascal-context" / "trainval" / f"{name}.mat", {"Labels": np.zeros((48, 60))})
    with pytest.raises(SourceError, match=rf"{name}.mat: has no 'LabelMap' \(expected a context label map\)"):
        pascal_context.read(folder, "train", 32, _quiet)
    savemat(folder / "pascal-context" / "trainval" / f"{name}.mat", {"LabelMap": np.zeros((48, 60), np.uint16)})
    objects = np.empty((1, 1), dtype=[("class", object), ("class_ind", object), ("mask", object), ("parts", object)])
    parts = np.empty((1, 1), dtype=[("part_name", object), ("mask", object)])
    parts[0, 0] = ("tail", np.ones((48, 60), np.uint8))
    objects[0, 0] = ("person", 15, np.ones((48, 60), np.uint8), parts)
    savemat(folder / "human_parts" / f"{name}.mat", {"anno": {"imname": name, "objects": objects}})
    with pytest.raises(SourceError, match=rf"{name}.mat: person part 'tail' is none of PASCAL-Part's"):
        pascal_context.read(folder, "train", 32, _quiet)
    (folder / "json" / "nyu_classes.json").write_text("[not json")
    with pytest.raises(SourceError, match=r"nyu_classes.json: not JSON"):
        pascal_context.read(folder, "train", 32, _quiet)


def test_a_link_out_of_the_data_set_folder_is_refused(nyud_folder, tmp_path):
    folder = _copy(nyud_folder, tmp_path)
    (folder / "edge" / "0003.png").unlink()
    os.symlink("/etc/passwd", folder / "edge" / "0003.png")
    with pytest.raises(SourceError, match=r"0003.png: leads out of"):
        nyud.read(folder, "train", 32, _quiet)
    data = SMOKE["data"] | {"source": str(folder), "format": "nyud"}
    with pytest.raises(SourceError, match=r"0003.png leads out of"):
        rules.scenes(source_files(data), str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), data=data)
    assert not (tmp_path / "a.npz").exists()


def test_the_rule_writes_a_data_set_file_with_its_tasks_and_own_teachers_need_their_labels(pascal_folder, tmp_path):
    data = SMOKE["data"] | {"source": str(pascal_folder), "format": "pascal_context", "size": 32}
    assert list(problems(SMOKE | {"data": data})) == []
    assert source_files(data) == [str(pascal_folder / "ImageSets" / "Context" / s) for s in ("train.txt", "val.txt")]
    rules.scenes(source_files(data), str(tmp_path / "train.npz"), str(tmp_path / "test.npz"), data=data)
    train = rules._dataset(str(tmp_path / "train.npz"))
    assert list(of(train)) == ["seg", "parts", "normals", "edges", "saliency"] and len(train["images"]) == 8
    with pytest.raises(SourceError, match=r"the geometric teacher trained here reads \['depth'\], which this data"):
        rules.teacher(
            str(tmp_path / "train.npz"),
            [],
            str(tmp_path / "geometric"),
            str(tmp_path / "geometric.csv"),
            name="geometric",
            teachers=SMOKE["teachers"],
            patch=4,
            seed=0,
        )
    assert not (tmp_path / "geometric").exists()
    nowhere = SMOKE | {"data": data | {"source": None}}
    assert any(p.startswith("data.format: pascal_context reads data.source, which is null") for p in problems(nowhere))


def test_a_declared_task_set_is_validated():
    data = scenes.generate(3, 0, size=16)
    declared = {"images": data["images"], "seg": data["seg"], "edges": data["edges"]}
    header = {"tasks": np.array(["seg", "edges"]), "classes": np.array([5, 0])}
    assert scenes.validate(declared | header) is None
    assert "unknown task(s) ['depths']" in scenes.validate(declared | header | {"tasks": np.array(["seg", "depths"])})
    assert "missing array(s) ['edges']" in scenes.validate({k: v for k, v in declared.items() if k != "edges"} | header)
    assert "seg holds class 4; classes are 0-3" in scenes.validate(declared | header | {"classes": np.array([4, 0])})
    bad = declared | header | {"edges": np.where(data["edges"] == 1, 7, 0).astype(np.uint8)}
    assert "edges must hold 0, 1 or 255" in scenes.validate(bad)
    assert "both a 'tasks' and a 'classes' array" in scenes.validate(declared | {"tasks": header["tasks"]})
    assert scenes.validate(declared | header | {"seg": np.where(data["seg"] == 0, IGNORE, data["seg"])}) is None


def test_missing_labels_count_in_no_metric():
    rng = np.random.default_rng(0)
    tasks = {"seg": 3, "depth": 1, "edges": 1, "normals": 3, "saliency": 1}
    target = {
        "seg": rng.integers(0, 3, (4, 6, 6)),
        "depth": rng.random((4, 6, 6)) + 0.5,
        "edges": rng.integers(0, 2, (4, 6, 6)),
        "saliency": rng.integers(0, 2, (4, 6, 6)),
        "normals": np.tile(np.array([0, 0, 1.0])[None, :, None, None], (4, 1, 6, 6)),
    }
    guess = {k: v.copy().astype(float) if k in ("edges", "saliency") else v.copy() for k, v in target.items()}
    hidden = np.zeros((4, 6, 6), bool)
    hidden[:, :3] = True
    for k in ("seg", "edges", "saliency"):
        target[k] = np.where(hidden, IGNORE, target[k])
        guess[k] = np.where(hidden, 1 - (guess[k] > 0) if k != "seg" else (guess[k] + 1) % 3, guess[k])
    target["depth"] = np.where(hidden, 0, target["depth"])
    guess["depth"] = np.where(hidden, 9.0, guess["depth"])
    target["normals"] = np.where(hidden[:, None], 0, target["normals"])
    guess["normals"] = np.where(hidden[:, None], np.array([1.0, 0, 0])[None, :, None, None], guess["normals"])
    found = metrics.overall(metrics.image_stats(guess, target, tasks))  # wrong only where nothing is labelled
    assert found == {"miou": 1.0, "depth_rmse": 0.0, "edge_f1": 1.0, "normal_angle": 0.0, "saliency_maxf": 1.0}


def test_saliency_max_f_weights_precision_as_the_saliency_convention_does():
    from sklearn.metrics import fbeta_score

    rng = np.random.default_rng(1)
    truth = rng.integers(0, 2, (5, 8, 8))
    probabilities = np.clip(truth * 0.4 + rng.random((5, 8, 8)) * 0.6, 0, 1)
    found = metrics.overall(metrics.image_stats({"saliency": probabilities}, {"saliency": truth}, {"saliency": 1}))
    best = max(
        fbeta_score(truth.ravel(), probabilities.ravel() >= t, beta=0.3**0.5, zero_division=0)
        for t in metrics.THRESHOLDS
    )
    assert found["saliency_maxf"] == pytest.approx(best)


@pytest.mark.parametrize("task", ["seg", "depth", "edges", "normals"])
def test_losses_ignore_missing_labels(task):
    torch.manual_seed(0)
    channels = {"seg": 3, "depth": 1, "edges": 1, "normals": 3}[task]
    output = torch.randn(2, channels, 4, 4)
    full = {
        "seg": torch.randint(0, 3, (2, 4, 4)),
        "depth": torch.rand(2, 4, 4) + 0.5,
        "edges": torch.randint(0, 2, (2, 4, 4)).float(),
        "normals": torch.nn.functional.normalize(torch.randn(2, 3, 4, 4), dim=1),
    }[task]
    hidden = torch.zeros(2, 4, 4, dtype=torch.bool)
    hidden[:, 0] = True
    missing = {"seg": IGNORE, "edges": IGNORE, "depth": 0}.get(task, 0)
    marked = full.masked_fill(hidden[:, None] if task == "normals" else hidden, missing)
    changed = output.clone()
    changed[:, :, 0] += 5  # a different prediction where nothing is labelled
    loss = distill.task_loss(task, output, {task: marked}, edge_weight=3.0)
    assert loss == pytest.approx(float(distill.task_loss(task, changed, {task: marked}, edge_weight=3.0)))
    assert loss != pytest.approx(float(distill.task_loss(task, output, {task: full}, edge_weight=3.0)))


def test_the_paper_section_reads_nyud_and_the_overlay_pascal_context():
    import yaml

    from icml26.common.config import paper_section
    from tests.prism_moe.test_rules import CONFIG

    paper = paper_section(CONFIG, "paper")
    assert (paper["data"]["format"], paper["data"]["source"]) == ("nyud", paper["fetch"]["nyud"]["into"])
    overlay = yaml.safe_load((CONFIG.parents[1] / "overlays" / "prism_moe_pascal_context.yaml").read_text())
    data = overlay["prism_moe"]["data"]
    assert (data["format"], data["source"]) == ("pascal_context", paper["fetch"]["pascal_context"]["into"])
    assert json.dumps(paper["fetch"]["pascal_context"]).count("source") == 1  # not on the hub: fetched FROM=
