"""The spec's exact oracles for the finite-difference estimators, and the grid machinery."""

import numpy as np
import pytest

from icml26.manifold_microscope import baselines, geometry, toys
from icml26.manifold_microscope.grid import Grid, derivative, integrate


@pytest.mark.parametrize("order", [2, 4])
@pytest.mark.parametrize("cyclic", [False, True])
def test_derivatives_converge_at_their_order(order, cyclic):
    errors = []
    for n in (40, 80):
        x = np.arange(n) * 2 * np.pi / n if cyclic else np.linspace(0, 2, n)
        d = derivative(np.sin(x)[:, None], 0, x[1] - x[0], cyclic, order)[:, 0]
        errors.append(np.abs(d - np.cos(x)).max())
    assert np.log2(errors[0] / errors[1]) == pytest.approx(order, abs=0.35)


def test_integration_is_exact_for_constants_and_periodic_trigonometry():
    grid = Grid((0.1, 2 * np.pi / 50), (False, True))
    assert integrate(np.ones((11, 50)), grid) == pytest.approx(1.0 * 2 * np.pi)
    v = np.arange(50) * 2 * np.pi / 50
    assert integrate(np.cos(v)[None, :].repeat(11, 0), grid) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("dim,radius", [(2, 1.0), (2, 2.5), (3, 1.5)])
def test_n_sphere_scalar_curvature_volume_and_reach(dim, radius):
    sphere = toys.sphere(dim, radius=radius, margin=0.4, D=7)
    F, grid, _ = sphere.on_grid(48 if dim == 2 else 28)
    g = geometry.metric(F, grid)
    S = geometry.scalar_curvature(g, grid)
    inner = tuple(slice(4, -4) if not c else slice(None) for c in grid.cyclic)  # away from the band edges
    np.testing.assert_allclose(S[inner], dim * (dim - 1) / radius**2, rtol=2e-3)
    assert geometry.total_volume(g, grid) == pytest.approx(sphere.volume, rel=2e-3)
    sample = [(3, 5) if dim == 2 else (3, 4, 5), (10, 40) if dim == 2 else (10, 12, 30)]
    np.testing.assert_allclose(geometry.reach(F, grid, sample), radius, rtol=1e-6)


def test_two_sphere_area_formula_tends_to_four_pi_r_squared():
    assert toys.sphere(2, radius=2.0, margin=1e-9).volume == pytest.approx(4 * np.pi * 4.0, rel=1e-8)


def test_torus_curvature_area_reach_and_gauss_bonnet():
    R, r = 3.0, 1.0
    torus = toys.torus(R, r, D=9, seed=3)
    F, grid, _ = torus.on_grid(48)
    g = geometry.metric(F, grid)
    u, v = torus.axes(48)
    gauss = np.cos(v) / (r * (R + r * np.cos(v)))
    np.testing.assert_allclose(geometry.scalar_curvature(g, grid), 2 * gauss[None, :].repeat(u.size, 0), atol=1e-5)
    assert geometry.total_volume(g, grid) == pytest.approx(4 * np.pi**2 * R * r, rel=1e-5)
    assert geometry.total_curvature(g, grid) == pytest.approx(0.0, abs=1e-4)  # vs volume * mean|S| ~ 40
    assert geometry.reach(F, grid, [(0, 0), (10, 48), (50, 20)]).min() == pytest.approx(min(r, R - r), rel=1e-9)


def test_circle_reach_is_length_over_two_pi():
    L = 7.0
    circle = toys.circle(radius=L / (2 * np.pi), D=5)
    F, grid, _ = circle.on_grid(64)
    np.testing.assert_allclose(geometry.reach(F, grid), L / (2 * np.pi), rtol=1e-9)
    assert geometry.total_volume(geometry.metric(F, grid), grid) == pytest.approx(L, rel=1e-6)


