"""GPT-2 small as an edge graph (the paper's model), proved on a 2-layer replica in GPT-2's own format (a
``GPT2LMHeadModel`` folder written with save_pretrained, a byte-level BPE tokenizer with GPT-2's special tokens):
the converted model's logits are GPT-2's, an all-ones mask gives the ordinary pass, the IOI sentences are the
standard templates with IO and S where they belong; our own IOI is unchanged."""

import hashlib

import numpy as np
import pytest
import torch

pytest.importorskip("transformers")

from icml26.common.lm.replicas import bpe_tokenizer, gpt2
from icml26.common.sources import SourceError
from icml26.sheaf_repulsion import data
from icml26.sheaf_repulsion import gpt2 as sheaf_gpt2


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    tok = bpe_tokenizer(sheaf_gpt2.REPLICA_CORPUS, "gpt2", merges=1500)
    return gpt2(tmp_path_factory.mktemp("gpt2") / "gpt2", tok, layers=2, width=32, heads=4)


def test_the_edge_graph_computes_gpt2s_logits(folder):
    from transformers import GPT2LMHeadModel

    net, language = sheaf_gpt2.edge_model(folder)
    assert (net.layers, net.heads, len(net.graph)) == (2, 4, 3 * 4 * 1 + (1 + 4) + 3 * 4 * 6 + (6 + 4) + 11)
    tokens = torch.as_tensor(data.ioi(16, language, np.random.default_rng(0)).tokens)
    with torch.no_grad():
        reference = GPT2LMHeadModel.from_pretrained(folder).eval()(tokens).logits
        torch.testing.assert_close(net(tokens), reference, rtol=0, atol=1e-5)
        torch.testing.assert_close(net(tokens, torch.ones(len(net.graph))), net(tokens), rtol=0, atol=1e-5)
        without_heads = net(tokens, torch.zeros(len(net.graph)))
    assert not torch.allclose(without_heads, reference, atol=1e-3)  # the mask reaches every edge, biases stay


def test_ioi_in_gpt2_tokens_follows_the_standard_templates(folder):
    from icml26.common.lm.tokenizer import load_tokenizer

    net, language = sheaf_gpt2.edge_model(folder)
    tok = load_tokenizer(folder)
    batch = data.ioi(60, language, np.random.default_rng(1))
    assert batch.tokens.shape == (60, 14) and set(batch.template) == set(range(6))  # three frames, two orders
    for row, good, bad in zip(batch.tokens[:6], batch.good[:6], batch.bad[:6]):
        text, io, s = tok.decode(row), tok.decode([good]).strip(), tok.decode([bad]).strip()
        assert text.split()[0] in ("When", "After", "While") and text.endswith(f" gave a {text.split()[-2]} to")
        assert text.count(f" {io} ") == 1 and text.count(f" {s} ") + text.count(f" {s},") == 2  # S repeated


def test_a_tokenizer_without_single_token_names_is_named(tmp_path):
    tok = bpe_tokenizer(["When and went to the"], "gpt2", merges=5)
    folder = gpt2(tmp_path / "small", tok, layers=1)
    with pytest.raises(SourceError, match=r"small: its tokenizer has 0 of the IOI names as single tokens"):
        sheaf_gpt2.edge_model(folder)


def test_our_ioi_is_unchanged():
    batch = data.ioi(64, 40, np.random.default_rng(0))  # the digest of the sentences before Language existed
    digest = hashlib.sha256(batch.tokens.tobytes() + batch.good.tobytes() + batch.bad.tobytes()).hexdigest()
    assert digest == "57b68d108ed4cacec62e307df1aab1f6beceb54b6392d2c7c6bee81399742e99"
