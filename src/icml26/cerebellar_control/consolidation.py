"""Consolidation: distil base policy + persistent residual into the policy's own parameters.

After adaptation the residual's weights hold a correction for the fault. Consolidation fits the base MLP
(started from its own weights) to ``base(s) + gain * residual(s)`` on the states visited under the fault,
with an L2 anchor ``anchor * sum (theta - theta_0)^2`` to the original weights so behaviour elsewhere stays
close to the base policy. The result is a plain ``FrozenPolicy``: the residual can be removed.
"""

from __future__ import annotations

import numpy as np

from .base_policy import FrozenPolicy
from .residual import CerebellarResidual


def residual_targets(controller: CerebellarResidual, observations: np.ndarray) -> np.ndarray:
    """What the adapted controller would command (before clipping) at each state, with its final weights."""
    rows = []
    for obs in observations:
        base = np.asarray(controller.policy(obs), dtype=np.float64)
        rows.append(base + controller.gain * controller.residual(obs, base)[0])
    return np.array(rows)


def distil(
    policy: FrozenPolicy,
    observations: np.ndarray,
    targets: np.ndarray,
    *,
    anchor: float,
    steps: int,
    lr: float,
    batch_size: int,
    seed: int,
    device: str = "cpu",
) -> FrozenPolicy:
    """Adam on mean squared action error + anchor; returns the consolidated policy."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    params = [
        torch.tensor(p, dtype=torch.float64, device=device, requires_grad=True)
        for pair in zip(policy.weights, policy.biases)
        for p in pair
    ]
    origin = [p.detach().clone() for p in params]
    act = {"relu": torch.relu, "tanh": torch.tanh}[policy.activation]
    x_all = torch.tensor(policy.normalise(observations), dtype=torch.float64, device=device)
    y_all = torch.tensor(targets, dtype=torch.float64, device=device)
    optimiser = torch.optim.Adam(params, lr=lr)
    if policy.squash == "tanh":
        low, high = (torch.tensor(b, dtype=torch.float64, device=device) for b in (policy.low, policy.high))
    for _ in range(steps):
        idx = torch.randint(len(x_all), (min(batch_size, len(x_all)),), generator=generator).to(device)
        h = x_all[idx]
        for i in range(0, len(params) - 2, 2):
            h = act(h @ params[i].T + params[i + 1])
        out = h @ params[-2].T + params[-1]
        if policy.squash == "tanh":  # SAC's head: the targets are actions, after the squash
            out = low + (torch.tanh(out) + 1.0) * (high - low) / 2.0
        loss = ((out - y_all[idx]) ** 2).sum(dim=1).mean()
        loss = loss + anchor * sum(((p - o) ** 2).sum() for p, o in zip(params, origin))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    arrays = [p.detach().cpu().numpy() for p in params]
    return policy.with_layers(arrays[0::2], arrays[1::2])
