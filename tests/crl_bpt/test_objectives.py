"""The spec's oracles for the method's pieces: the control variate keeps the mean and lowers the variance on
correlated Gaussians, ROUGE-L on hand cases, the curriculum weights, both loss normalisations."""

import math

import numpy as np
import pytest
import torch

from icml26.crl_bpt import objectives as o


def _stream(rho: float, steps: int = 20000, seed: int = 0):
    """Per step: a baseline reward z and a policy reward rho·z + noise (correlated through the batch)."""
    rng = np.random.default_rng(seed)
    z = rng.normal(3.0, 2.0, size=steps)
    r = 5.0 + rho * (z - 3.0) + rng.normal(0, 1.0, size=steps)
    return z, r


def test_control_variate_keeps_the_mean_and_lowers_the_variance():
    z, r = _stream(rho=1.5)
    cv = o.ControlVariate(momentum=0.99)
    calibrated = np.array([float(cv.calibrate(torch.tensor([ri]), zi)[0]) for zi, ri in zip(z, r)])
    tail = slice(2000, None)  # after the EMAs have settled
    se = r[tail].std() / math.sqrt(len(r[tail]))
    assert abs(calibrated[tail].mean() - r[tail].mean()) < 4 * se  # E[R] = E[r]
    # the optimal alpha is Cov/Var = 1.5, leaving the noise: Var(R) ~ 1 against Var(r) = 1.5^2·4 + 1 = 10
    assert calibrated[tail].var() < 0.15 * r[tail].var()
    assert cv.alpha == pytest.approx(1.5, abs=0.3)


def test_control_variate_alpha_is_clipped_and_inert_without_correlation():
    z, r = _stream(rho=-1.0)  # negative covariance: alpha clipped at 0, R = r
    cv = o.ControlVariate(momentum=0.9)
    out = [float(cv.calibrate(torch.tensor([ri]), zi)[0]) for zi, ri in zip(z[:500], r[:500])]
    assert cv.alpha == 0.0 and out[-1] == pytest.approx(r[499])
    z, r = _stream(rho=10.0)
    cv = o.ControlVariate(momentum=0.9)
    for zi, ri in zip(z[:500], r[:500]):
        cv.calibrate(torch.tensor([ri]), zi)
    assert cv.alpha == 2.0  # clipped at the top


def test_first_step_is_uncalibrated():
    cv = o.ControlVariate()
    assert torch.equal(cv.calibrate(torch.tensor([1.0, 2.0]), 7.0), torch.tensor([1.0, 2.0], dtype=torch.float64))


def test_rouge_l_hand_cases():
    # LCS of "a photo of a" and "a faded old photo of a": 4 words; P = 4/6, R = 4/4, F = 0.8
    assert o.rouge_l("a faded old photo of a {} .", "a photo of a {} .") == pytest.approx(0.8)
    assert o.rouge_l("a photo of a {} .", "a photo of a {} .") == 1.0
    assert o.rouge_l("itap", "photo") == 0.0
    assert o.max_rouge_l("a photo", []) == 0.0


def test_imitation_and_innovation_weights():
    best = ["a photo of a {} ."]
    # "itap of a" against "a photo of a": LCS "of a", P = 2/3, R = 2/4, F = 4/7
    assert o.imitation_weights(["a photo of a {} .", "itap of a {} ."], best).tolist() == pytest.approx([1.0, 4 / 7])
    assert o.innovation_weights(["a photo of a {} ."], []).tolist() == [1.0]
    assert o.innovation_weights(["a photo of a {} ."], ["a photo of a {} ."]).tolist() == [0.0]


def test_curriculum_weights_start_at_imitation_and_move_monotonically():
    assert o.curriculum_weights(0.0, 2.0) == (1.0, 0.0)
    ts = np.linspace(0, 1, 11)
    for rate in (1.0, 2.0, 4.0):
        imit, innov = zip(*(o.curriculum_weights(t, rate) for t in ts))
        assert all(np.diff(imit) < 0) and all(np.diff(innov) > 0)
        assert imit[-1] == pytest.approx(math.exp(-rate)) and all(
            a + b == pytest.approx(1) for a, b in zip(imit, innov)
        )
    with pytest.raises(ValueError, match="curriculum time"):
        o.curriculum_weights(1.5, 2.0)


def test_per_step_normaliser_has_unit_magnitude_and_keeps_the_gradient_direction():
    norm = o.PerStepNormaliser()
    for value in (-3.7, 0.02, 250.0):
        x = torch.tensor(2.0, requires_grad=True)
        out = norm(value * x)
        assert abs(float(out.detach())) == pytest.approx(1.0)
        out.backward()
        assert float(x.grad) == pytest.approx(value / abs(value * 2.0))
    assert float(norm(torch.tensor(0.0))) == 0.0


def test_ema_normaliser_divides_by_the_running_magnitude():
    norm = o.EMANormaliser(momentum=0.5)
    assert float(norm(torch.tensor(4.0))) == pytest.approx(1.0)  # the EMA starts at the first |L|
    assert float(norm(torch.tensor(-2.0))) == pytest.approx(-2.0 / 3.0)  # EMA 0.5·4 + 0.5·2 = 3
    assert float(norm(torch.tensor(6.0))) == pytest.approx(6.0 / 4.5)
    with pytest.raises(ValueError, match="normalisation"):
        o.normaliser("max", 0.9)


def test_weighted_likelihood_loss_holds_the_weights_fixed():
    logp = torch.tensor([-1.0, -2.0], requires_grad=True)
    weights = torch.tensor([0.5, 1.0], requires_grad=True)
    loss = o.weighted_likelihood_loss(logp, weights)
    loss.backward()
    assert float(loss) == pytest.approx(1.25) and logp.grad.tolist() == [-0.25, -0.5] and weights.grad is None
