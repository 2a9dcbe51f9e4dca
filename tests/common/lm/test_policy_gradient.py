"""Policy-gradient pieces on hand numbers and closed forms (TRL's conventions: docs/ARCHITECTURE.md)."""

import math

import pytest
import torch

from icml26.common.lm.policy_gradient import (
    STD_EPS,
    RunningBaseline,
    clipped_surrogate,
    group_advantages,
    kl_k3,
    masked_sequence_mean,
    reinforce_loss,
)


def test_group_advantages_on_hand_numbers():
    rewards = torch.tensor([1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    std = math.sqrt(4 * 0.25 / 3)  # Bessel-corrected, as TRL
    expected = [0.5 / (std + STD_EPS), -0.5 / (std + STD_EPS)] * 1
    advantages = group_advantages(rewards, group_size=4)
    assert torch.allclose(advantages[:2], torch.tensor(expected))
    assert torch.equal(advantages[4:], torch.zeros(4))  # a group that all agree teaches nothing
    assert torch.equal(group_advantages(rewards, 4, scale=False), torch.tensor([0.5, -0.5, -0.5, 0.5, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match="do not split into groups of 3"):
        group_advantages(rewards, 3)


def test_k3_is_zero_where_the_policies_agree_and_matches_its_closed_form():
    logp = torch.log(torch.tensor([0.5, 0.2, 0.9]))
    assert torch.equal(kl_k3(logp, logp), torch.zeros(3))
    ref = torch.log(torch.tensor([0.25, 0.4, 0.9]))
    r = torch.tensor([0.5, 2.0, 1.0])  # ref / policy
    assert torch.allclose(kl_k3(logp, ref), r - torch.log(r) - 1)


def two_token_policy(theta):
    return torch.log_softmax(theta, dim=0)


@pytest.mark.parametrize(
    "advantage, old_shift, clipped", [(1.5, 0.0, False), (-0.7, 0.05, False), (2.0, -0.5, True), (-1.0, 0.5, True)]
)
def test_surrogate_gradient_equals_its_analytic_value_on_a_two_token_toy(advantage, old_shift, clipped):
    theta = torch.tensor([0.3, -0.4], requires_grad=True)
    logp = two_token_policy(theta)[0]
    old = (logp + old_shift).detach()  # ratio = exp(-old_shift)
    loss = clipped_surrogate(
        logp.view(1, 1), old.view(1, 1), torch.tensor([advantage]), torch.ones(1, 1, dtype=bool), clip=0.2
    )
    loss.backward()
    ratio = math.exp(-old_shift)
    p = torch.softmax(theta.detach(), dim=0)
    dlogp = torch.tensor([1.0, 0.0]) - p  # d log p_0 / d theta
    analytic = torch.zeros(2) if clipped else -advantage * ratio * dlogp
    assert torch.allclose(theta.grad, analytic, atol=1e-6)


def test_surrogate_is_a_per_sequence_token_mean_and_adds_the_kl_penalty():
    logp = torch.log(torch.tensor([[0.5, 0.5, 0.1], [0.2, 0.1, 0.1]]))
    mask = torch.tensor([[True, True, False], [True, False, False]])
    advantages = torch.tensor([1.0, -2.0])
    on_policy = clipped_surrogate(logp, logp, advantages, mask)
    assert torch.isclose(on_policy, torch.tensor((-1.0 + 2.0) / 2))  # ratio 1: -A per token, token-mean, row-mean
    ref = logp + torch.log(torch.tensor(2.0))
    with_kl = clipped_surrogate(logp, logp, advantages, mask, kl_coef=0.1, ref_logprobs=ref)
    assert torch.isclose(with_kl - on_policy, torch.tensor(0.1 * (2 - math.log(2) - 1)))
    assert torch.isclose(masked_sequence_mean(torch.ones(2, 3), mask), torch.tensor(1.0))


def test_reinforce_with_a_running_baseline():
    baseline = RunningBaseline(momentum=0.5)
    assert baseline.advantages(torch.tensor([1.0, 3.0])).tolist() == [-1.0, 1.0]  # first batch: its own mean
    assert baseline.value == 2.0
    assert baseline.advantages(torch.tensor([4.0, 6.0])).tolist() == [2.0, 4.0]  # old baseline 2
    assert baseline.value == 3.5
    seq_logp = torch.tensor([-1.0, -2.0], requires_grad=True)
    reinforce_loss(seq_logp, torch.tensor([2.0, -1.0])).backward()
    assert seq_logp.grad.tolist() == [-1.0, 0.5]


# Device: rewards come from a CPU critic, log-probabilities from the model's device. torch's ``meta`` device
# refuses an operation that mixes it with CPU tensors as CUDA does, so these fail without a GPU on a loss that
# leaves its inputs where they were handed in (the policy-gradient loss before 2026-12-04).
def _on_meta(*shape):
    return torch.zeros(*shape, device="meta", requires_grad=True)


def test_mixing_devices_is_refused_on_meta_as_on_cuda():
    with pytest.raises((RuntimeError, NotImplementedError)):
        _ = _on_meta(4) * torch.ones(4)


def test_losses_move_cpu_rewards_to_the_device_of_the_logprobs():
    rewards = torch.tensor([1.0, 0.0, 0.0, 1.0])  # the critic's, on the CPU
    logprobs, mask = _on_meta(4, 3), torch.ones(4, 3, dtype=torch.bool)  # mask from a CPU collate
    advantages = group_advantages(rewards, 2)
    loss = clipped_surrogate(logprobs, torch.zeros(4, 3), advantages, mask, kl_coef=0.1, ref_logprobs=torch.zeros(4, 3))
    assert loss.device.type == "meta" and loss.shape == ()
    assert reinforce_loss(_on_meta(4), RunningBaseline().advantages(rewards.double())).device.type == "meta"
    assert masked_sequence_mean(logprobs, mask).device.type == "meta"


def test_text_feedback_objectives_move_cpu_advantages_and_weights_to_the_device():
    from icml26.text_feedback_rl import objectives

    second, first = torch.tensor([1.0, 0.0, 1.0, 1.0]), torch.tensor([0.0, 0.0, 1.0, 0.0])
    advantages = objectives.first_turn_advantages(second, first, 2)
    loss = objectives.self_distillation_loss(_on_meta(4, 3), torch.ones(4, 3), advantages, torch.ones(4))
    assert loss.device.type == "meta"