def test_chunked_metric_equals_the_direct_one_on_a_4d_image_like_grid():
    rng = np.random.default_rng(0)
    shape, D = (8, 6, 7, 7), 300
    axes = [np.linspace(0, 1, n) for n in shape]
    mesh = np.stack(np.meshgrid(*axes, indexing="ij"), -1)
    W = rng.standard_normal((4, D))
    F = np.sin(mesh @ W)  # a smooth map into R^300
    grid = Grid(tuple(a[1] - a[0] for a in axes), (False, True, False, False))
    direct = np.einsum("...di,...dj->...ij", geometry.jacobian(F, grid), geometry.jacobian(F, grid))
    np.testing.assert_allclose(geometry.metric(F, grid, max_bytes=1), direct, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(geometry.metric(F, grid), direct, rtol=1e-12, atol=1e-12)
    J = geometry.jacobian(F, grid)
    for index in [(0, 0, 0, 0), (3, 5, 2, 4), (6, 1, 4, 0), (7, 2, 1, 5)]:
        np.testing.assert_allclose(geometry.jacobian_at(F, grid, index), J[index], rtol=1e-12, atol=1e-12)


def test_grid_validation():
    with pytest.raises(ValueError, match="one entry per axis"):
        Grid((0.1,), (True, False))
    with pytest.raises(ValueError, match="needs at least"):
        derivative(np.zeros((3, 1)), 0, 0.1, False, 4)
    with pytest.raises(ValueError, match="smaller than the embedding"):
        toys.sphere(3, D=3).on_grid(8)


def test_local_pca_baseline_is_right_on_average_but_noisy():
    X, S = toys.sphere(2, margin=0.2, D=3).at_random(4000, np.random.default_rng(1))
    estimate = baselines.scalar_curvature(X, 2, 30)
    assert np.median(estimate) == pytest.approx(2.0, rel=0.05)
    assert np.abs(estimate - 2).mean() > 1e-3  # far from the grid estimator's accuracy


@pytest.mark.parametrize("order,exact_degree", [(2, 4), (4, 6)])
def test_one_sided_end_stencils_are_exact_for_polynomials_two_orders_above_the_interior(order, exact_degree):
    x = np.arange(12) * 0.3
    ends = [0, 1, -2, -1] if order == 4 else [0, -1]  # the rows that use them
    for degree in range(exact_degree + 1):
        d = derivative((x**degree)[:, None], 0, 0.3, False, order)[ends, 0]
        np.testing.assert_allclose(d, degree * x[ends] ** max(degree - 1, 0), rtol=1e-9, atol=1e-9)
    d = derivative((x ** (exact_degree + 1))[:, None], 0, 0.3, False, order)[:, 0]
    assert abs(d[0]) > 1e-3  # one degree more and the end stencil is no longer exact (the slope at 0 is 0)


def test_gregory_quadrature_is_exact_for_cubics_and_converges_at_order_four():
    x = np.linspace(0.0, 2.0, 9)
    grid = Grid((x[1] - x[0],), (False,))
    assert integrate(x**3 - x, grid) == pytest.approx(4.0 - 2.0, abs=1e-13)
    assert abs(integrate(x**3 - x, grid, order=2) - 2.0) > 1e-2  # the trapezoid rule is not
    errors = []
    for n in (21, 41, 81):
        x = np.linspace(0.0, 2.0, n)
        errors.append(abs(integrate(np.exp(x), Grid((x[1] - x[0],), (False,))) - (np.e**2 - 1)))
    assert np.log2(errors[0] / errors[1]) > 3.8 and np.log2(errors[1] / errors[2]) > 3.8


@pytest.mark.parametrize("order,first,bound", [(2, 2, 1.5e-3), (4, 1, 2e-3)])
def test_sphere_grid_through_the_poles_excludes_exactly_the_pole_rows(order, first, bound):
    """Away from the excluded pole rows the error falls like h^2 from row ``first`` on; at order 2 the row
    next to a pole keeps an O(1) error (9-12 % of S, documented: use order 4 near singular points)."""
    sphere = toys.sphere(2, radius=2.0, margin=0.0, D=7)
    errors, totals = [], []
    for n in (32, 64):
        F, grid, S_true = sphere.on_grid(n)
        g = geometry.metric(F, grid, order)
        excluded = np.argwhere(~geometry.regular(g))
        assert sorted(set(excluded[:, 0])) == [0, n - 1] and len(excluded) == 2 * 2 * n  # every pole-row point
        S = geometry.scalar_curvature(g, grid, order)
        assert np.isnan(S[[0, -1]]).all() and np.isfinite(S[1:-1]).all()
        assert np.abs(S - S_true)[1:-1].max() < 0.15 * S_true.max()
        errors.append(np.abs(S - S_true)[first : n - first].max())
        totals.append(abs(geometry.total_curvature(g, grid, order) - 8 * np.pi))
        tau = geometry.reach(F, grid, [(0, 3), (1, 3), (n // 2, 7)], order)
        assert np.isnan(tau[0]) and tau[1:] == pytest.approx(2.0, rel=2e-2)
    assert errors[1] <= bound and errors[1] < errors[0] / 3
    assert totals[1] < totals[0] / 3 and totals[1] / (8 * np.pi) < (1e-5 if order == 4 else 5e-3)


@pytest.mark.parametrize("a,b", [(2.0, 1.0), (1.0, 2.0)])
def test_closed_oblate_and_prolate_spheroids_area_gauss_bonnet_and_reach(a, b):
    e = np.sqrt(1 - min(a, b) ** 2 / max(a, b) ** 2)
    area = (
        2 * np.pi * a**2 * (1 + (1 - e**2) / e * np.arctanh(e))
        if a > b
        else 2 * np.pi * a**2 * (1 + b / (a * e) * np.arcsin(e))
    )
    spheroid = toys.spheroid(a, b, margin=0.0, D=6)
    assert spheroid.volume == pytest.approx(area, rel=1e-10) and spheroid.total_curvature == pytest.approx(8 * np.pi)
    assert spheroid.reach == pytest.approx(0.5)  # b^2 / a (oblate), a^2 / b (prolate)
    F, grid, _ = spheroid.on_grid(64)
    g = geometry.metric(F, grid)
    assert geometry.total_volume(g, grid) == pytest.approx(area, rel=3e-6)
    assert geometry.total_curvature(g, grid) == pytest.approx(8 * np.pi, rel=1e-4)
    tau = geometry.reach(F, grid, [(i, j) for i in (0, 1, 2, 16, 32, 63) for j in (0, 5)])
    assert np.isnan(tau[:2]).all() and np.isnan(tau[-2:]).all()
    assert np.nanmin(tau) == pytest.approx(0.5, rel=5e-3)


def test_volume_and_total_curvature_converge_at_order_four_on_a_spheroid_band():
    band = toys.spheroid(2.0, 1.0, margin=0.3, D=5)
    volume, curvature = [], []
    for n in (24, 48, 96):
        F, grid, _ = band.on_grid(n)
        g = geometry.metric(F, grid)
        volume.append(abs(geometry.total_volume(g, grid) - band.volume))
        curvature.append(abs(geometry.total_curvature(g, grid) - band.total_curvature))
    for errors in (volume, curvature):
        assert min(np.log2(errors[0] / errors[1]), np.log2(errors[1] / errors[2])) >= 3.5


def test_flat_torus_in_r4_is_flat_with_area_four_pi_squared_r1_r2():
    torus = toys.flat_torus(1.0, 0.5, D=6)
    F, grid, _ = torus.on_grid(32)
    g = geometry.metric(F, grid)
    assert np.abs(geometry.scalar_curvature(g, grid)).max() < 1e-9
    assert geometry.total_volume(g, grid) == pytest.approx(4 * np.pi**2 * 0.5, rel=1e-5)
    assert geometry.reach(F, grid, [(0, 0), (5, 9), (20, 40)]) == pytest.approx(0.5, rel=1e-9)


@pytest.mark.parametrize(("name", "options", "n"), [("torus", {}, 24), ("sphere3", {}, 12)])
def test_pairwise_contractions_equal_the_naive_formula(name, options, n):
    """The Ricci terms contracted pairwise (numpy's optimize, a matmul) give the one-shot einsum's values to
    round-off (issue 67: the naive order cost O(n^5) per point)."""
    from benchmarks.manifold_curvature import naive_scalar_curvature

    from icml26.manifold_microscope import toys

    F, grid, exact = toys.make(name, **options).on_grid(n)
    g = geometry.metric(F, grid)
    fast, naive = geometry.scalar_curvature(g, grid), naive_scalar_curvature(g, grid)
    assert np.isnan(fast).sum() == np.isnan(naive).sum()
    scale = np.nanmax(np.abs(naive))
    assert np.nanmax(np.abs(fast - naive)) <= 1e-12 * scale
