"""The paper's image data sets read from files in their real formats (paper scale): a dSprites .npz holding part of
the latent grid, and a coil-20-proc folder of 128 x 128 grey PNGs (tiny replicas, icml26.manifold_microscope.real),
with one-line errors for a file of another shape or a missing pose."""

import numpy as np
import pytest
from PIL import Image

from icml26.common.sources import SourceError
from icml26.manifold_microscope import real
from icml26.manifold_microscope.dsprites import ROTATION_PERIOD


@pytest.fixture(scope="module")
def dsprites_file(tmp_path_factory):
    return real.write_dsprites_replica(tmp_path_factory.mktemp("dsprites") / "dsprites.npz")


def test_a_slice_covers_the_shapes_rotation_period_by_the_x_positions_in_range(dsprites_file):
    for shape, turns in (("square", 4), ("ellipse", 2), ("heart", 1)):
        F, axes = real.dsprites_slice(dsprites_file, shape, (0.35, 0.65), blur=0.0)
        assert F.shape == (40 // turns, 10, 64 * 64) and set(np.unique(F)) <= {-1.0, 1.0}  # binary, as dSprites
        assert np.isclose(axes["rotation"][1], ROTATION_PERIOD[shape] / (40 // turns))
        assert axes["x"][0] >= 0.35 and axes["x"][-1] <= 0.65
    blurred, _ = real.dsprites_slice(dsprites_file, "heart", (0.35, 0.65), blur=1.0)
    assert len(np.unique(blurred)) > 2 and blurred.min() >= -1 and blurred.max() <= 1


def test_a_dsprites_file_of_another_shape_is_one_line_naming_it(dsprites_file, tmp_path):
    with np.load(dsprites_file) as data:
        imgs, classes = data["imgs"], data["latents_classes"]
    small = tmp_path / "small.npz"
    np.savez(small, imgs=imgs[:, ::2, ::2], latents_classes=classes)
    with pytest.raises(SourceError, match=r"small.npz: expected imgs N x 64 x 64 .* got \(3840, 32, 32\)"):
        real.dsprites_slice(small, "heart", (0.35, 0.65), blur=0.0)
    other = tmp_path / "other.npz"
    np.savez(other, images=imgs)
    with pytest.raises(SourceError, match="other.npz: needs arrays imgs and latents_classes"):
        real.read_dsprites(other)
    part = tmp_path / "part.npz"
    keep = classes[:, 1] != 1  # no ellipse
    np.savez(part, imgs=imgs[keep], latents_classes=classes[keep])
    with pytest.raises(SourceError, match="part.npz: lacks the ellipse at scale 5, orientation 0"):
        real.dsprites_slice(part, "ellipse", (0.35, 0.65), blur=0.0)


def test_a_coil_object_is_its_72_poses_by_our_in_plane_rolls(tmp_path):
    folder = real.write_coil_replica(tmp_path / "coil-20-proc", objects=1)
    F = real.coil_object(folder, 1, n_roll=4, resolution=16)
    assert F.shape == (72, 4, 256) and F.min() >= -1 and F.max() <= 1
    upright = F[0, 0].reshape(16, 16)
    assert np.allclose(F[0, 2].reshape(16, 16), np.rot90(upright, 2), atol=0.05)  # a half turn of the image
    (folder / "obj1__71.png").unlink()
    with pytest.raises(SourceError, match=r"coil-20-proc: lacks obj1__71.png"):
        real.coil_object(folder, 1, n_roll=4, resolution=16)
    Image.new("L", (64, 64)).save(folder / "obj1__71.png")
    with pytest.raises(SourceError, match=r"obj1__71.png: is 64 x 64, COIL-20's processed images are 128 x 128"):
        real.coil_object(folder, 1, n_roll=4, resolution=16)


def test_a_real_data_folder_missing_what_the_run_reads_is_named_before_any_job(tmp_path):
    from icml26.common.config import paper_section
    from icml26.manifold_microscope.settings import problems
    from tests.conftest import ROOT

    cfg = paper_section(ROOT / "config" / "papers" / "manifold_microscope.yaml", "quick")
    real.write_coil_replica(tmp_path / "coil", objects=3)
    cfg["dsprites"]["folder"], cfg["turntable"]["folder"] = str(tmp_path), str(tmp_path / "coil")
    assert list(problems(cfg)) == [
        f"dsprites.folder: {tmp_path} lacks dsprites_ndarray_co1sh3sc6or40x32y32_64x64.npz (DeepMind's dSprites file)",
        f"turntable.folder: {tmp_path / 'coil'} lacks object 4 (obj4__<pose>.png) of the 20 turntable.objects asks "
        "for (COIL-20 has 20)",
    ]


@pytest.mark.parametrize("value, shown", [(255, "255"), (np.nan, "nan")])
def test_dsprites_images_that_are_not_binary_are_one_line_naming_the_first(dsprites_file, tmp_path, value, shown):
    """Images stored as 0..255 (values up to 509 after processing) or holding NaN passed before (issue 79)."""
    with np.load(dsprites_file) as data:
        imgs, classes = data["imgs"].astype(float), data["latents_classes"]
    imgs[7, 3, 3] = value
    bad = tmp_path / "bad.npz"
    np.savez(bad, imgs=imgs, latents_classes=classes)
    with pytest.raises(SourceError, match=rf"bad.npz: imgs must be binary \(0 or 1.*\), found {shown} in image 7$"):
        real.read_dsprites(bad)
