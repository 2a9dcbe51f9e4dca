"""The spec's exact oracles: disagreement = angle/pi, the drift formula, the averaging learner's excess."""

import numpy as np
import pytest

from icml26.massart_drift import circle, geometry, sphere, theory


@pytest.mark.parametrize("angle", [0.05, 0.7, 1.5, 3.0])
def test_disagreement_of_two_halfspaces_is_angle_over_pi(angle):
    rng = np.random.default_rng(0)
    n = 400_000
    phi = rng.uniform(0, 2 * np.pi, n)  # rotation-invariant marginal on the circle
    mc = np.mean(np.sign(np.cos(phi)) != np.sign(np.cos(phi - angle)))
    assert geometry.disagreement(angle) == pytest.approx(angle / np.pi)
    assert abs(mc - angle / np.pi) < 5 * np.sqrt(0.25 / n)


def test_disagreement_in_ten_dimensions_is_angle_over_pi():
    rng = np.random.default_rng(1)
    x = sphere.uniform_sphere(rng, 400_000, 10)
    u, v = sphere.target(0, 0.3, 10), sphere.target(2, 0.3, 10)  # 0.6 rad apart
    mc = np.mean(np.sign(x @ u) != np.sign(x @ v))
    assert abs(mc - 0.6 / np.pi) < 5 * np.sqrt(0.25 / len(x))


def test_rotating_target_drifts_by_Delta_exactly():
    eta, delta = 0.2, 0.01
    assert geometry.drift_rate(delta, eta) == pytest.approx((1 - 2 * eta) * delta / np.pi)
    # the excess error of last round's target, measured against this round's, is Delta
    assert geometry.excess_error(delta, eta) == pytest.approx(geometry.drift_rate(delta, eta))
    assert geometry.rotation_for_drift(geometry.drift_rate(delta, eta), eta) == pytest.approx(delta)


def test_excess_error_under_rcn_matches_simulation():
    rng = np.random.default_rng(2)
    eta, angle, n = 0.2, 0.4, 400_000
    phi = rng.uniform(0, 2 * np.pi, n)
    clean = np.sign(np.cos(phi))
    noisy = np.where(rng.random(n) < eta, -clean, clean)
    err_h = np.mean(np.sign(np.cos(phi - angle)) != noisy)
    err_target = np.mean(clean != noisy)
    assert abs((err_h - err_target) - geometry.excess_error(angle, eta)) < 0.005


def test_folded_normal_mean_limits():
    assert theory.folded_normal_mean(0.0, 1.0) == pytest.approx(np.sqrt(2 / np.pi))
    assert theory.folded_normal_mean(10.0, 1e-3) == pytest.approx(10.0)
    rng = np.random.default_rng(3)
    z = rng.standard_normal(1_000_000)
    assert theory.folded_normal_mean(0.7, 1.3) == pytest.approx(np.abs(0.7 + 1.3 * z).mean(), rel=3e-3)


@pytest.mark.parametrize("Delta,W", [(1e-4, 200), (1e-4, 1000), (1e-3, 100)])
def test_averaging_learner_matches_its_semi_analytic_excess(Delta, W):
    """Within 5 %: the formula linearises the angle (small-angle, Gaussian) approximations."""
    eta = 0.2
    delta = geometry.rotation_for_drift(Delta, eta)
    phi, y = circle.windows(np.random.default_rng(4), 4000, W, delta, eta)
    mc = geometry.excess_error(circle.averaging_angle(phi, y), eta).mean()
    assert mc == pytest.approx(float(theory.averaging_excess(W, delta, eta)), rel=0.05)


def test_semi_analytic_optimum_scales_with_exponents_one_third_and_minus_two_thirds():
    from icml26.massart_drift.scaling import loglog_slope

    W = np.arange(2, 200_000)
    Deltas = np.logspace(-7, -4, 4)
    best = [theory.averaging_excess(W, geometry.rotation_for_drift(D, 0.2), 0.2) for D in Deltas]
    assert loglog_slope(Deltas, [b.min() for b in best]) == pytest.approx(1 / 3, abs=0.005)
    assert loglog_slope(Deltas, [W[b.argmin()] for b in best]) == pytest.approx(-2 / 3, abs=0.01)
