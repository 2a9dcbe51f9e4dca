"""The task language in a user's tokenizer (paper scale): GPT-2's and Qwen2.5's conventions on a byte-level BPE
replica whose merges split the DSL's words (icml26.common.lm.replicas). Prompts read back as written, answers
round-trip to the program the interpreters judge, and a generation budget counted in word-level tokens is a
one-line error naming the key, never answers cut short."""

import numpy as np
import pytest

pytest.importorskip("transformers")

from icml26.common.lm.replicas import bpe_tokenizer
from icml26.common.lm.tokenizer import SEPARATOR, decode
from icml26.generalization_spectrum import prompts, variants


@pytest.fixture(scope="module", params=["gpt2", "qwen2"])
def tok(request):
    return bpe_tokenizer(prompts.symbols(), request.param)


@pytest.fixture(scope="module")
def problems():
    rng = np.random.default_rng(0)
    return [p for suite in variants.suites(variants.seeds(8, rng), 3, rng) for p in suite.values()]


def test_prompts_and_answers_read_back_in_a_tokenizer_that_splits_words(tok, problems):
    prompts.check_reads(tok, "/models/mine")
    for problem in problems[:10]:
        prompt, answer = prompts.example(tok, problem, demonstration=problems[0])
        assert answer[-1] == tok.eos_token_id and prompts.program_text(tok, answer) == problem.answer
        query = f"{problem.statement} {prompts.MARKERS[problem.dsl]}{SEPARATOR}"
        assert decode(tok, prompt).endswith(query)


def test_a_budget_that_cannot_hold_an_answer_in_these_tokens_names_the_key(tok, problems):
    longest = max(len(prompts.example(tok, p)[1]) for p in problems)
    assert longest > prompts.LONGEST_ANSWER  # the word-level bound would cut them
    prompts.check_budget(tok, problems, longest, "evaluation.max_new_tokens", "/models/mine")
    with pytest.raises(
        ValueError,
        match=rf"^evaluation.max_new_tokens: {longest - 1} new tokens cannot hold .* "
        rf"/models/mine \({longest} tokens",
    ):
        prompts.check_budget(tok, problems, longest - 1, "evaluation.max_new_tokens", "/models/mine")
