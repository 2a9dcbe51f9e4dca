"""Rendering oracles of the dSprites-style images: mass scales with scale^2, translation invariance."""

import numpy as np
import pytest

from icml26.manifold_microscope import dsprites


@pytest.mark.parametrize("shape", dsprites.SHAPES)
def test_pixel_mass_scales_with_the_square_of_the_scale(shape):
    small = dsprites.coverage(shape, 0.2, 0.4, 0.5, 0.5).sum()
    large = dsprites.coverage(shape, 0.4, 0.4, 0.5, 0.5).sum()
    assert large / small == pytest.approx(4.0, rel=0.01)


@pytest.mark.parametrize("shape", dsprites.SHAPES)
def test_pixel_mass_is_invariant_to_translation_away_from_the_borders(shape):
    masses = [
        dsprites.coverage(shape, 0.25, 1.0, x, y, supersample=8).sum()
        for x, y in ((0.5, 0.5), (0.3, 0.6), (0.65, 0.35))
    ]
    np.testing.assert_allclose(masses, masses[0], rtol=3e-3)  # rasterisation error of 8x8 supersampling


def test_square_area_is_exact_and_images_span_minus_one_to_one():
    assert dsprites.coverage("square", 0.25, 0.0, 0.5, 0.5).sum() == pytest.approx(0.25**2 * 64**2)
    image = dsprites.render("heart", 0.3, 0.2, 0.5, 0.5, blur=1.0)
    assert image.min() == pytest.approx(-1.0, abs=1e-6) and 0.9 < image.max() <= 1.0


def test_rotation_period_makes_the_slice_injective():
    for shape, period in dsprites.ROTATION_PERIOD.items():
        a = dsprites.render(shape, 0.3, 0.3, 0.5, 0.5)
        b = dsprites.render(shape, 0.3, 0.3 + period, 0.5, 0.5)
        np.testing.assert_allclose(a, b, atol=1e-9)  # one period later: the same image
    half = dsprites.render("heart", 0.3, 0.3 + np.pi, 0.5, 0.5)
    assert np.abs(half - dsprites.render("heart", 0.3, 0.3, 0.5, 0.5)).max() > 0.5


def test_unknown_shape_is_rejected():
    with pytest.raises(ValueError, match="shape must be one of"):
        dsprites.outline("star")


def test_random_slice_renders_the_requested_number_of_images_and_dimension():
    s = dsprites.RandomSlice(
        "heart", 2, (0.4, 0.6), {"scale": 0.3, "x": 0.5, "y": 0.5}, resolution=16, supersample=2, blur=1.0
    )
    X, _ = s.at_random(12, np.random.default_rng(0))
    assert s.dim == 2 and X.shape == (12, 256) and X.min() >= -1 and X.max() <= 1
    Y, _ = s.at_random(12, np.random.default_rng(0))
    np.testing.assert_array_equal(X, Y)
    with pytest.raises(ValueError, match="1 to 3"):
        dsprites.RandomSlice("heart", 4, (0.4, 0.6), {"scale": 0.3, "x": 0.5, "y": 0.5})
