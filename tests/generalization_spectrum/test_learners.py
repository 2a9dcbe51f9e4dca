"""The learners' pieces on a tiny model: pretraining examples, execution rewards, RFT's filter, a GRPO step."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.generalization_spectrum import evaluate, learners, prompts, variants, world


@pytest.fixture(scope="module")
def setup():
    from icml26.common.lm.model import ModelSettings, build_model

    tok = prompts.tokenizer()
    model = build_model(ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, context=160), tok, 0)
    rng = np.random.default_rng(0)
    items = [
        evaluate.Item(i, "D0", p, world.hidden_tests(p.program, 4, rng))
        for i, p in enumerate(
            variants.Problem(s, variants.example_inputs(3, rng), "A", "A") for s in variants.seeds(3, rng)
        )
    ]
    return tok, model, items


def test_a_share_of_pretraining_examples_carries_a_solved_demonstration_of_the_same_program(setup):
    tok, _, items = setup
    rng = np.random.default_rng(1)
    corpus = [
        variants.Problem(item.problem.program, variants.example_inputs(3, rng), narrative, dsl)
        for item in items
        for narrative in "AB"
        for dsl in "AB"
        for _ in range(5)
    ]
    answers = {
        tuple(prompts.example(tok, variants.Problem(p.program, p.inputs, "A", dsl))[1][:-1]): p.program
        for p in corpus
        for dsl in "AB"
    }

    def demonstrated(prompt):  # the program solved in context, or None
        if tok.eos_token_id not in prompt:
            return None
        demo = prompt[: prompt.index(tok.eos_token_id)]
        return answers[tuple(demo[demo.index(tok.sep_token_id) + 1 :])]

    def numbers(ids):
        return [t for t in tok.convert_ids_to_tokens(ids) if t.isdigit()]

    examples = learners.pretraining_examples(tok, corpus, 0.5, 1.0, np.random.default_rng(1))
    demos = [demonstrated(p) for p, _ in examples]
    assert len(examples) == 60 and 0.3 < np.mean([d is not None for d in demos]) < 0.7
    assert all(d is None or d == p.program for d, p in zip(demos, corpus))  # related: always the same program
    for (prompt, _), problem, demo in zip(examples, corpus, demos):
        if demo is not None:  # the same worked examples, in another narrative-DSL pair
            first, second = prompt[: prompt.index(tok.eos_token_id)], prompt[prompt.index(tok.eos_token_id) :]
            assert sorted(numbers(first[: first.index(tok.sep_token_id)])) == sorted(numbers(second))
            assert first[1 : first.index(tok.sep_token_id)] != second[1 : second.index(tok.sep_token_id)]
    unrelated = [
        demonstrated(p) for p, _ in learners.pretraining_examples(tok, corpus, 1.0, 0.0, np.random.default_rng(2))
    ]
    assert 0.1 < np.mean([d != p.program for d, p in zip(unrelated, corpus)]) < 0.9  # drawn from the corpus
    assert all(demonstrated(p) is None for p, _ in learners.pretraining_examples(tok, corpus, 0.0, 1.0, rng))


def test_rewards_are_one_exactly_for_programs_that_pass(setup):
    tok, _, items = setup
    first, second = (prompts.example(tok, item.problem)[1] for item in items[:2])
    reward = learners.rewards(tok, items[:2], [first, second, second, first[:-3]], samples=2)
    assert reward.tolist() == [1.0, 0.0, 1.0, 0.0]  # item 0: its program, another; item 1: its own, a broken one


def test_rft_keeps_exactly_the_correct_samples(setup, monkeypatch):
    tok, model, items = setup
    answers = [prompts.example(tok, item.problem)[1] for item in items[:2]]
    sampled = [answers[0], answers[1], answers[1], answers[0][:-2]]  # 2 per item: right, wrong; right, broken
    queries = [prompts.example(tok, item.problem)[0] for item in items[:2] for _ in range(2)]
    monkeypatch.setattr(evaluate, "sample_programs", lambda *a, **k: (queries, sampled))
    kept = learners.rft_examples(model, tok, items[:2], samples=2, max_new_tokens=12, temperature=1.0, seed=0)
    assert kept == [(queries[0], answers[0]), (queries[2], answers[1])]


def test_a_grpo_step_moves_the_model_only_when_a_group_has_mixed_rewards(setup, monkeypatch):
    tok, model, items = setup
    settings = learners.GRPOSettings(group=2, max_new_tokens=12)

    def step(sampled):
        queries = [prompts.example(tok, items[0].problem)[0]] * 2
        monkeypatch.setattr(evaluate, "sample_programs", lambda *a, **k: (queries, sampled))
        before = [p.detach().clone() for p in model.parameters()]
        stats = learners.grpo_step(
            model, tok, torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0), items[:1], settings, 0
        )
        return stats["reward"], any(not torch.equal(a, b) for a, b in zip(before, model.parameters()))

    right = prompts.example(tok, items[0].problem)[1]
    wrong = prompts.example(tok, items[1].problem)[1]
    assert step([right, wrong]) == (0.5, True)
    assert step([wrong, wrong]) == (0.0, False)  # equal rewards in the group: no advantage, no step
