"""The perturbative-stability measure against closed forms, and its verdict in each state."""

import numpy as np
import pandas as pd
import pytest

from icml26.annealed_langevin import factorised, perturbation, verdict
from icml26.common.claims import FAILS, HOLDS

LAM, C, P = np.array([1.0, 0.25, 0.04]), np.array([1.0, 0.0625, 0.0016]), np.array([1.0, 0.5, 0.2])


def test_own_size_is_the_kl_of_the_scaled_variance_where_the_perturbation_enters():
    init = perturbation.own_size(LAM, C, 10.0, 0.1, "initialisation")
    assert init == pytest.approx(0.5 * (0.1 - np.log(1.1)) * np.ones(3))  # a relative error: the same everywhere
    assert perturbation.own_size(LAM, C, 10.0, 0.0, "score") == pytest.approx(np.zeros(3))
    with pytest.raises(ValueError, match="kind must be one of"):
        perturbation.own_size(LAM, C, 10.0, 0.1, "noise")


def test_an_initial_error_decays_as_the_ode_says():
    """The perturbed run's final variance is the ODE's from the perturbed start (the oracle of factorised.py)."""
    v = factorised.continuous_variance(LAM, C, P, 10.0, 5.0, v0=(LAM + 10.0 * C) * 1.1)
    ode = [factorised.variance_ode(*args, 10.0, 5.0, v0=(args[0] + 10.0 * args[1]) * 1.1) for args in zip(LAM, C, P)]
    assert v == pytest.approx(ode, rel=1e-8)
    kl = perturbation.final_kl(LAM, C, P, 10.0, 5.0, 0.1, "initialisation")
    assert kl == pytest.approx(factorised.gaussian_kl(np.array(ode), LAM), rel=1e-6)


def test_amplification_limits_without_annealing():
    """tau0 = 0, started at the target: nothing moves in no time (an initial error is carried whole: 1), and a score
    error is reached in full after a long time (the stationary law is the score model's: 1)."""
    none = np.zeros(3)
    carried = perturbation.amplification(LAM, none, P, 0.0, 1e-9, 0.1, "initialisation", [2, 3])["amplification"]
    assert carried == pytest.approx([1.0, 1.0], rel=1e-6)
    reached = perturbation.amplification(LAM, none, P, 0.0, 1e4, 0.1, "score", [2, 3])["amplification"]
    assert reached == pytest.approx([1.0, 1.0], rel=1e-9)
    forgotten = perturbation.amplification(LAM, none, P, 0.0, 1e4, 0.1, "initialisation", [3])["amplification"]
    assert forgotten == pytest.approx([0.0], abs=1e-12)


def _table(trace_init, trace_score, identity_init, dims=(128, 1024)):
    rows = []
    for smoothing, values in (("trace_class", (trace_init, trace_score)), ("identity", (identity_init, 1.0))):
        for kind, a in zip(("initialisation", "score"), values):
            rows += [{"smoothing": smoothing, "kind": kind, "d": d, "amplification": a} for d in dims]
    return pd.DataFrame(rows)


def test_stability_holds_when_neither_perturbation_is_amplified_and_fails_otherwise():
    holds = verdict.stable_under_perturbation(_table(0.6, 1.02, 40.0), trace_class="trace_class", eta=0.1)
    assert holds.state == HOLDS and holds.measured["identity_initialisation_amplification_d1024"] == 40.0
    assert holds.measured["score_amplification_ratio_d1024_over_d128"] == 1.0  # reported beside, not decided
    amplified = verdict.stable_under_perturbation(_table(0.6, 1.5, 1.0), trace_class="trace_class", eta=0.1)
    assert amplified.state == FAILS and amplified.measured["score_worst_amplification"] == 1.5
    undefined = verdict.stable_under_perturbation(_table(float("nan"), 0.5, 1.0), trace_class="trace_class", eta=0.1)
    assert undefined.state == FAILS  # a NaN amplification is never read as stable
