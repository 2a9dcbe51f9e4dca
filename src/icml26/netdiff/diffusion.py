"""Discrete diffusion with DiGress's marginal transitions and a cosine schedule (Vignac et al. 2023), written here
(no maintained library ships it; ours, from the papers' equations).

For ``C`` classes with marginal ``m`` (their frequency in the training topologies), one step is
``Q_t = a_t I + (1 - a_t) 1 m^T`` and ``t`` steps ``Qbar_t = abar_t I + (1 - abar_t) 1 m^T`` with the cosine
schedule ``abar_t = f(t) / f(0)``, ``f(t) = cos^2((t / T + s) / (1 + s) pi / 2)``, ``s = 0.008``, ``a_t =
abar_t / abar_{t-1}``. The posterior of one step back given the clean class ``x_0`` is
``q(x_{t-1} | x_t, x_0) ∝ (x_t Q_t^T) * (x_0 Qbar_{t-1})``; the sampler mixes it over the denoiser's prediction
``p(x_0 | x_t)``. Edges (link or not, symmetric) and node parities are each a set of such variables.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch


def cosine_abar(steps: int, s: float = 0.008) -> torch.Tensor:
    """``abar_t`` for ``t = 0 .. steps`` (``abar_0 = 1``, decreasing, ``abar_T`` near 0)."""
    t = torch.arange(steps + 1, dtype=torch.float64) / steps
    f = torch.cos((t + s) / (1 + s) * math.pi / 2) ** 2
    return (f / f[0]).clamp(min=0.0, max=1.0)


class MarginalTransitions:
    def __init__(self, marginal: torch.Tensor, steps: int):
        if marginal.ndim != 1 or (marginal < 0).any() or abs(float(marginal.sum()) - 1) > 1e-6:
            raise ValueError("marginal must be a probability vector")
        self.m, self.steps = marginal.double(), steps
        self.abar = cosine_abar(steps)
        self.alpha = torch.cat([torch.ones(1, dtype=torch.float64), self.abar[1:] / self.abar[:-1].clamp(min=1e-12)])

    def _matrix(self, a: torch.Tensor) -> torch.Tensor:
        c = len(self.m)
        return a * torch.eye(c, dtype=torch.float64) + (1 - a) * self.m[None, :].expand(c, c)

    def step(self, t: int) -> torch.Tensor:
        """``Q_t`` (rows: from, columns: to)."""
        return self._matrix(self.alpha[t])

    def cumulative(self, t: int) -> torch.Tensor:
        """``Qbar_t``."""
        return self._matrix(self.abar[t])

    def noise(self, x0: torch.Tensor, t: int, generator: torch.Generator) -> torch.Tensor:
        """Sample ``x_t`` (class ids) from clean class ids ``x0``."""
        probs = self.cumulative(t)[x0]
        return torch.multinomial(probs.reshape(-1, probs.shape[-1]), 1, generator=generator).reshape(x0.shape)

    def posterior(self, xt: torch.Tensor, t: int, x0_probs: torch.Tensor) -> torch.Tensor:
        """``p(x_{t-1} | x_t) = sum_k p(x_0 = k) q(x_{t-1} | x_t, x_0 = k)`` for ids ``xt`` ``[...]`` and the
        denoiser's ``x0_probs`` ``[..., C]``; rows sum to 1."""
        likelihood = self.step(t)[:, xt].movedim(0, -1)  # [..., C]: q(x_t | x_{t-1} = c)
        prior = self.cumulative(t - 1)  # [k, c]: q(x_{t-1} = c | x_0 = k)
        joint = likelihood[..., None, :] * prior  # [..., k, c]
        per_k = joint / joint.sum(-1, keepdim=True).clamp(min=1e-300)
        return (x0_probs.double()[..., None] * per_k).sum(-2)


def sample(
    transitions: MarginalTransitions,
    denoise: Callable[[torch.Tensor, int], torch.Tensor],
    shape: tuple[int, ...],
    generator: torch.Generator,
    *,
    start: torch.Tensor | None = None,
    from_step: int | None = None,
    greedy: bool = False,
) -> torch.Tensor:
    """Run the reverse chain from ``x_T ~ m`` (or, for partial diffusion, from ``start`` noised to ``from_step``)
    down to ``x_0``; ``denoise(x_t, t)`` returns ``p(x_0 | x_t)`` ``[..., C]``. ``greedy``: take the most likely
    class at every step instead of sampling (the zero-noise sampler)."""
    top = transitions.steps if from_step is None else from_step
    if start is None:
        probs = transitions.m.expand(*shape, len(transitions.m))
        x = torch.multinomial(probs.reshape(-1, probs.shape[-1]), 1, generator=generator).reshape(shape)
    else:
        x = transitions.noise(start, top, generator)
    for t in range(top, 0, -1):
        probs = transitions.posterior(x, t, denoise(x, t))
        if greedy:
            x = probs.argmax(-1)
        else:
            x = torch.multinomial(probs.reshape(-1, probs.shape[-1]).float(), 1, generator=generator).reshape(shape)
    return x
