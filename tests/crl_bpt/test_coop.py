"""The CoOp data sets (paper scale) read from a folder in CoOp's layout (a replica: split_zhou_Replica.json beside
images/, JPEGs of several sizes, one grey): class names, few shots per class, CLIP's resize and crop, and one-line
errors for a folder that is not a CoOp set."""

import json
import shutil

import numpy as np
import pytest
import torch

from icml26.common.sources import SourceError
from icml26.crl_bpt import coop


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return coop.write_replica(tmp_path_factory.mktemp("coop") / "pets")


def test_the_split_names_the_classes_and_the_images_beside_it(root):
    classes, split = coop.read_split(root)
    assert classes == ["red disc", "green disc", "blue disc", "yellow disc"]  # CoOp's underscores read as spaces
    assert len(split["train"]) == len(split["test"]) == 20 and split["train"][0] == (root / "images" / "0_0.jpg", 0)
    shots = coop.few_shot(split["train"], 3, seed=0)
    assert [label for _, label in shots] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert coop.few_shot(split["train"], 3, seed=0) == shots and coop.few_shot(split["train"], 3, seed=1) != shots
    assert len(coop.few_shot(split["train"], 99, seed=0)) == 20  # a class with fewer keeps them all


def test_images_are_resized_on_the_short_side_centre_cropped_and_kept_as_rgb_bytes(root):
    _, split = coop.read_split(root)
    images, labels = coop.load_images(split["train"][:6], 32)
    assert images.shape == (6, 3, 32, 32) and images.dtype == np.uint8 and labels.tolist() == [0] * 5 + [1]
    red = images[0][:, 16, 16]
    assert red[0] > 150 and red[1] < 80 and red[2] < 80  # the disc's centre, red
    grey = coop.load_images(split["test"][4:5], 32)[0][0]  # 0_9.jpg, saved in mode L: three equal channels
    assert np.array_equal(grey[0], grey[1]) and np.array_equal(grey[1], grey[2])


def test_uint8_photos_reach_clip_as_their_float_values():
    from icml26.crl_bpt.blackbox import pixels

    model = type("M", (), {"device": torch.device("cpu")})()
    model.config = type("C", (), {"vision_config": type("V", (), {"image_size": 8})()})()
    photo = np.random.default_rng(0).integers(0, 256, (2, 3, 8, 8), dtype=np.uint8)
    assert torch.allclose(pixels(model, photo), pixels(model, photo.astype(np.float32) / 255.0))


def test_a_folder_that_is_not_a_coop_set_is_one_line_naming_it(root, tmp_path):
    with pytest.raises(SourceError, match="absent: no such CoOp data set folder"):
        coop.read_split(tmp_path / "absent")
    bad = tmp_path / "bad"
    shutil.copytree(root, bad)
    (bad / "split_zhou_Other.json").write_text("{}")
    with pytest.raises(SourceError, match=r"bad: expected one split_zhou_<Name>.json .* found 2"):
        coop.read_split(bad)
    (bad / "split_zhou_Other.json").unlink()
    split = json.loads((bad / "split_zhou_Replica.json").read_text())
    (bad / "split_zhou_Replica.json").write_text(json.dumps({"train": split["train"]}))
    with pytest.raises(SourceError, match="split_zhou_Replica.json: not a CoOp split file"):
        coop.read_split(bad)
    split["train"][1][2] = "another name"
    (bad / "split_zhou_Replica.json").write_text(json.dumps(split))
    with pytest.raises(SourceError, match="label 0 is named both 'red_disc' and 'another name'"):
        coop.read_split(bad)
    shutil.rmtree(bad / "images")
    split["train"][1][2] = "red_disc"
    (bad / "split_zhou_Replica.json").write_text(json.dumps(split))
    with pytest.raises(SourceError, match="its first image 0_0.jpg is neither under"):
        coop.read_split(bad)
