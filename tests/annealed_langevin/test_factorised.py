"""The exactly solvable case: closed form vs ODE (the spec's 1e-9 oracle), recursions, KL, horizons."""

import numpy as np
import pytest

from icml26.annealed_langevin import factorised, spectra

# (lambda, c, p, tau0, S, kappa): ordinary, gamma close to 1, gamma = 1 exactly, huge gamma,
# misspecified, C = I with a tiny lambda, slow preconditioner.
CASES = [
    (0.25, 0.0625, 1.0, 10.0, 20.0, 1.0),
    (0.5, 1.0, 1.0, 10.0, 5.0 + 1e-9, 1.0),
    (0.5, 1.0, 1.0, 10.0, 5.0, 1.0),
    (1e-2, 1e-4, 1.0, 10.0, 50.0, 1.0),
    (0.25, 0.0625, 1.0, 10.0, 20.0, 1.1),
    (1e-4, 1.0, 1.0, 100.0, 200.0, 1.0),
    (1e-2, 1e-4, 1e-4, 10.0, 50.0, 1.1),
]


@pytest.mark.parametrize("lam,c,p,tau0,S,kappa", CASES)
def test_closed_form_matches_ode_solve(lam, c, p, tau0, S, kappa):
    closed = factorised.continuous_variance([lam], [c], [p], tau0, S, kappa)[0]
    ode = factorised.variance_ode(lam, c, p, tau0, S, kappa)
    assert abs(closed - ode) <= 1e-9 * max(1.0, abs(ode))


def test_closed_form_from_any_start_and_without_annealing():
    lam, c, p = np.array([0.3]), np.array([0.1]), np.array([2.0])
    for v0 in (0.01, 5.0):
        closed = factorised.continuous_variance(lam, c, p, 4.0, 3.0, v0=np.array([v0]))[0]
        assert closed == pytest.approx(factorised.variance_ode(0.3, 0.1, 2.0, 4.0, 3.0, v0=v0), rel=1e-9)
    # tau0 = 0: an OU process with a constant target, v = g + (v0 - g) exp(-2 p S / g).
    plain = factorised.continuous_variance(lam, c, p, 0.0, 3.0, v0=np.array([1.0]))[0]
    assert plain == pytest.approx(0.3 + 0.7 * np.exp(-2 * 2.0 * 3.0 / 0.3), rel=1e-14)


def test_exponential_recursion_converges_to_continuous_time():
    lam, c, p = spectra.power_law(20, 2), spectra.power_law(20, 4), np.ones(20)
    exact = factorised.continuous_variance(lam, c, p, 10.0, 30.0)
    errors = [
        np.max(np.abs(factorised.discrete_variance(lam, c, p, 10.0, 30.0, n, "exponential") - exact) / lam)
        for n in (100, 1000, 10000)
    ]
    assert errors[2] < errors[1] < errors[0] and errors[2] < 1e-3
    assert errors[1] / errors[2] == pytest.approx(10, rel=0.2)  # first order in h


def test_exponential_scheme_keeps_the_stationary_variance_at_any_step():
    lam = spectra.power_law(50, 2)
    v = factorised.discrete_variance(lam, np.ones(50), np.ones(50), 0.0, 100.0, 3, "exponential", v0=lam)
    np.testing.assert_allclose(v, lam, rtol=1e-14)


def test_euler_diverges_beyond_its_stability_limit():
    lam = np.array([1.0, 0.01])  # limit 2 lambda / p: 2 and 0.02
    v = factorised.discrete_variance(lam, np.ones(2), np.ones(2), 0.0, 2000.0, 2000, "euler", v0=lam)
    assert np.isfinite(v[0]) and v[1] == np.inf
    # stationary Euler variance of an OU step: g / (1 - a/2), a = p h / g
    assert v[0] == pytest.approx(1.0 / (1 - 0.5), rel=1e-12)


def test_gaussian_kl_and_dimension_sums():
    assert factorised.gaussian_kl(np.array([2.0]), np.array([1.0]))[0] == pytest.approx(0.5 * (1 - np.log(2)))
    assert factorised.gaussian_kl(np.array([1.0 + 1e-9]), np.array([1.0]))[0] == pytest.approx(0.25e-18, rel=1e-6)
    kl = np.array([100.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(factorised.kl_by_dimension(kl, [2, 3, 5]), [1.0, 3.0, 10.0])


def test_horizon_search_hits_the_target_or_reports_a_floor():
    d = 64
    lam, c, p = spectra.power_law(d, 2), np.ones(d), np.ones(d)
    s = factorised.horizon_for(0.05, lam, c, p, 10.0)
    assert factorised.coordinate_kl(lam, c, p, 10.0, s)[1:].sum() == pytest.approx(0.05, rel=1e-8)
    # a misspecified score has a KL floor of (d-1)(0.1 - ln 1.1)/2 > 0.05: unreachable
    assert factorised.horizon_for(0.05, lam, c, p, 10.0, kappa=1.1) == np.inf


def test_dimension_dependence_of_the_closed_form():
    """C = I: KL_j tends to a positive constant (linear growth); trace-class C: summable."""
    d = 4096
    lam = spectra.power_law(d, 2)
    identity = factorised.coordinate_kl(lam, np.ones(d), np.ones(d), 10.0, 50.0)
    gamma = 2 * 50.0 / 10.0
    assert identity[-1] == pytest.approx(0.5 * (1 / (gamma - 1) - np.log(gamma / (gamma - 1))), rel=1e-3)
    trace = factorised.coordinate_kl(lam, spectra.power_law(d, 4), np.ones(d), 10.0, 50.0)
    assert trace[1:].sum() < 1e-3 and trace[-1] < 1e-20
