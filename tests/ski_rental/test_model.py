"""The cost model and its exact oracles."""

import numpy as np
import pytest

from icml26.ski_rental.deterministic import best_worst_case_threshold
from icml26.ski_rental.model import SkiRental


def random_distribution(rng, n):
    return rng.dirichlet(np.full(n, rng.choice([0.05, 0.5, 2.0])))


@pytest.mark.parametrize("B", [2, 3, 7, 20])
def test_prefix_sum_ecr_equals_bruteforce(B):
    rng = np.random.default_rng(B)
    problem = SkiRental(B, 10 * B)
    for _ in range(20):
        p = random_distribution(rng, problem.N)
        np.testing.assert_allclose(problem.ecr_all(p), problem.ecr_all_bruteforce(p), rtol=1e-12, atol=0)


def test_costs_follow_the_definition():
    problem = SkiRental(B=5, N=12)
    A = problem.alg_matrix()
    # threshold 3: rents on days 1, 2, buys at the start of day 3 for total 2 + 5
    assert A[0, 2] == 1 and A[1, 2] == 2 and A[2, 2] == 7 and A[11, 2] == 7
    # never buying (x = N+1) pays T
    np.testing.assert_array_equal(A[:, -1], problem.days)
    np.testing.assert_array_equal(problem.opt(), np.minimum(problem.days, 5))


@pytest.mark.parametrize("B,N", [(2, 2), (5, 50), (20, 200), (13, 40)])
def test_closed_form_worst_case_equals_matrix_maximum(B, N):
    problem = SkiRental(B, N)
    np.testing.assert_allclose(problem.worst_ratios(), problem.ratio_matrix().max(axis=0), rtol=1e-14)


@pytest.mark.parametrize("B", [2, 5, 20, 50])
def test_best_deterministic_worst_case_is_two_minus_one_over_B(B):
    x, worst = best_worst_case_threshold(SkiRental(B, 10 * B))
    assert x == B
    assert worst == pytest.approx(2 - 1 / B, abs=1e-15)


def test_point_mass_policy_matches_deterministic_threshold():
    rng = np.random.default_rng(0)
    problem = SkiRental(8, 80)
    p = random_distribution(rng, problem.N)
    for x in (1, 8, 30, 81):
        q = problem.point_mass(x)
        assert problem.randomized_ecr(q, p) == pytest.approx(problem.ecr(x, p), rel=1e-12)
        assert problem.randomized_worst_ratio(q) == pytest.approx(problem.worst_ratio(x), rel=1e-12)


def test_ratio_of_expectations_for_buy_at_B_under_a_point_mass():
    problem = SkiRental(10, 100)
    p = np.zeros(100)
    p[29] = 1.0  # T = 30: buy-at-B pays 9 + 10, OPT pays 10
    assert problem.ratio_of_expectations(10, p) == pytest.approx(1.9)


@pytest.mark.parametrize("B,N", [(1, 10), (5, 4), (2.5, 10)])
def test_invalid_sizes_are_rejected(B, N):
    with pytest.raises(ValueError):
        SkiRental(B, N)


def test_invalid_distribution_is_rejected():
    problem = SkiRental(5, 10)
    with pytest.raises(ValueError, match="length"):
        problem.ecr_all(np.ones(9) / 9)
    with pytest.raises(ValueError, match="sum to 1"):
        problem.ecr_all(np.ones(10))


def test_linear_time_expected_cost_equals_the_matrix_product():
    rng = np.random.default_rng(11)
    for B in (2, 9, 30):
        problem = SkiRental(B, 7 * B)
        for _ in range(10):
            q = rng.dirichlet(np.full(problem.N + 1, 0.2))
            np.testing.assert_allclose(problem.expected_cost(q), problem.expected_cost_bruteforce(q), rtol=1e-12)
