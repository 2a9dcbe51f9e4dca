"""The discrete diffusion against the spec's oracles: posterior rows sum to 1; the zero-noise sampler returns the
conditioning argmax; and the schedule's closed forms."""

from __future__ import annotations

import torch

from icml26.netdiff.diffusion import MarginalTransitions, cosine_abar, sample

M = torch.tensor([0.7, 0.2, 0.1], dtype=torch.float64)


def test_the_cosine_schedule_starts_at_one_and_decreases_to_near_zero():
    abar = cosine_abar(100)
    assert abar[0] == 1 and (abar[1:] <= abar[:-1]).all() and abar[-1] < 1e-3


def test_transition_matrices_are_stochastic_and_compose_to_the_cumulative_one():
    q = MarginalTransitions(M, 50)
    product = torch.eye(3, dtype=torch.float64)
    for t in range(1, 21):
        assert torch.allclose(q.step(t).sum(1), torch.ones(3, dtype=torch.float64))
        product = product @ q.step(t)
    assert torch.allclose(product, q.cumulative(20))
    assert torch.allclose(q.cumulative(50), M.expand(3, 3), atol=1e-3)  # the chain forgets x_0: rows -> m


def test_posterior_rows_sum_to_one():
    q = MarginalTransitions(M, 30)
    g = torch.Generator().manual_seed(0)
    xt = torch.randint(0, 3, (5, 7), generator=g)
    x0 = torch.softmax(torch.randn(5, 7, 3, generator=g), -1)
    for t in (1, 2, 15, 30):
        post = q.posterior(xt, t, x0)
        assert torch.allclose(post.sum(-1), torch.ones(5, 7, dtype=torch.float64)) and (post >= 0).all()


def test_the_posterior_given_a_certain_x0_is_bayes_rule_by_hand():
    q = MarginalTransitions(M, 10)
    t, xt, x0 = 4, torch.tensor(1), torch.tensor([0.0, 0.0, 1.0])
    expected = q.step(t)[:, 1] * q.cumulative(t - 1)[2]
    assert torch.allclose(q.posterior(xt, t, x0), expected / expected.sum())


def test_the_zero_noise_sampler_returns_the_conditioning_argmax():
    q = MarginalTransitions(M, 40)
    logits = torch.randn(6, 6, 3, generator=torch.Generator().manual_seed(1))
    conditioning = torch.softmax(logits, -1)
    out = sample(q, lambda x, t: conditioning, (6, 6), torch.Generator().manual_seed(2), greedy=True)
    assert torch.equal(out, conditioning.argmax(-1))


def test_partial_diffusion_from_step_zero_noise_keeps_a_confident_denoisers_answer():
    q = MarginalTransitions(M, 40)
    start = torch.randint(0, 3, (4, 4), generator=torch.Generator().manual_seed(3))
    sure = torch.nn.functional.one_hot(start, 3).double()
    out = sample(q, lambda x, t: sure, (4, 4), torch.Generator().manual_seed(4), start=start, from_step=10)
    assert torch.equal(out, start)


def test_a_marginal_that_is_not_a_distribution_is_refused():
    import pytest

    with pytest.raises(ValueError, match="marginal must be a probability vector"):
        MarginalTransitions(torch.tensor([0.5, 0.6]), 10)
