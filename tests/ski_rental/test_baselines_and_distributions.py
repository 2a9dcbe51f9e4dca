"""Point-prediction baselines, predicted families and perturbations."""

import numpy as np
import pytest

from icml26.ski_rental import baselines, distributions
from icml26.ski_rental.model import SkiRental


def test_point_statistics_of_a_known_distribution():
    problem = SkiRental(5, 10)
    p = np.zeros(10)
    p[[1, 2, 8]] = [0.2, 0.5, 0.3]  # T = 2, 3, 9
    assert baselines.point_prediction(problem, p, "mean") == pytest.approx(0.4 + 1.5 + 2.7)
    assert baselines.point_prediction(problem, p, "median") == 3
    assert baselines.point_prediction(problem, p, "mode") == 3
    with pytest.raises(ValueError, match="unknown point statistic"):
        baselines.point_prediction(problem, p, "max")


@pytest.mark.parametrize("lam", [0.1, 0.25, 0.5, 1.0])
def test_purohit_deterministic_is_within_its_robustness_bound(lam):
    problem = SkiRental(20, 400)
    for y in (5.0, 19.0, 20.0, 200.0):
        x = baselines.purohit_deterministic(problem, y, lam)
        assert problem.worst_ratio(x) <= 1 + 1 / lam + 1e-12
        assert x == (int(np.ceil(lam * 20)) if y >= 20 else int(np.ceil(20 / lam)))


@pytest.mark.parametrize("lam", [0.2, 0.5, 1.0])
def test_purohit_randomized_meets_its_robustness_bound(lam):
    """Purohit et al. Thm 3.3: robustness <= (1 + 1/B) / (1 - exp(-(lam - 1/B)))."""
    B = 50
    problem = SkiRental(B, 20 * B)
    bound = (1 + 1 / B) / (1 - np.exp(-(lam - 1 / B)))
    for y in (10.0, 500.0):
        q = baselines.purohit_randomized(problem, y, lam)
        assert problem.randomized_worst_ratio(q) <= bound


@pytest.mark.parametrize("name", distributions.FAMILIES)
def test_families_are_distributions_on_the_horizon(name):
    problem = SkiRental(20, 200)
    p = distributions.family(problem, name)
    assert p.shape == (200,) and np.all(p >= 0) and p.sum() == pytest.approx(1.0)


def test_family_means_match_their_parameters():
    problem = SkiRental(50, 500)
    assert problem.days @ distributions.family(problem, "gauss_2B") == pytest.approx(
        100, abs=1e-6
    )  # far from the cut at 0.5
    assert problem.days @ distributions.family(problem, "geom_2/B") == pytest.approx(25, rel=1e-3)


def test_shift_moves_mass_and_emd_measures_it():
    problem = SkiRental(10, 100)
    p = distributions.family(problem, "gauss_1B")
    moved = distributions.perturb(problem, p, "shift", 0.5)  # 5 days, far from the edges
    assert distributions.emd(problem, p, moved) == pytest.approx(5.0, abs=1e-6)
    assert distributions.emd(problem, p, distributions.perturb(problem, p, "mixture", 0.0)) == 0.0


def test_mixture_emd_grows_linearly_with_its_weight():
    problem = SkiRental(10, 100)
    p = distributions.family(problem, "gauss_0.5B")
    e1 = distributions.emd(problem, p, distributions.mixture(problem, p, 0.1))
    e3 = distributions.emd(problem, p, distributions.mixture(problem, p, 0.3))
    assert e3 == pytest.approx(3 * e1, rel=1e-9)


def test_unknown_names_fail_clearly():
    problem = SkiRental(10, 100)
    with pytest.raises(ValueError, match="unknown distribution family"):
        distributions.family(problem, "cauchy")
    with pytest.raises(ValueError, match="unknown perturbation"):
        distributions.perturb(problem, np.ones(100) / 100, "scale", 1.0)
