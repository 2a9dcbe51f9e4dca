"""The nominal forward model recovers a known action sensitivity and maps errors back to actions."""

import numpy as np
import pytest

from icml26.cerebellar_control import forward_model


@pytest.fixture(scope="module")
def linear_plant():
    """s' = s + A s + B a + noise: the model's linear-in-action block must find B."""
    rng = np.random.default_rng(0)
    n, d, k = 4000, 5, 3
    A = 0.05 * rng.standard_normal((d, d))
    B = rng.standard_normal((d, k))
    s = rng.standard_normal((n, d))
    a = rng.uniform(-1, 1, (n, k))
    s_next = s + s @ A.T + a @ B.T + 0.01 * rng.standard_normal((n, d))
    model, info = forward_model.fit(
        s, a, s_next, n_random=8, ridge=1e-6, damping=1e-6, holdout=0.25, rng=np.random.default_rng(1)
    )
    return model, info, B, s


def test_fit_is_accurate_and_whitens_nominal_errors(linear_plant):
    model, info, _, s = linear_plant
    assert info["r2_min"] > 0.99
    assert info["n_fit"] == 3000 and info["n_holdout"] == 1000
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, 3)
    assert model.whitened_error(s[0], a, s[0] + 0 * a[0]).shape == (5,)


def test_sensitivity_matches_the_true_action_matrix(linear_plant):
    model, _, B, s = linear_plant
    # whitened sensitivity * noise std / obs std -> the raw d s' / d a
    raw = model.sensitivity(s[7]) * model.noise_std[:, None] * model.obs_std[:, None]
    np.testing.assert_allclose(raw, B, atol=0.01)


def test_action_correction_recovers_a_missing_action(linear_plant):
    """If the plant delivered a - delta instead of a, the correction is about +delta."""
    model, _, B, s = linear_plant
    rng = np.random.default_rng(3)
    a = rng.uniform(-0.5, 0.5, 3)
    delta = np.array([0.3, -0.2, 0.1])
    predicted_next = model.obs_mean + model.obs_std * (model.normalise(s[1]) + model.predict_delta(s[1], a))
    observed_next = predicted_next - (B @ delta)
    correction = model.action_correction(model.whitened_error(s[1], a, observed_next), s[1])
    np.testing.assert_allclose(correction, delta, atol=0.01)


def test_save_and_load_round_trip(linear_plant, tmp_path):
    model, _, _, s = linear_plant
    from icml26.common.io import read_npz, write_npz

    write_npz(tmp_path / "m.npz", **model.save())
    again = forward_model.ForwardModel.load(read_npz(tmp_path / "m.npz"))
    a = np.tile([0.1, 0.2, -0.3], (4, 1))
    assert np.array_equal(again.predict_delta(s[:4], a), model.predict_delta(s[:4], a))
    assert again.damping == model.damping and again.n_actions == 3
