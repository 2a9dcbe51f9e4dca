"""COIL-20 stand-in rendering oracles and the intrinsic-dimension comparison."""

import numpy as np
import pytest

from icml26.manifold_microscope import dimension, toys, turntable


def test_a_centred_sphere_looks_the_same_from_every_pose_and_roll():
    ball = [turntable.Ellipsoid(np.zeros(3), np.full(3, 0.5), np.eye(3))]
    images = turntable.grid_dataset(ball, 6, 3, 1.0, resolution=16)
    np.testing.assert_allclose(images, np.broadcast_to(images[0, 0], images.shape), atol=1e-9)


def test_poses_are_cyclic_and_distinct_for_an_asymmetric_object():
    obj = turntable.make_object(5)
    a, b = turntable.render(obj, 0.3), turntable.render(obj, 0.3 + 2 * np.pi)
    np.testing.assert_allclose(a, b, atol=1e-9)
    assert np.abs(turntable.render(obj, 0.3) - turntable.render(obj, 1.3)).max() > 0.2


def test_silhouette_area_is_invariant_to_in_plane_rotation_and_scales_with_size_squared():
    # (the shading is not: the light is fixed in the camera frame)
    obj = turntable.make_object(2)
    area = [((turntable.render(obj, 0.7, roll, resolution=64, blur=0.0) + 1) > 0).sum() for roll in (0.0, 0.9, 2.1)]
    assert np.ptp(area) / np.mean(area) < 0.03
    ball = [turntable.Ellipsoid(np.zeros(3), np.full(3, 0.4), np.eye(3))]
    silhouette = [((turntable.render(ball, 0.0, 0.0, s, resolution=64, blur=0.0) + 1) > 0).sum() for s in (1.0, 2.0)]
    assert silhouette[1] / silhouette[0] == pytest.approx(4.0, rel=0.05)


def test_objects_are_seeded_and_distinct():
    one, two = turntable.make_object(3), turntable.make_object(3)
    assert all(np.array_equal(a.centre, b.centre) and np.array_equal(a.axes, b.axes) for a, b in zip(one, two))
    assert not np.allclose(
        turntable.render(turntable.make_object(3), 0.0), turntable.render(turntable.make_object(4), 0.0)
    )


@pytest.mark.parametrize("name, n", [("circle", 32), ("sphere2", 16), ("torus", 16), ("sphere3", 12)])
def test_grid_metric_rank_is_the_intrinsic_dimension(name, n):
    toy = toys.make(name, D=8, seed=0)
    assert dimension.grid_dimension(toy, n) == toy.dim


def test_twonn_and_mle_are_close_but_not_exact_and_global_pca_sees_the_affine_hull():
    toy = toys.make("sphere2", D=8, seed=0)
    est = dimension.sample_estimates(toy, 1000, np.random.default_rng(0))
    assert abs(est["twonn"] - 2) < 0.3 and abs(est["mle"] - 2) < 0.3
    assert est["twonn"] != 2.0 and est["lpca"] == 3.0  # a 2-sphere spans a 3-D affine subspace
