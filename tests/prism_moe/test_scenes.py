"""The procedural scenes: deterministic by seed, exact targets on hand-placed shapes, validation of user files."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.common.io import write_npz
from icml26.common.sources import SourceError
from icml26.prism_moe import rules, scenes

BACKGROUND = {
    "z0": 1.2,
    "a": 0.0,
    "b": 0.0,
    "colour": [0.5, 0.5, 0.5],
    "texture": "plain",
    "frequency": 4,
    "texture_angle": 0.0,
}


def _shape(kind, cx, cy, r, z0, a=0.0, b=0.0):
    return {
        "kind": kind,
        "cx": cx,
        "cy": cy,
        "r": r,
        "angle": 0.0,
        "z0": z0,
        "a": a,
        "b": b,
        "colour": [0.9, 0.2, 0.1],
        "texture": "stripes",
        "frequency": 5,
        "texture_angle": 0.3,
    }


def _render(shapes, size=32):
    return scenes.render(shapes, BACKGROUND, size, 0.0, np.random.default_rng(0))


def test_generator_is_deterministic_by_seed():
    a, b, c = scenes.generate(20, 3), scenes.generate(20, 3), scenes.generate(20, 4)
    assert all(np.array_equal(a[k], b[k]) for k in scenes.ARRAYS)
    assert not np.array_equal(a["images"], c["images"])
    assert scenes.validate(a) is None


@pytest.mark.parametrize(
    "shapes",
    [
        [_shape(1, 0.3, 0.3, 0.15, 0.5), _shape(2, 0.7, 0.7, 0.15, 0.6)],  # apart
        [_shape(1, 0.45, 0.5, 0.2, 0.5), _shape(3, 0.6, 0.5, 0.2, 0.4), _shape(4, 0.3, 0.7, 0.2, 0.7)],  # overlapping
    ],
)
def test_edge_map_equals_the_segmentation_boundary_when_classes_differ(shapes):
    scene = _render(shapes)
    assert np.array_equal(scene["edges"].astype(bool), scenes.boundary(scene["seg"]))
    assert scene["edges"].any()


def test_edges_also_separate_two_touching_shapes_of_one_class():
    scene = _render([_shape(2, 0.35, 0.5, 0.2, 0.5), _shape(2, 0.6, 0.5, 0.2, 0.4)])
    assert scene["edges"].sum() > scenes.boundary(scene["seg"]).sum()  # the occlusion edge inside the class


def test_depth_normals_and_saliency_follow_the_planes():
    scene = _render([_shape(1, 0.5, 0.5, 0.25, 0.4, a=0.3), _shape(2, 0.2, 0.2, 0.1, 0.8)])
    disc = scene["seg"] == 1
    y, x = (np.mgrid[0:32, 0:32] + 0.5) / 32
    np.testing.assert_allclose(scene["depth"][disc], (0.4 + 0.3 * (x - 0.5))[disc], rtol=1e-6)
    expected = np.array([-0.3, 0.0, 1.0]) / np.hypot(0.3, 1.0)
    np.testing.assert_allclose(scene["normals"][:, disc].T, np.tile(expected, (disc.sum(), 1)), rtol=1e-6)
    background = scene["normals"][:, scene["seg"] == 0]
    np.testing.assert_array_equal(background, np.tile([[0.0], [0.0], [1.0]], (1, background.shape[1])))
    assert np.array_equal(scene["saliency"].astype(bool), disc)  # the frontmost shape
    assert scene["present"].tolist() == [1, 1, 0, 0]


def test_the_nearer_surface_wins_where_shapes_overlap():
    scene = _render([_shape(1, 0.5, 0.5, 0.3, 0.7), _shape(2, 0.5, 0.5, 0.1, 0.3)])
    assert scene["seg"][16, 16] == 2 and scene["depth"][16, 16] == pytest.approx(0.3)


def test_a_ring_shows_what_lies_behind_its_hole():
    scene = _render([_shape(4, 0.5, 0.5, 0.3, 0.5)])
    assert scene["seg"][16, 16] == 0 and scene["seg"][16, 16 + 7] == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("normals"), "missing array"),
        (lambda d: d.update(depth=d["depth"][:, :5]), "depth must have shape"),
        (lambda d: d.update(images=d["images"].astype(np.float32)), "images must be uint8"),
        (lambda d: d.update(seg=d["seg"] + 7), "seg holds class"),
        (lambda d: d.update(images=d["images"][:, :, :30]), "images must be square"),
    ],
)
def test_a_wrong_dataset_fails_naming_the_file(tmp_path, change, message):
    data = scenes.generate(4, 0)
    change(data)
    path = tmp_path / "train.npz"
    write_npz(path, **data)
    with pytest.raises(SourceError, match=f"{path}: .*{message}"):
        rules._dataset(str(path))


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04garbled"])
def test_a_truncated_or_garbled_file_fails_naming_it(tmp_path, content):
    path = tmp_path / "test.npz"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=str(path)):
        rules._dataset(str(path))
