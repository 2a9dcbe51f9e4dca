"""Judging programs by execution, and scoring a (tiny, untrained) model end to end."""

from __future__ import annotations

import numpy as np

from icml26.generalization_spectrum import evaluate, prompts, variants, world


def test_judge_counts_only_programs_that_pass_every_hidden_test_in_the_problem_s_dsl():
    rng = np.random.default_rng(0)
    suite = variants.suite(variants.seeds(1, rng)[0], 3, rng)
    d1 = suite["D1"]  # answer in DSL-B
    tests = world.hidden_tests(d1.program, 6, rng)
    texts = [d1.answer, d1.program.render("A"), "x ( (", suite["D3"].program.render("B"), d1.answer]
    assert evaluate.judge(texts, d1, tests) == 2


def test_an_untrained_model_is_scored_the_same_way_twice():
    from icml26.common.lm.model import ModelSettings, build_model

    tok = prompts.tokenizer()
    model = build_model(ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, context=160), tok, 0)
    rng = np.random.default_rng(1)
    seeds = variants.seeds(2, rng)
    items = [
        evaluate.Item(i, v, p, world.hidden_tests(p.program, 4, rng))
        for i, s in enumerate(seeds)
        for v, p in variants.suite(s, 3, rng).items()
    ]
    kwargs = {"samples": 3, "max_new_tokens": 12, "temperature": 1.0, "seed": 5, "batch": 6}
    first, again = (evaluate.score(model, tok, items, **kwargs) for _ in range(2))
    assert first == again and len(first) == 10
    assert all(row["samples"] == 3 and 0 <= row["correct"] <= 3 for row in first)
