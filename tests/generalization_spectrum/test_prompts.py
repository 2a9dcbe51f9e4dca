"""The task language: every problem encodes within the closed vocabulary and decodes back to its program."""

from __future__ import annotations

import numpy as np

from icml26.generalization_spectrum import prompts, variants, world


def test_every_variant_and_pretraining_problem_round_trips_through_the_tokenizer():
    tok = prompts.tokenizer()
    rng = np.random.default_rng(0)
    seeds = variants.seeds(8, rng)
    problems = [p for s in seeds for p in variants.suite(s, 3, rng).values()]
    problems += variants.pretraining([p.program for p in problems], 3, rng)[::97]
    for problem in problems:
        prompt, answer = prompts.example(tok, problem)
        assert prompt[0] == tok.bos_token_id and prompt[-1] == tok.sep_token_id and answer[-1] == tok.eos_token_id
        text = prompts.program_text(tok, answer)
        xs = [4, 1, 4, 6]
        assert text == problem.answer and world.passes(text, problem.dsl, [(xs, problem.program(xs))])


def test_an_in_context_prompt_holds_the_solved_demonstration_then_the_query():
    tok = prompts.tokenizer()
    rng = np.random.default_rng(1)
    suite = variants.suite(variants.seeds(1, rng)[0], 3, rng)
    alone, answer = prompts.example(tok, suite["D2"])
    with_demo, same_answer = prompts.example(tok, suite["D2"], demonstration=suite["D0"])
    demo_prompt, demo_answer = prompts.example(tok, suite["D0"])
    assert same_answer == answer and with_demo == demo_prompt + demo_answer + alone[1:]
    words = tok.convert_ids_to_tokens(alone)
    assert prompts.MARKERS["A"] in words and prompts.MARKERS["B"] not in words
