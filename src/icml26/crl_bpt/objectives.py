"""The method's pieces beyond plain REINFORCE: relative reward calibration (a control variate against the
baseline template), the imitation and innovation weights from ROUGE-L, the curriculum weights, and both loss
normalisations. Pure torch/numpy plus ``rouge-score``; no ``transformers`` import.

Definitions that are ours where the spec leaves them open:
- The control variate's statistics are exponential moving averages with ``momentum`` over steps: ``μ_base`` of
  the baseline template's reward, ``μ_π`` of the batch-mean reward, ``Cov`` of their product of deviations and
  ``Var`` of the baseline's squared deviation. ``α`` and ``μ_base`` are read *before* this step's update, so they
  do not depend on this step's rewards and ``E[R] = E[r]``; ``α = 0`` until ``Var`` is positive.
- The curriculum's time ``t`` is the fraction of the call budget spent when the step starts (0 to 1).
- The imitation weight of a generated template is its largest ROUGE-L F1 against the best human templates; the
  innovation weight is ``1 - max ROUGE-L F1`` against the last ``memory`` generated templates (1 when none).
- Each loss term (policy gradient, imitation, innovation) has its own normaliser.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import torch


@functools.cache
def _scorer():
    from rouge_score import rouge_scorer  # imports nltk (a second): only the runs with imitation or innovation

    return rouge_scorer.RougeScorer(["rougeL"])  # lower-cases, keeps letters and digits: "{}" and "." drop


def rouge_l(candidate: str, reference: str) -> float:
    """ROUGE-L F1 of two templates (rouge-score's ``rougeL``)."""
    return _scorer().score(reference, candidate)["rougeL"].fmeasure


def max_rouge_l(candidate: str, references: Sequence[str]) -> float:
    return max((rouge_l(candidate, r) for r in references), default=0.0)


def imitation_weights(generated: Sequence[str], best_human: Sequence[str]) -> torch.Tensor:
    return torch.tensor([max_rouge_l(g, best_human) for g in generated])


def innovation_weights(generated: Sequence[str], recent: Sequence[str]) -> torch.Tensor:
    return torch.tensor([1.0 - max_rouge_l(g, recent) if recent else 1.0 for g in generated])


def weighted_likelihood_loss(sequence_logprobs: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """``-mean(w · log π(y))``: raises the likelihood of generated templates in proportion to their weight."""
    return -(weights.detach() * sequence_logprobs).mean()


def curriculum_weights(t: float, rate: float) -> tuple[float, float]:
    """``(w_imit, w_innov) = (exp(-rate·t), 1 - exp(-rate·t))``: all imitation at ``t = 0``, shifting to
    innovation as ``t`` grows."""
    if not 0 <= t <= 1:
        raise ValueError(f"curriculum time must be in [0, 1], got {t}")
    w = math.exp(-rate * t)
    return w, 1.0 - w


class ControlVariate:
    """Relative reward calibration: ``R = r_π - α(r_base - μ_base)``, ``α = clip(Cov_EMA / Var_EMA, 0, 2)``."""

    def __init__(self, momentum: float = 0.9, alpha_max: float = 2.0):
        if not 0 <= momentum < 1:
            raise ValueError(f"momentum must be in [0, 1), got {momentum}")
        self.momentum, self.alpha_max = momentum, alpha_max
        self.mu_base: float | None = None
        self.mu_policy = 0.0
        self.cov = 0.0
        self.var = 0.0

    @property
    def alpha(self) -> float:
        return min(max(self.cov / self.var, 0.0), self.alpha_max) if self.var > 0 else 0.0

    def calibrate(self, rewards: torch.Tensor, base_reward: float) -> torch.Tensor:
        """This step's calibrated rewards, then the statistics updated with this step's values."""
        rewards = rewards.double()
        if self.mu_base is None:
            self.mu_base, self.mu_policy = base_reward, float(rewards.mean())
            return rewards.clone()
        calibrated = rewards - self.alpha * (base_reward - self.mu_base)
        m = self.momentum
        d_base, d_policy = base_reward - self.mu_base, float(rewards.mean()) - self.mu_policy
        self.cov = m * self.cov + (1 - m) * d_base * d_policy
        self.var = m * self.var + (1 - m) * d_base**2
        self.mu_base = m * self.mu_base + (1 - m) * base_reward
        self.mu_policy = m * self.mu_policy + (1 - m) * float(rewards.mean())
        return calibrated


class EMANormaliser:
    """Historical loss normalisation: ``ŝ(L) = L / EMA(|L|)``, the EMA over steps (started at the first |L|)."""

    def __init__(self, momentum: float = 0.9, eps: float = 1e-8):
        self.momentum, self.eps = momentum, eps
        self.scale: float | None = None

    def __call__(self, loss: torch.Tensor) -> torch.Tensor:
        size = abs(float(loss.detach()))
        self.scale = size if self.scale is None else self.momentum * self.scale + (1 - self.momentum) * size
        return loss / (self.scale + self.eps)


class PerStepNormaliser:
    """The normalisation as released: each step's loss divided by its own detached magnitude, so ``|ŝ(L)| = 1``
    (only the gradient's direction survives; a zero loss stays zero)."""

    def __call__(self, loss: torch.Tensor) -> torch.Tensor:
        size = loss.detach().abs()
        return loss / size if float(size) > 0 else loss


def normaliser(kind: str, momentum: float):
    if kind == "ema":
        return EMANormaliser(momentum)
    if kind == "per_step":
        return PerStepNormaliser()
    raise ValueError(f"normalisation must be 'ema' or 'per_step', got {kind!r}")
