"""The throughput measurement counts generated tokens only, times each decoder by the clock (stubbed here, so
the expected numbers come from outside the function) and reports the deterministic compute beside."""

import pytest
import torch

from icml26.common import timing
from icml26.focus_dllm import throughput
from icml26.focus_dllm.decoding import DecodeSettings, decode
from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM

# Seconds each decode takes on the stubbed clock, per repeat: the median is the middle value.
DURATIONS = {"dense": [3.0, 2.0, 9.0], "focus": [1.0, 1.5, 0.5]}


def test_rows_are_tokens_over_the_clock_s_median_and_count_generated_tokens_only(monkeypatch):
    torch.manual_seed(0)
    config = BlockDiffusionConfig(
        vocab_size=12, mask_token_id=11, hidden_size=16, layers=3, heads=2, intermediate_size=32, block_size=4
    )
    model = BlockDiffusionLM(config).eval()
    prompts = torch.randint(0, 11, (3, 8), generator=torch.Generator().manual_seed(0))
    decoders = {"dense": DecodeSettings(threshold=1.0), "focus": DecodeSettings(threshold=1.0, alpha=1.0)}
    now, calls = [0.0], {"dense": 0, "focus": 0}

    def timed_decode(model, batch, blocks, settings, valid=None):
        name = "focus" if settings.alpha else "dense"
        out = decode(model, batch, blocks, settings, valid)
        phase = calls[name] % 5  # per batch size: a warm-up, the three timed repeats, the peak-memory run
        calls[name] += 1
        now[0] += DURATIONS[name][phase - 1] if 1 <= phase <= 3 else 0.0
        return out

    monkeypatch.setattr(throughput, "decode", timed_decode)
    monkeypatch.setattr(timing.time, "perf_counter", lambda: now[0])
    rows = throughput.measure(model, prompts, 2, decoders, batch_sizes=[2, 5], repeats=3)
    assert [(r["batch"], r["decoder"]) for r in rows] == [(2, "dense"), (2, "focus"), (5, "dense"), (5, "focus")]
    for r in rows:
        median = {"dense": 3.0, "focus": 1.0}[r["decoder"]]
        assert r["seconds"] == median
        assert r["tokens_per_s"] == pytest.approx(r["batch"] * 2 * 4 / median)  # the prompt's 8 tokens not counted
        assert r["steps"] == 2 * 4  # threshold 1: one token per step
        assert r["ms_per_step"] == pytest.approx(1000 * median / 8)
        assert r["peak_mb"] >= 0  # measured (NaN fails): the decode's own memory, too small here to bound
    dense, focus = rows[2], rows[3]
    assert focus["rows_per_token"] < dense["rows_per_token"]
