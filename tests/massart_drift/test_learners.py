"""The 2-D learners, the d-dimensional stream and the scaling fits."""

import numpy as np
import pandas as pd
import pytest

from icml26.massart_drift import circle, scaling, sphere, streams


def test_erm_finds_a_maximal_agreement_halfspace():
    rng = np.random.default_rng(0)
    phi, y = circle.windows(rng, 20, 40, 0.01, 0.2)
    theta = circle.erm_angle(phi, y)
    grid = np.linspace(0, 2 * np.pi, 40001)
    for r in range(20):
        agree = (np.where(np.cos(phi[r][None] - grid[:, None]) >= 0, 1, -1) == y[r][None]).sum(1)
        ours = (np.where(np.cos(phi[r] - theta[r]) >= 0, 1, -1) == y[r]).sum()
        assert ours == agree.max()


def test_noiseless_static_window_is_learned_by_both():
    phi, y = circle.windows(np.random.default_rng(1), 50, 2000, 0.0, 0.0)
    averaging = np.abs(np.angle(np.exp(1j * circle.averaging_angle(phi, y))))
    erm = np.abs(np.angle(np.exp(1j * circle.erm_angle(phi, y))))
    # averaging jitters by sigma = sqrt(1/2) / ((2/pi) sqrt(W)) = 0.025; a consistent halfspace by ~pi/W
    assert averaging.mean() == pytest.approx(0.025 * np.sqrt(2 / np.pi), rel=0.25)
    assert erm.max() < 10 * np.pi / 2000


def test_loglog_slope_recovers_a_power_law():
    x = np.logspace(-5, -2, 6)
    assert scaling.loglog_slope(x, 3 * x**0.42) == pytest.approx(0.42)


def test_best_windows_and_slopes_on_a_synthetic_sweep():
    rows = []  # excess = Delta^(1/3) (1 + 0.01 seed) (1 + mismatch^2), least at W = Delta^(-2/3)
    for seed in (0, 1, 2):
        for Delta in (10**-4.5, 1e-3, 10**-1.5):
            for W in (10, 100, 1000):
                mismatch = np.log10(W) + np.log10(Delta) * 2 / 3
                rows.append(
                    {
                        "learner": "averaging",
                        "seed": seed,
                        "Delta": Delta,
                        "W": W,
                        "excess": Delta ** (1 / 3) * (1 + 0.01 * seed) * (1 + mismatch**2),
                    }
                )
    best = scaling.best_windows(pd.DataFrame(rows))
    assert list(best["W_star"][:3]) == [1000, 100, 10]
    table = scaling.slopes(best)
    excess = table[table["quantity"] == "min_excess"].iloc[0]
    window = table[table["quantity"] == "W_star"].iloc[0]
    assert excess.slope == pytest.approx(1 / 3, abs=1e-9) and window.slope == pytest.approx(-2 / 3, abs=1e-9)
    assert excess.ci_low == pytest.approx(excess.slope) == pytest.approx(excess.ci_high)  # seeds agree exactly


def test_sweep_rejects_unknown_learner():
    with pytest.raises(ValueError, match="unknown learner"):
        scaling.sweep("svm", Deltas=[1e-3], windows=[10], eta=0.2, reps=2, seeds=[0])


def test_massart_noise_is_bounded_by_eta_and_varies():
    x = sphere.uniform_sphere(np.random.default_rng(2), 10_000, 10)
    rate = sphere.noise_rate(x, 0.2)
    assert rate.min() >= 0 and rate.max() <= 0.2 and rate.std() > 0.03


def test_samples_respect_the_margin_and_target_error_is_below_eta():
    rng = np.random.default_rng(3)
    w = sphere.target(5, 0.1, 10)
    xs = np.array([sphere.draw(rng, w, 0.1, 0.2)[0] for _ in range(500)])
    assert np.abs(xs @ w).min() >= 0.1
    x_test = sphere.uniform_sphere(rng, 20_000, 10)
    assert 0 < sphere.bayes_error(w, x_test, 0.1, 0.2) < 0.2
    assert sphere.test_error(-w, w, x_test, 0.1, 0.2) == pytest.approx(1 - sphere.bayes_error(w, x_test, 0.1, 0.2))


def test_trace_is_deterministic_and_has_every_learner():
    kwargs = dict(
        seed=7,
        d=5,
        eta=0.2,
        gamma=0.1,
        Delta=1e-3,
        rounds=200,
        eval_every=50,
        window_scale=1.0,
        small_window=10,
        n_test=2000,
        perspectron_params=dict(lam=0.2, step=0.5, iterations=5, clip=0.05),
    )
    a, b = streams.trace(**kwargs), streams.trace(**kwargs)
    assert a == b
    assert {r["learner"] for r in a} == {"averaging", "perspectron", "no_forgetting", "small_window"}
    assert len(a) == 4 * 4
