"""The mixture of experts: the spec's oracles (top-k weights, dropout floor, FiLM identity, one expert = an MLP)
and the load-balance loss in closed form."""

from __future__ import annotations

import pytest
import torch

from icml26.prism_moe.moe import FiLM, Mlp, MoE, Router, Routing, balance_loss, expert_dropout_mask


def test_top_k_weights_sum_to_one_and_pick_the_largest_logits():
    torch.manual_seed(0)
    router = Router(8, experts=5, top_k=3, condition_dim=4, noisy=True, dropout=0.3).eval()
    x = torch.randn(50, 8)
    routing = router(x, torch.randn(50, 4))
    torch.testing.assert_close(routing.weights.sum(-1), torch.ones(50))
    assert (routing.weights >= 0).all()
    best = router.gate(x).topk(3).indices  # FiLM is the identity at initialisation; eval: no noise, no dropout
    assert torch.equal(routing.indices, best)


@pytest.mark.parametrize("rate", [0.0, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("k", [1, 2, 4])
def test_at_least_k_experts_survive_dropout(rate, k):
    draws = torch.rand(1000, 6, generator=torch.Generator().manual_seed(1))
    survive = expert_dropout_mask(draws, rate, k)
    assert (survive.sum(-1) >= k).all()
    if rate == 1.0:
        assert (survive.sum(-1) == k).all()
    if rate == 0.0:
        assert survive.all()


def test_routing_in_training_never_picks_a_dropped_expert(monkeypatch):
    from icml26.prism_moe import moe

    masks = []

    def recorded(draws, rate, k):
        masks.append(moe_mask(draws, rate, k))
        return masks[-1]

    moe_mask = moe.expert_dropout_mask
    monkeypatch.setattr(moe, "expert_dropout_mask", recorded)
    torch.manual_seed(0)
    router = Router(8, experts=6, top_k=2, condition_dim=None, noisy=True, dropout=0.8).train()
    routing = router(torch.randn(400, 8))
    (survive,) = masks
    assert survive.gather(-1, routing.indices).all()  # every chosen expert survived for its token
    assert (routing.probabilities[~survive] == 0).all() and (~survive).sum() > 400  # most of them were dropped
    torch.testing.assert_close(routing.weights.sum(-1), torch.ones(400))
    # the dropout was drawn independently of the gate: without it, the gate picks dropped experts
    free = router.gate(torch.randn(400, 8)).topk(2, dim=-1).indices
    assert not survive.gather(-1, free).all()


def test_the_dropout_mask_keeps_draws_above_the_rate_and_always_the_k_highest():
    draws = torch.tensor([[0.1, 0.9, 0.3, 0.85], [0.2, 0.1, 0.05, 0.3]])
    mask = expert_dropout_mask(draws, rate=0.8, k=2)
    assert mask.tolist() == [[False, True, False, True], [True, False, False, True]]


def test_film_is_the_identity_at_initialisation():
    film = FiLM(6, 3)
    x = torch.randn(10, 6)
    torch.testing.assert_close(film(x, torch.randn(10, 3)), x)


@pytest.mark.parametrize("train", [False, True])
def test_one_expert_top_1_without_shared_expert_equals_an_mlp(train):
    torch.manual_seed(0)
    moe = MoE(8, 16, experts=1, top_k=1, shared=False, condition_dim=4, noisy=True, dropout=0.5)
    moe.train(train)
    mlp = Mlp(8, 16)
    mlp.load_state_dict(moe.experts[0].state_dict())
    x = torch.randn(3, 5, 8)
    out, _, _ = moe(x, torch.randn(3, 4))
    torch.testing.assert_close(out, mlp(x))


def test_dispatch_equals_the_per_token_weighted_sum():
    torch.manual_seed(0)
    moe = MoE(8, 16, experts=4, top_k=2, shared=True, condition_dim=None, noisy=False).eval()
    x = torch.randn(2, 6, 8)
    out, _, indices = moe(x)
    flat = x.reshape(-1, 8)
    routing = moe.router(flat)
    expected = torch.stack(
        [
            moe.shared(t) + sum(w * moe.experts[int(e)](t) for w, e in zip(routing.weights[i], routing.indices[i]))
            for i, t in enumerate(flat)
        ]
    )
    torch.testing.assert_close(out.reshape(-1, 8), expected)
    assert torch.equal(indices.reshape(-1, 2), routing.indices)


def test_balance_loss_is_one_when_balanced_and_e_when_collapsed():
    experts = 4
    balanced = Routing(torch.ones(8, 1), torch.arange(8)[:, None] % experts, torch.full((8, experts), 0.25))
    assert float(balance_loss(balanced, experts)) == pytest.approx(1.0)
    collapsed = Routing(torch.ones(8, 1), torch.zeros(8, 1, dtype=torch.long), torch.eye(experts)[[0] * 8])
    assert float(balance_loss(collapsed, experts)) == pytest.approx(experts)


def test_noise_acts_in_training_only():
    torch.manual_seed(0)
    router = Router(8, experts=4, top_k=4, condition_dim=None, noisy=True, dropout=0.0)
    x = torch.randn(20, 8)
    router.eval()
    assert torch.equal(router(x).probabilities, router(x).probabilities)
    router.train()
    assert not torch.equal(router(x).probabilities, router(x).probabilities)


def test_top_k_must_fit_the_experts():
    with pytest.raises(ValueError, match="top_k must be in"):
        Router(8, experts=2, top_k=3, condition_dim=None, noisy=False, dropout=0.0)
