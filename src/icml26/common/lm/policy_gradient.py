"""Policy-gradient pieces as small pure functions on tensors (no ``transformers`` import).

Conventions follow TRL's ``GRPOTrainer`` (trl 1.16, ``loss_type="grpo"``), so numbers compare with the
library most GRPO work uses: group standard deviations are Bessel-corrected with 1e-4 added, the clipped
surrogate is averaged over each sequence's tokens and then over sequences, and the KL penalty to a frozen
reference is the k3 estimator ``exp(ref - logp) - (ref - logp) - 1`` per token. TRL computes these inside
trainer methods rather than as functions, so tests check ours on hand numbers and closed forms instead of
calling TRL (docs/ARCHITECTURE.md, "Shared LM toolkit").

Rewards are computed on the CPU (a critic, a black box) while log-probabilities live on the model's device: every
loss moves what it is handed to the device and dtype of the log-probabilities it differentiates
(:func:`beside`), so the same call runs on a GPU (tested on torch's ``meta`` device, which refuses mixed devices
as CUDA does).
"""

from __future__ import annotations

import torch

STD_EPS = 1e-4


def beside(values: torch.Tensor, logprobs: torch.Tensor) -> torch.Tensor:
    """``values`` held fixed (detached) on the device and in the dtype of ``logprobs``."""
    return values.detach().to(device=logprobs.device, dtype=logprobs.dtype)


def group_advantages(rewards: torch.Tensor, group_size: int, scale: bool = True) -> torch.Tensor:
    """GRPO advantages: each reward minus the mean of its group (consecutive ``group_size`` rewards),
    divided by the group's standard deviation + 1e-4 when ``scale`` (Dr. GRPO drops the division)."""
    rewards = rewards.float()
    if rewards.ndim != 1 or rewards.numel() % group_size:
        raise ValueError(f"{rewards.numel()} rewards do not split into groups of {group_size}")
    groups = rewards.view(-1, group_size)
    advantages = groups - groups.mean(dim=1, keepdim=True)
    if scale:
        std = groups.std(dim=1, keepdim=True) if group_size > 1 else torch.zeros_like(groups[:, :1])
        advantages = advantages / (std + STD_EPS)
    return advantages.reshape(-1)


def kl_k3(logprobs: torch.Tensor, ref_logprobs: torch.Tensor) -> torch.Tensor:
    """Per-token k3 estimate of KL(policy || reference) from tokens drawn by the policy: non-negative,
    unbiased, zero where the two agree."""
    delta = ref_logprobs - logprobs
    return torch.exp(delta) - delta - 1


def masked_sequence_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean over each row's unmasked tokens, then over rows."""
    mask = mask.to(device=values.device, dtype=values.dtype)
    return ((values * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)).mean()


def clipped_surrogate(
    logprobs: torch.Tensor,
    old_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    clip: float = 0.2,
    clip_high: float | None = None,
    kl_coef: float = 0.0,
    ref_logprobs: torch.Tensor | None = None,
) -> torch.Tensor:
    """The GRPO/PPO loss to minimise: ``-min(ρA, clip(ρ, 1-clip, 1+clip_high)A) + kl_coef·k3`` per token.

    ``logprobs`` (with gradients), ``old_logprobs`` (the sampling policy's) and ``ref_logprobs`` are
    ``[batch, tokens]``; ``advantages`` one per sequence. ``clip_high`` defaults to ``clip`` (DAPO raises it).
    """
    if kl_coef and ref_logprobs is None:
        raise ValueError("kl_coef > 0 needs ref_logprobs")
    ratio = torch.exp(logprobs - beside(old_logprobs, logprobs))
    clipped = ratio.clamp(1 - clip, 1 + (clip if clip_high is None else clip_high))
    advantages = beside(advantages, logprobs).unsqueeze(1)
    per_token = -torch.min(ratio * advantages, clipped * advantages)
    if kl_coef:
        per_token = per_token + kl_coef * kl_k3(logprobs, beside(ref_logprobs, logprobs))
    return masked_sequence_mean(per_token, mask)


def reinforce_loss(sequence_logprobs: torch.Tensor, advantages: torch.Tensor) -> torch.Tensor:
    """REINFORCE: ``-mean(A · log π(y))`` with the advantages held fixed."""
    return -(beside(advantages, sequence_logprobs) * sequence_logprobs).mean()


class RunningBaseline:
    """An exponential moving average of rewards, the baseline of REINFORCE: ``advantage(r) = r - b`` with
    ``b`` as it was before this batch, then ``b ← momentum·b + (1 - momentum)·mean(r)`` (``b`` starts at
    the first batch's mean, so the first advantages are centred rather than all positive)."""

    def __init__(self, momentum: float = 0.9):
        if not 0 <= momentum < 1:
            raise ValueError(f"momentum must be in [0, 1), got {momentum}")
        self.momentum = momentum
        self.value: float | None = None

    def advantages(self, rewards: torch.Tensor) -> torch.Tensor:
        mean = float(rewards.float().mean())
        baseline = mean if self.value is None else self.value
        self.value = mean if self.value is None else self.momentum * self.value + (1 - self.momentum) * mean
        return rewards.float() - baseline
