"""Optimal threshold and the Clamp Policy's guarantees."""

import numpy as np
import pytest

from icml26.ski_rental import deterministic as det
from icml26.ski_rental.model import SkiRental


def test_optimal_threshold_is_the_argmin_of_the_bruteforce_ecr():
    rng = np.random.default_rng(1)
    for B in (3, 10, 25):
        problem = SkiRental(B, 10 * B)
        for _ in range(10):
            p = rng.dirichlet(np.full(problem.N, 0.3))
            x = det.optimal_threshold(problem, p)
            assert problem.ecr_all_bruteforce(p)[x - 1] == pytest.approx(problem.ecr_all_bruteforce(p).min(), rel=1e-12)


def test_point_mass_beyond_B_buys_on_day_one_and_short_season_never_buys():
    problem = SkiRental(10, 100)
    long_season = np.zeros(100)
    long_season[49] = 1
    assert det.optimal_threshold(problem, long_season) == 1  # ratio 1: buy at once
    short = np.zeros(100)
    short[3] = 1
    assert problem.ecr(det.optimal_threshold(problem, short), short) == pytest.approx(1.0)


def test_clamp_with_lambda_one_is_buy_at_B():
    rng = np.random.default_rng(2)
    for B in (2, 7, 40):
        problem = SkiRental(B, 10 * B)
        p_hat = rng.dirichlet(np.ones(problem.N))
        x = det.clamp_threshold(problem, p_hat, 1.0)
        assert x == B
        assert problem.worst_ratio(x) == pytest.approx(2 - 1 / B)


@pytest.mark.parametrize("seed", range(5))
def test_clamp_robustness_and_consistency_bounds_on_random_pairs(seed):
    """Robustness < 1 + 1/lam for all T; ECR(x_lam; p) <= (1 + lam) ECR(x*(p_hat); p) for any p."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        B = int(rng.integers(2, 60))
        problem = SkiRental(B, int(rng.integers(B, 12 * B)))
        p_hat = rng.dirichlet(np.full(problem.N, rng.choice([0.05, 0.5, 3.0])))
        p = rng.dirichlet(np.full(problem.N, rng.choice([0.05, 0.5, 3.0])))
        lam = float(rng.uniform(0.01, 1.0))
        x = det.clamp_threshold(problem, p_hat, lam)
        assert problem.worst_ratio(x) < 1 + 1 / lam
        x_star = det.optimal_threshold(problem, p_hat)
        assert problem.ecr(x, p) <= (1 + lam) * problem.ecr(x_star, p) * (1 + 1e-12)


def test_clamp_range_rounds_products_that_are_integers_in_exact_arithmetic():
    assert det.clamp_range(SkiRental(50, 500), 0.1) == (5, 500)
    assert det.clamp_range(SkiRental(10, 30), 0.3) == (3, 31)  # floor(33.3) clipped to N+1


def test_clamp_rejects_lambda_outside_unit_interval():
    problem = SkiRental(5, 50)
    with pytest.raises(ValueError, match="lambda"):
        det.clamp_threshold(problem, np.ones(50) / 50, 0.0)
    with pytest.raises(ValueError, match="lambda"):
        det.clamp_threshold(problem, np.ones(50) / 50, 1.5)
