"""The paper's SDAR models read from a Hugging Face folder (a replica saved with `save_pretrained`, icml26.common.lm
.replicas.sdar): equal to transformers' Qwen3 when the block is one token (the causal mask), the spec's cached-prefix
oracle at a real block size, the FOCUS decoder over grouped-query attention and left-padded prompts, and one-line
errors for folders that are not SDAR."""

import json
import shutil

import pytest
import torch

from icml26.common.lm import replicas
from icml26.common.sources import SourceError
from icml26.focus_dllm import sdar
from icml26.focus_dllm.decoding import DecodeSettings, decode
from icml26.focus_dllm.model import block_causal_mask, extend_cache

CORPUS = ["Question: Tom has 3 apples and buys 4 more. How many? Answer: 7", "#### 12", "\\boxed{3}"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    tokenizer = replicas.bpe_tokenizer(CORPUS, "sdar")
    return replicas.sdar(tmp_path_factory.mktemp("sdar") / "SDAR-tiny", tokenizer, layers=3)  # FOCUS compacts at 2


def _ids(model, shape, seed):
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, model.config.mask_token_id, shape, generator=generator)  # ids below the mask token


def test_with_one_token_blocks_sdar_is_qwen3(folder):
    from transformers import Qwen3ForCausalLM

    model = sdar.load(folder, block_size=1)
    ids = _ids(model, (2, 9), 0)
    reference = Qwen3ForCausalLM.from_pretrained(folder, local_files_only=True).eval()
    with torch.no_grad():
        ours, _ = model(ids, torch.arange(9).expand(2, 9), mask=block_causal_mask(9, 1))
        theirs = reference(ids).logits
    assert torch.allclose(ours, theirs, atol=1e-5)


def test_cached_prefix_logits_equal_a_full_recompute(folder):
    model = sdar.load(folder, block_size=4)
    ids, positions = _ids(model, (2, 12), 1), torch.arange(12).expand(2, 12)
    with torch.no_grad():
        full, _ = model(ids, positions, mask=block_causal_mask(12, 4))
        cache = None
        for start in range(0, 12, 4):
            logits, own = model(ids[:, start : start + 4], positions[:, start : start + 4], cache)
            assert torch.allclose(logits, full[:, start : start + 4], atol=1e-5)
            cache = extend_cache(cache, own)
    assert own[0][0].shape[1] == model.config.kv_heads == 2  # the cache holds the key-value heads only


def test_focus_retaining_everything_is_dense_over_grouped_query_attention(folder):
    model = sdar.load(folder, block_size=4)
    prompts = _ids(model, (3, 8), 2)
    dense, _ = decode(model, prompts, 2, DecodeSettings(threshold=0.9))
    focus, stats = decode(model, prompts, 2, DecodeSettings(threshold=0.9, alpha=1e9))
    assert torch.equal(dense, focus) and stats.events  # FOCUS ran its selection, and kept every token
    evicting, stats = decode(model, prompts, 2, DecodeSettings(threshold=1.0, alpha=1.0))
    assert evicting.shape == dense.shape  # compaction over GQA rows runs to the end
    assert any(e["retained"] < e["masked"] for e in stats.events)


def test_a_left_padded_prompt_decodes_as_it_does_alone(folder):
    model = sdar.load(folder, block_size=4)
    pad = model.config.vocab_size - 1
    short, long = _ids(model, (1, 5), 3), _ids(model, (1, 8), 4)
    batch = torch.cat([torch.cat([torch.full((1, 3), pad), short], dim=1), long])
    valid = torch.ones_like(batch, dtype=torch.bool)
    valid[0, :3] = False
    together, _ = decode(model, batch, 2, DecodeSettings(threshold=1.0), prompt_valid=valid)
    alone_ids = torch.cat([torch.full((1, 7), pad), short], dim=1)  # more padding: a whole block of it
    alone_valid = torch.arange(12)[None] >= 7
    alone, _ = decode(model, alone_ids, 2, DecodeSettings(threshold=1.0), prompt_valid=alone_valid)
    assert torch.equal(together[0], alone[0])
    other = batch.clone()
    other[0, :3] = pad - 1  # what the padding holds is never read
    again, _ = decode(model, other, 2, DecodeSettings(threshold=1.0), prompt_valid=valid)
    assert torch.equal(together, again)


def test_sharded_untied_weights_load(tmp_path):
    folder = replicas.sdar(
        tmp_path / "SDAR-8B-like", replicas.bpe_tokenizer(CORPUS, "sdar"), tied=False, max_shard_size="20KB"
    )
    assert (folder / "model.safetensors.index.json").is_file()
    model = sdar.load(folder, block_size=4, dtype=torch.bfloat16)
    assert model.lm_head.weight.dtype == torch.bfloat16
    assert not torch.equal(model.lm_head.weight, model.embed.weight)


def test_a_folder_that_is_not_sdar_is_one_line_naming_it(folder, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    config = json.loads((bad / "config.json").read_text())
    (bad / "config.json").write_text(json.dumps(config | {"model_type": "llama"}))
    with pytest.raises(SourceError, match="bad: not an SDAR model .*'llama'"):
        sdar.load(bad, block_size=4)
    (bad / "config.json").write_text(json.dumps(config | {"rope_parameters": {"rope_type": "yarn"}}))
    with pytest.raises(SourceError, match="config.json: RoPE scaling 'yarn' is not supported"):
        sdar.load(bad, block_size=4)
    (bad / "config.json").write_text(json.dumps(config))
    replicas.bpe_tokenizer(CORPUS, "qwen2").save_pretrained(bad)  # Qwen2.5's tokens: no <|MASK|>
    with pytest.raises(SourceError, match=r"bad: the tokenizer has no mask token"):
        sdar.load(bad, block_size=4)


def test_weights_of_another_size_are_named(folder, tmp_path):
    small = replicas.sdar(tmp_path / "other", replicas.bpe_tokenizer(CORPUS, "sdar"), width=16)
    shutil.copy(small / "model.safetensors", tmp_path / "model.safetensors")
    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    shutil.copy(tmp_path / "model.safetensors", bad / "model.safetensors")
    with pytest.raises(SourceError, match="bad: weights do not match the model: .* of another shape"):
        sdar.load(bad, block_size=4)
