"""Mixture scores (autograd oracle), the exponential step (exact for a Gaussian), particle consistency."""

import numpy as np
import pytest
import torch

from icml26.annealed_langevin import factorised, integrators, particles, spectra
from icml26.annealed_langevin.mixture import GaussianMixture


def _mixture(d=5, seed=0):
    rng = np.random.default_rng(seed)
    return GaussianMixture(np.array([0.2, 0.3, 0.5]), rng.normal(0, 2, (3, d)), rng.uniform(0.2, 2.0, (3, d)))


def test_score_matches_autograd_of_log_density():
    mix = _mixture()
    c = spectra.power_law(5, 4)
    x = np.random.default_rng(1).normal(0, 3, (7, 5))
    for t in (0.0, 0.5, 20.0):
        smoothed = mix.smoothed(t, c)
        xt = torch.tensor(x, requires_grad=True)
        var = torch.tensor(smoothed.variances)
        comp = torch.log(torch.tensor(smoothed.weights))[None, :] - 0.5 * (
            ((xt[:, None, :] - torch.tensor(smoothed.means)) ** 2 / var).sum(-1) + torch.log(2 * torch.pi * var).sum(-1)
        )
        torch.logsumexp(comp, dim=1).sum().backward()
        np.testing.assert_allclose(smoothed.score(x), xt.grad.numpy(), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(smoothed.log_density(x), torch.logsumexp(comp, 1).detach().numpy(), rtol=1e-12)


def test_responsibilities_average_to_the_weights_on_exact_samples():
    mix = _mixture()
    x = mix.sample(200_000, np.random.default_rng(2))
    w = particles.mode_weights(mix, x)
    se = np.sqrt(mix.weights * (1 - mix.weights) / x.shape[0])
    assert np.all(np.abs(w - mix.weights) < 4 * se)
    mean, var = mix.moment_matched()
    np.testing.assert_allclose(x.mean(0), mean, atol=4 * np.sqrt(var.max() / x.shape[0]))


def test_exponential_step_is_exact_for_a_single_gaussian():
    """Mean m + e^{-ph/A}(x - m) and variance A (1 - e^{-2ph/A}) after one step from a point."""
    m, A, p, h = np.array([0.7, -1.0]), np.array([0.3, 2.0]), np.array([0.5, 1.5]), 0.4
    gauss = GaussianMixture(np.array([1.0]), m[None], A[None])
    x = np.array([[2.0, 3.0]])
    H, b = gauss.linearised_score(x)
    mean = integrators.exponential_step(x, H, b, p, h, np.zeros_like(x))[0]
    np.testing.assert_allclose(mean, m + np.exp(-p * h / A) * (x[0] - m), rtol=1e-14)
    std = integrators.exponential_step(x, H, b, p, h, np.ones_like(x))[0] - mean
    np.testing.assert_allclose(std**2, A * (1 - np.exp(-2 * p * h / A)), rtol=1e-12)
    # and in distribution, from N(m, A) the law is unchanged by any step size
    rng = np.random.default_rng(3)
    x0 = m + np.sqrt(A) * rng.standard_normal((200_000, 2))
    H, b = gauss.linearised_score(x0)
    x1 = integrators.exponential_step(x0, H, b, p, 5.0, rng.standard_normal(x0.shape))
    np.testing.assert_allclose(x1.var(0) / A, 1, atol=0.02)


def test_particles_follow_the_factorised_recursion():
    """The particle code path on a factorised problem reproduces the per-coordinate variance recursion."""
    d, n, tau0, S, steps = 6, 40_000, 5.0, 10.0, 20
    lam, c, p = spectra.power_law(d, 2), spectra.power_law(d, 4), spectra.power_law(d, 1)
    means = np.zeros((2, d))
    means[:, 0] = [-3.0, 3.0]
    target = GaussianMixture(np.array([0.4, 0.6]), means, np.vstack([lam, lam]))
    rng = np.random.default_rng(4)
    x0 = particles.initial_particles("smoothed_gaussian", target.smoothed(tau0, c), n, rng)
    for scheme in integrators.SCHEMES:
        x = integrators.run(target, c, p, integrators.Schedule(tau0, S, steps), x0, scheme, rng)
        expected = factorised.discrete_variance(lam, c, p, tau0, S, steps, scheme)
        ratio = x[:, 1:].var(0) / expected[1:]
        assert np.all(np.abs(ratio - 1) < 4 * np.sqrt(2 / n)), (scheme, ratio)


def test_plain_langevin_stays_in_its_mode_and_annealing_does_not():
    target = particles.make_problem(
        4, alpha=1.0, weights=[0.3, 0.7], centres=[-8.0, 8.0], offset_scale=0.5, covariance_spread=[0.0, 0.2], seed=0
    )
    c, p = spectra.power_law(4, 4), spectra.power_law(4, 2)
    rng = np.random.default_rng(5)
    stuck = integrators.run(
        target,
        c,
        p,
        integrators.Schedule(0.0, 50.0, 100),
        particles.initial_particles("mode", target, 2000, rng),
        "exponential",
        rng,
    )
    assert particles.mode_weights(target, stuck)[0] > 0.99
    x0 = particles.initial_particles("smoothed_gaussian", target.smoothed(100.0, c), 2000, rng)
    annealed = integrators.run(target, c, p, integrators.Schedule(100.0, 200.0, 400), x0, "exponential", rng)
    assert particles.total_variation(particles.mode_weights(target, annealed), target.weights) < 0.05


def test_problem_is_nested_in_dimension_and_validated():
    kw = dict(
        alpha=1.0, weights=[0.5, 0.5], centres=[-1.0, 1.0], offset_scale=1.0, covariance_spread=[0.0, 0.1], seed=7
    )
    small, large = particles.make_problem(5, **kw), particles.make_problem(50, **kw)
    np.testing.assert_array_equal(large.means[:, :5], small.means)
    np.testing.assert_array_equal(large.variances[:, :5], small.variances)
    with pytest.raises(ValueError, match="one entry per component"):
        particles.make_problem(5, **{**kw, "centres": [0.0]})
    with pytest.raises(ValueError, match="sum to one"):
        GaussianMixture(np.array([0.5, 0.6]), np.zeros((2, 2)), np.ones((2, 2)))


def test_per_mode_errors_vanish_in_expectation_for_exact_samples():
    mix = _mixture(d=3)
    x = mix.sample(400_000, np.random.default_rng(6))
    errors = particles.per_mode_errors(mix, x)
    assert np.all(errors["kl"] < 1e-3) and np.all(errors["w2"] < 1e-2)
