"""The paper's two objectives and the ablations' variants, as pure functions on tensors (spec: "Setting").

Rollouts come in groups: ``group`` first-turn answers ``y0`` per prompt ``x0``, and for each of them one
second-turn answer ``y1 ~ π(·|x1)``, item-major (rows ``g·group .. (g+1)·group - 1`` belong to prompt g).

- *Self distillation* (RLTF-SD): ``-A⁽⁰⁾(y1) · log π(y1 | x0)`` with ``A⁽⁰⁾_i = R(x0, y1_i) - mean_j
  R(x0, y0_j)``, the first-turn baseline over the prompt's group (:func:`first_turn_advantages`); no
  importance ratio (advantage-weighted regression); only ``log π(y1 | x0)`` carries gradient (``x1`` was
  used to sample ``y1`` and is not differentiated). Ablations: the turn-2 baseline
  (:func:`second_turn_advantages`) and the full sequence importance ratio ``π(y1|x0) / π(y1|x1)``, held
  fixed as a weight (:func:`importance_weights`).
- *Feedback modelling* (RLTF-FM): ``-Σ_t log π(c0_t | x0, y0, c0_<t)`` (:func:`feedback_loss`).

Ours, where the spec is silent: log-probabilities of a sequence enter as the mean over its tokens, then the
mean over sequences (the toolkit's GRPO convention), so the SD and FM terms sit on the scale of the GRPO
surrogate they are added to; advantages are not divided by a standard deviation (the spec's formula).
"""

from __future__ import annotations

import torch

from icml26.common.lm.policy_gradient import beside, masked_sequence_mean


def _groups(rewards: torch.Tensor, group: int) -> torch.Tensor:
    rewards = rewards.float()
    if rewards.ndim != 1 or rewards.numel() % group:
        raise ValueError(f"{rewards.numel()} rewards do not split into groups of {group}")
    return rewards.view(-1, group)


def first_turn_advantages(second: torch.Tensor, first: torch.Tensor, group: int) -> torch.Tensor:
    """``A⁽⁰⁾_i = r1_i - mean_j r0_j`` over the prompt's group (the paper's first-turn baseline)."""
    if second.shape != first.shape:
        raise ValueError(f"{second.numel()} second-turn rewards but {first.numel()} first-turn rewards")
    baseline = _groups(first, group).mean(dim=1, keepdim=True)
    return (_groups(second, group) - baseline).reshape(-1)


def second_turn_advantages(second: torch.Tensor, group: int) -> torch.Tensor:
    """The ablation: ``r1_i - mean_j r1_j`` (vanishes once feedback makes every second turn right)."""
    rewards = _groups(second, group)
    return (rewards - rewards.mean(dim=1, keepdim=True)).reshape(-1)


def importance_weights(
    logprobs_x0: torch.Tensor, logprobs_x1: torch.Tensor, mask: torch.Tensor, mask_x1: torch.Tensor | None = None
) -> torch.Tensor:
    """The full sequence ratio ``π(y1|x0) / π(y1|x1)`` per row, detached (the IS ablation's weight)."""
    mask_x1 = mask if mask_x1 is None else mask_x1
    first = (logprobs_x0.detach() * mask).sum(dim=1)
    second = (logprobs_x1.detach() * mask_x1).sum(dim=1)
    return torch.exp(first - second)


def self_distillation_loss(
    logprobs_x0: torch.Tensor, mask: torch.Tensor, advantages: torch.Tensor, weights: torch.Tensor | None = None
) -> torch.Tensor:
    """``-mean_i w_i A_i · mean_t log π(y1_i,t | x0, y1_i,<t)``; ``weights`` default to 1 (AWR)."""
    coefficient = beside(advantages, logprobs_x0)
    if weights is not None:
        coefficient = coefficient * beside(weights, logprobs_x0)
    per_token = -coefficient.unsqueeze(1) * logprobs_x0
    return masked_sequence_mean(per_token, mask)


def feedback_loss(logprobs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Negative log-likelihood of the critique's tokens, given ``x0, y0`` (mean per token, then per row)."""
    return masked_sequence_mean(-logprobs, mask)
