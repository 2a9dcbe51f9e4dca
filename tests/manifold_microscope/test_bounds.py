"""The MMLS-style fit is exact on flat manifolds; envelope fits recover a known power law."""

import numpy as np
import pandas as pd
import pytest

from icml26.manifold_microscope import bounds


def test_local_pca_projection_is_exact_on_a_plane():
    rng = np.random.default_rng(0)
    basis = np.linalg.qr(rng.standard_normal((7, 2)))[0].T  # a 2-plane in R^7
    samples = rng.random((500, 2)) @ basis + 0.3
    queries = rng.random((50, 2)) @ basis + 0.3
    assert bounds.projection_distances(samples, queries, 2, 10).max() < 1e-12
    off = queries + 0.05 * np.linalg.qr(np.vstack([basis, rng.standard_normal((1, 7))]).T)[0][:, 2]
    np.testing.assert_allclose(bounds.projection_distances(samples, off, 2, 10), 0.05, rtol=1e-9)


def test_envelopes_recover_a_power_law_and_bracket_it():
    n = np.repeat([100.0, 1000.0, 10000.0], 5)
    frame = pd.DataFrame({"n": n, "error": 3.0 * n ** (-0.5)})
    fit = bounds.envelopes(frame, d=2)
    assert fit["slope"] == pytest.approx(-0.5)
    assert fit["slope_low"] == pytest.approx(-0.5) and fit["slope_high"] == pytest.approx(-0.5)  # an exact fit
    noisy = bounds.envelopes(frame.assign(error=frame["error"] * np.tile([0.8, 1.0, 1.25, 0.9, 1.1], 3)), d=2)
    assert noisy["slope_low"] < noisy["slope"] < noisy["slope_high"]
    assert fit["lower_constant"] == pytest.approx(3.0)  # error / n^(-2/(2+2)) = 3 exactly
    assert fit["fraction_between"] == 1.0 and fit["runs"] == 15
    assert fit["genovese_exponent"] == -0.5 and fit["fefferman_exponent"] == -0.5


def test_the_upper_rate_s_local_slope_at_the_geometric_mean_of_n():
    """d log((log n / n)^(2/(2+d))) / d log n = -2/(2+d) (1 - 1/ln n), at the geometric mean of the sampled n."""
    n = np.exp(np.array([2.0, 4.0]))  # geometric mean e^3
    assert bounds.upper_slope(n, 2) == pytest.approx(-0.5 * (1 - 1 / 3))
    assert bounds.upper_slope(n, 1) > -2 / 3  # shallower than the lower rate's exponent: the band is not empty
