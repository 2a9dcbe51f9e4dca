"""The spec's oracles for the objectives: A⁽⁰⁾ on fixed numbers, SD's gradient only through log π(y1|x0),
the IS variant equal to AWR when the two contexts agree, the FM loss on critique tokens only."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.common.lm.model import ModelSettings, build_model
from icml26.common.lm.sampling import continuation_logprobs
from icml26.text_feedback_rl import dialogue, objectives
from icml26.text_feedback_rl.tasks import PermutationTask


def test_first_turn_advantages_on_fixed_numbers():
    r1, r0 = torch.tensor([1.0, 0.0, 1.0, 1.0, 0, 0, 1, 0]), torch.tensor([0.0, 0.0, 1.0, 0.0, 1, 1, 1, 1])
    assert objectives.first_turn_advantages(r1, r0, 4).tolist() == [0.75, -0.25, 0.75, 0.75, -1, -1, 0, -1]
    assert objectives.second_turn_advantages(r1, 4).tolist() == [0.25, -0.75, 0.25, 0.25, -0.25, -0.25, 0.75, -0.25]
    # every second turn right: the turn-2 baseline leaves nothing, the first-turn one still pushes
    right = torch.ones(4)
    assert objectives.second_turn_advantages(right, 4).abs().sum() == 0
    assert objectives.first_turn_advantages(right, torch.tensor([0.0, 0, 1, 0]), 4).tolist() == [0.75] * 4
    with pytest.raises(ValueError, match="groups of 3"):
        objectives.second_turn_advantages(right, 3)


def test_self_distillation_s_gradient_flows_only_through_the_first_turn_log_probabilities():
    lp_x0 = torch.tensor([[-0.5, -1.0, 0.0], [-2.0, -0.1, -0.3]], requires_grad=True)
    lp_x1 = torch.tensor([[-0.2, -0.4, 0.0], [-1.0, -0.2, -0.1]], requires_grad=True)
    mask = torch.tensor([[True, True, False], [True, True, True]])
    advantages = torch.tensor([0.5, -1.0], requires_grad=True)
    for weights in (None, objectives.importance_weights(lp_x0, lp_x1, mask)):
        loss = objectives.self_distillation_loss(lp_x0, mask, advantages, weights)
        g0, g1, ga = torch.autograd.grad(loss, (lp_x0, lp_x1, advantages), allow_unused=True)
        assert g1 is None and ga is None
        w = torch.ones(2) if weights is None else weights
        expected = -(w * advantages.detach()).unsqueeze(1) * mask / mask.sum(1, keepdim=True) / 2
        torch.testing.assert_close(g0, expected)


def test_the_importance_ratio_variant_equals_awr_when_both_contexts_agree():
    rng = torch.Generator().manual_seed(0)
    lp = -torch.rand(4, 5, generator=rng)
    mask = torch.rand(4, 5, generator=rng) > 0.3
    mask[:, 0] = True
    advantages = torch.randn(4, generator=rng)
    weights = objectives.importance_weights(lp, lp.clone(), mask)
    assert torch.equal(weights, torch.ones(4))
    a, b = lp.clone().requires_grad_(), lp.clone().requires_grad_()
    awr = objectives.self_distillation_loss(a, mask, advantages)
    ratio = objectives.self_distillation_loss(b, mask, advantages, weights)
    assert awr.item() == ratio.item()
    (ga,), (gb,) = torch.autograd.grad(awr, [a]), torch.autograd.grad(ratio, [b])
    assert torch.equal(ga, gb)
    # and it differs once the contexts disagree
    assert not torch.equal(objectives.importance_weights(lp, lp - 0.5, mask), torch.ones(4))


def test_the_feedback_loss_covers_the_critique_s_tokens_only():
    task = PermutationTask()
    tok = dialogue.tokenizer(task)
    model = build_model(ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, context=64), tok, 0)
    problem = task.draw(np.random.default_rng(0))
    guess = ["B", "A", "C", "D", "E"]
    critique = task.critique(problem, guess)
    context, target = dialogue.feedback_example(tok, problem, dialogue.answer_ids(tok, guess), critique)
    assert target == tok(" ".join(critique), add_special_tokens=False)["input_ids"]
    assert context[-1] == tok.convert_tokens_to_ids(dialogue.FEEDBACK)
    logprobs, mask = continuation_logprobs(model, [context], [target], tok.pad_token_id)
    loss = objectives.feedback_loss(logprobs, mask)
    with torch.no_grad():
        full = torch.log_softmax(model(torch.tensor([context + target])).logits[0], dim=-1)
    by_hand = -np.mean([full[len(context) - 1 + t, target[t]].item() for t in range(len(target))])
    assert loss.item() == pytest.approx(by_hand, abs=1e-5)
