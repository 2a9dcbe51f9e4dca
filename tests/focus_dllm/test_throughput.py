"""The throughput measurement counts generated tokens only and reports the deterministic compute beside."""

import torch

from icml26.focus_dllm.decoding import DecodeSettings
from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM
from icml26.focus_dllm.throughput import measure


def test_rows_cover_every_batch_and_decoder_and_count_generated_tokens_only():
    torch.manual_seed(0)
    config = BlockDiffusionConfig(
        vocab_size=12, mask_token_id=11, hidden_size=16, layers=3, heads=2, intermediate_size=32, block_size=4
    )
    model = BlockDiffusionLM(config).eval()
    prompts = torch.randint(0, 11, (3, 8), generator=torch.Generator().manual_seed(0))
    decoders = {"dense": DecodeSettings(threshold=1.0), "focus": DecodeSettings(threshold=1.0, alpha=1.0)}
    rows = measure(model, prompts, 2, decoders, batch_sizes=[2, 5], repeats=2)
    assert [(r["batch"], r["decoder"]) for r in rows] == [(2, "dense"), (2, "focus"), (5, "dense"), (5, "focus")]
    for r in rows:
        assert r["tokens_per_s"] == r["batch"] * 2 * 4 / r["seconds"]  # the prompt's 8 tokens are not counted
        assert r["steps"] == 2 * 4  # threshold 1: one token per step
        assert r["ms_per_step"] == 1000 * r["seconds"] / r["steps"]
        assert r["peak_mb"] >= 0  # measured (NaN fails): the decode's own memory, too small here to bound
    dense, focus = rows[2], rows[3]
    assert focus["rows_per_token"] < dense["rows_per_token"]
