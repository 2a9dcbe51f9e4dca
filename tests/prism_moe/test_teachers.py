"""The teachers: each objective learns, the standardisation, the user's torch.export teacher by path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.common.io import read_json
from icml26.common.sources import SourceError
from icml26.prism_moe import rules, scenes, teachers

SETTINGS = {"channels": 4, "features": 6, "steps": 30, "batch_size": 16, "lr": 0.01, "log_every": 10, "programs": {}}


@pytest.fixture(scope="module")
def data():
    return scenes.generate(64, 0)


@pytest.mark.parametrize("objective", teachers.OBJECTIVES)
def test_each_objective_lowers_its_loss(data, objective):
    _, losses = teachers.train(
        objective, data, channels=4, features=6, steps=40, batch_size=16, lr=0.01, seed=0, log=lambda line: None
    )
    assert np.mean(losses[-10:]) < np.mean(losses[:10])


def test_standardised_features_have_zero_mean_and_unit_variance_on_the_training_images(data):
    encoder = teachers.Encoder(4, 6)
    mean, std = teachers.standardisation(encoder, data["images"], 8, batch=10)
    features = teachers.Teacher(encoder, mean, std, 8)(torch.from_numpy(data["images"]))
    np.testing.assert_allclose(features.mean(dim=(0, 2, 3)).numpy(), 0, atol=1e-4)
    np.testing.assert_allclose(features.std(dim=(0, 2, 3), unbiased=False).numpy(), 1, atol=1e-3)


def _scenes_file(tmp_path, data):
    from icml26.common.io import write_npz

    path = tmp_path / "train.npz"
    write_npz(path, **data)
    return str(path)


def test_a_teacher_trained_here_reloads_identically(tmp_path, data):
    train = _scenes_file(tmp_path, data)
    folder = tmp_path / "semantic"
    rules.teacher(
        train, [], str(folder), str(tmp_path / "loss.csv"), name="semantic", teachers=SETTINGS, patch=4, seed=0
    )
    loaded = teachers.load(folder, 8)
    assert read_json(folder / "teacher.json")["kind"] == "ours"
    assert loaded(torch.from_numpy(data["images"][:4])).shape == (4, 6, 8, 8)


def test_the_users_exported_teacher_is_used_and_resized_to_the_patch_grid(tmp_path, data):
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 5, 3, stride=2, padding=1), torch.nn.GELU())  # a 16 x 16 map
    batch = torch.export.Dim("batch", min=1)
    program = torch.export.export(net, (torch.zeros(2, 3, 32, 32),), dynamic_shapes=({0: batch},))
    path = tmp_path / "user_teacher.pt2"
    torch.export.save(program, str(path))
    folder = tmp_path / "geometric"
    rules.teacher(
        _scenes_file(tmp_path, data),
        [str(path)],
        str(folder),
        str(tmp_path / "loss.csv"),
        name="geometric",
        teachers=SETTINGS,
        patch=4,
        seed=0,
    )
    loaded = teachers.load(folder, 8)
    images = torch.from_numpy(data["images"][:3])
    expected = torch.nn.functional.interpolate(net(images.float() / 255), size=(8, 8), mode="bilinear")
    torch.testing.assert_close(loaded(images), (expected - loaded.mean) / loaded.std)


@pytest.mark.parametrize("content", [b"", b"not a program"])
def test_a_broken_teacher_program_fails_naming_the_file(tmp_path, content):
    path = tmp_path / "broken.pt2"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=f"{path}: not a usable torch.export teacher program"):
        teachers.load_program(path, 32)


def test_a_program_with_the_wrong_output_fails_naming_the_file(tmp_path):
    net = torch.nn.Flatten()
    program = torch.export.export(net, (torch.zeros(2, 3, 32, 32),))
    path = tmp_path / "flat.pt2"
    torch.export.save(program, str(path))
    with pytest.raises(SourceError, match=f"{path}: a teacher must map images"):
        teachers.load_program(path, 32)


def _program(tmp_path, size: int):
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 5, 3, stride=2, padding=1), torch.nn.GELU())
    path = tmp_path / f"teacher_{size}.pt2"
    torch.export.save(torch.export.export(net, (torch.zeros(2, 3, size, size),)), str(path))
    return path


def test_a_truncated_or_other_size_teacher_program_fails_naming_the_file(tmp_path):
    """The user's teacher, like every loader of a user's model (tests/common/test_model_folders.py): a truncated
    export and one exported for another image size (static shapes) are one line naming the file (issue 53)."""
    good = _program(tmp_path, 32)
    teachers.load_program(good, 32)  # the intact program loads
    truncated = tmp_path / "truncated.pt2"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    other = _program(tmp_path, 16)
    for path in (truncated, other):
        with pytest.raises(SourceError, match=f"{path}: not a usable torch.export teacher program") as raised:
            teachers.load_program(path, 32)
        assert "\n" not in str(raised.value)
