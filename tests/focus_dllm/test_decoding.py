"""The decoders on a small random model: the spec's oracles (alpha -> infinity gives the dense tokens bit for bit;
threshold 1 unmasks exactly one token per step), the delayed cache against a full recompute, FOCUS's compaction."""

import pytest
import torch

from icml26.focus_dllm.decoding import DecodeSettings, decode
from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM

CONFIG = BlockDiffusionConfig(
    vocab_size=12, mask_token_id=11, hidden_size=32, layers=4, heads=4, intermediate_size=64, block_size=8
)


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    return BlockDiffusionLM(CONFIG).eval()


def _prompts():
    return torch.randint(0, 11, (3, 8), generator=torch.Generator().manual_seed(4))


def test_focus_with_every_token_retained_is_the_dense_decoder(model):
    dense, dense_stats = decode(model, _prompts(), 2, DecodeSettings(threshold=0.2))
    focus, focus_stats = decode(model, _prompts(), 2, DecodeSettings(threshold=0.2, alpha=1e9))
    assert torch.equal(dense, focus)
    assert dense_stats.rows == focus_stats.rows and dense_stats.steps == focus_stats.steps


def test_a_step_with_nothing_to_evict_computes_no_importance(model, monkeypatch):
    from icml26.focus_dllm import selection

    calls = []
    real = selection.importance
    monkeypatch.setattr(selection, "importance", lambda *a, **k: calls.append(1) or real(*a, **k))
    decode(model, _prompts(), 2, DecodeSettings(threshold=0.2, alpha=1e9))
    assert calls == []  # the retain target covers every masked token at every step
    decode(model, _prompts(), 2, DecodeSettings(threshold=1.0, alpha=1.0))
    assert calls  # one token per step: the target 1 leaves the others to evict
    calls.clear()
    decode(model, _prompts(), 2, DecodeSettings(threshold=0.2, observe=True))
    assert calls  # observing the dense decoder still records every importance


def test_every_row_through_the_matrix_products_is_a_real_row(model, monkeypatch):
    """Rows are packed (no padding to the batch's widest) through the projections and the MLP: the rows the MLP
    sees add up to the real rows counted, while attention alone sees the padded layout."""
    from icml26.focus_dllm.model import Layer

    seen = []
    real = Layer.feed_forward
    monkeypatch.setattr(Layer, "feed_forward", lambda self, x: seen.append(x.shape[0] * x.shape[1]) or real(self, x))
    _, stats = decode(model, _prompts(), 2, DecodeSettings(threshold=1.0, alpha=1.0))
    assert sum(seen) == stats.rows and stats.padding > 0  # the sequences' row sets differ in width


def test_threshold_one_unmasks_exactly_one_token_per_step(model):
    tokens, stats = decode(model, _prompts(), 2, DecodeSettings(threshold=1.0))
    assert set(stats.decoded) == {1} and stats.steps == 2 * CONFIG.block_size
    assert (tokens != CONFIG.mask_token_id).all()


def test_focus_computes_fewer_rows(model):
    _, dense = decode(model, _prompts(), 2, DecodeSettings(threshold=1.0))
    _, focus = decode(model, _prompts(), 2, DecodeSettings(threshold=1.0, alpha=1.0))
    assert focus.rows < dense.rows
    assert all(e["retained"] <= e["masked"] and e["decoded"] <= e["retained"] for e in focus.events)


def test_a_step_limit_too_small_fails_instead_of_looping(model):
    with pytest.raises(RuntimeError, match="still has masked tokens after 3 steps"):
        decode(model, _prompts(), 1, DecodeSettings(threshold=1.0, max_steps_per_block=3))


def test_the_delayed_cache_matches_recomputing_the_processing_set(model):
    """Decoding one token per step left to right, a settled token's cached keys equal the ones a full block
    pass computes: the greedy result equals decoding with a cache-free reference that reruns the whole block."""
    tokens, _ = decode(model, _prompts(), 1, DecodeSettings(threshold=1.0))
    prompts = _prompts()
    block = torch.full((3, 8), CONFIG.mask_token_id)
    positions = torch.arange(16).expand(3, -1)
    from icml26.focus_dllm.model import block_causal_mask

    with torch.no_grad():
        for _ in range(8):
            logits, _ = model(torch.cat([prompts, block], 1), positions, mask=block_causal_mask(16, 8))
            logits[..., CONFIG.mask_token_id] = -torch.inf
            probs = torch.softmax(logits[:, 8:], -1)
            confidence, choice = probs.max(-1)
            confidence[block != CONFIG.mask_token_id] = -1
            best = confidence.argmax(1)
            block[torch.arange(3), best] = choice[torch.arange(3), best]
    agree = (block == tokens).float().mean()
    assert agree > 0.9  # the delayed cache holds keys computed a step early for settled tokens


def test_observing_the_dense_decoder_changes_nothing_and_sees_every_decoded_token(model):
    plain, _ = decode(model, _prompts(), 2, DecodeSettings(threshold=0.3))
    seen, stats = decode(model, _prompts(), 2, DecodeSettings(threshold=0.3, observe=True))
    assert torch.equal(plain, seen)
    assert sum(sum(o["decoded"]) for o in stats.observed) == 3 * 2 * CONFIG.block_size
    for o in stats.observed:
        assert len(o["i0"]) == len(o["confidence"]) == len(o["position"]) and o["position"] == sorted(o["position"])
        assert sum(o["i0"]) == pytest.approx(CONFIG.heads * len(o["i0"]), rel=1e-5)  # the importance oracle


def test_sequences_that_finish_their_block_early_wait_for_the_others(model):
    """At this threshold some sequences finish a block steps before others; both decoders keep going on the
    rest (FOCUS retains nothing for a finished sequence) and every token ends decoded."""
    prompts = torch.randint(0, 11, (8, 8), generator=torch.Generator().manual_seed(9))
    for alpha in (None, 1.0, 2.0):
        tokens, stats = decode(model, prompts, 2, DecodeSettings(threshold=0.105, alpha=alpha))
        assert (tokens != CONFIG.mask_token_id).all()
        per_step = torch.tensor(stats.decoded).view(-1, 8)
        assert (per_step == 0).any()  # some sequence sat out a step: finished while others were not
