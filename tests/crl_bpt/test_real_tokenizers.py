"""The agent's language in a user's tokenizer (paper scale; the paper's agent is Qwen2.5-3B): a Qwen2.5-style
byte-level BPE replica (no begin token, <|im_end|> ends an answer) whose merges split the template words. Contexts
read back as written, templates round-trip, and ``search.max_new_tokens`` counted in words is a one-line error."""

import numpy as np
import pytest

pytest.importorskip("transformers")

from icml26.common.lm.replicas import bpe_tokenizer
from icml26.common.lm.tokenizer import SEPARATOR, decode
from icml26.crl_bpt import agent, grammar


@pytest.fixture(scope="module")
def tok():
    return bpe_tokenizer(agent.symbols(), "qwen2")


def test_contexts_and_templates_read_back_in_the_agents_tokenizer(tok):
    agent.check_reads(tok, "/models/qwen")
    human = grammar.human_set(20, 0)
    context = agent.context(tok, [(human[0], 0.71), (human[1], 0.5)])
    assert decode(tok, context) == f"write a template : acc7 {human[0]} acc5 {human[1]}{SEPARATOR}"
    assert tok.bos_token_id is None and context[0] != tok.eos_token_id  # Qwen2.5 starts with the text
    for template in human:
        ids = agent.answer(tok, template)
        assert ids[-1] == tok.eos_token_id and agent.templates(tok, [ids]) == [template]


def test_a_template_budget_counted_in_words_is_refused_with_the_key(tok):
    human = grammar.human_set(20, 0)
    need = max(len(agent.answer(tok, t)) for t in human)
    words = max(len(t.split()) for t in human) + 1
    assert need > words
    agent.check_budget(tok, human, need, "/models/qwen")
    with pytest.raises(ValueError, match=rf"^search.max_new_tokens: {words} new tokens cannot hold .*at least {need}$"):
        agent.check_budget(tok, human, words, "/models/qwen")


def test_sft_examples_in_the_agents_tokenizer_end_each_answer_with_its_end_token(tok):
    examples = agent.sft_examples(tok, grammar.human_set(20, 0), 5, 3, np.random.default_rng(0))
    assert all(answer[-1] == tok.eos_token_id and SEPARATOR in decode(tok, prompt) for prompt, answer in examples)


def test_generated_templates_are_one_line_of_printable_text(tok):
    """A random-weight agent in a byte-level tokenizer writes NULs, carriage returns and line breaks; the templates
    read back hold none of them (they would break the calls table), and a clean template is unchanged."""
    garbage = [i for i in range(len(tok)) if not decode(tok, [i]).isprintable()][:12]
    written = agent.templates(tok, [garbage + agent.answer(tok, "a photo of a {} .")[:-1], agent.answer(tok, "a {} .")])
    assert all(t.isprintable() and "  " not in t for t in written) and written[1] == "a {} ."
    assert written[0].endswith("a photo of a {} .")
