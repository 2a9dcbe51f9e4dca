"""The block-diffusion model: block-causal attention, and the spec's oracle that cached-prefix logits equal a full
recompute (atol 1e-5)."""

import pytest
import torch

from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM, block_causal_mask, extend_cache

CONFIG = BlockDiffusionConfig(
    vocab_size=20, mask_token_id=19, hidden_size=32, layers=3, heads=4, intermediate_size=64, block_size=4
)


def _model():
    torch.manual_seed(0)
    return BlockDiffusionLM(CONFIG).eval()


def test_block_causal_mask():
    mask = block_causal_mask(6, 2)[0, 0]
    assert mask.tolist()[0] == [True, True, False, False, False, False]
    assert mask.tolist()[3] == [True, True, True, True, False, False]


def test_cached_prefix_logits_equal_a_full_recompute():
    model = _model()
    ids = torch.randint(0, 19, (2, 12), generator=torch.Generator().manual_seed(1))
    positions = torch.arange(12).expand(2, 12)
    with torch.no_grad():
        full, _ = model(ids, positions, mask=block_causal_mask(12, 4))
        cache = None
        for start in range(0, 12, 4):  # block by block, each after the cache of the blocks before
            logits, own = model(ids[:, start : start + 4], positions[:, start : start + 4], cache)
            assert torch.allclose(logits, full[:, start : start + 4], atol=1e-5)
            cache = extend_cache(cache, own)


def test_a_block_does_not_see_later_blocks():
    model = _model()
    ids = torch.randint(0, 19, (1, 8), generator=torch.Generator().manual_seed(2))
    changed = ids.clone()
    changed[0, 6] = (changed[0, 6] + 1) % 19
    positions = torch.arange(8)[None]
    with torch.no_grad():
        a, _ = model(ids, positions, mask=block_causal_mask(8, 4))
        b, _ = model(changed, positions, mask=block_causal_mask(8, 4))
    assert torch.equal(a[:, :4], b[:, :4]) and not torch.allclose(a[:, 4:], b[:, 4:])


def test_config_checks_the_head_size():
    with pytest.raises(ValueError, match="even head size"):
        BlockDiffusionConfig(vocab_size=5, mask_token_id=4, hidden_size=30, heads=4)


def test_a_saved_model_loads_back_identical_and_a_bad_folder_is_named(tmp_path):
    from icml26.common.sources import SourceError
    from icml26.focus_dllm.model import load, save

    model = _model()
    save(model, tmp_path / "m")
    again = load(tmp_path / "m")
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), again.state_dict().values()))
    save(again, tmp_path / "m2")
    assert (tmp_path / "m" / "model.safetensors").read_bytes() == (tmp_path / "m2" / "model.safetensors").read_bytes()
    with pytest.raises(SourceError, match="nowhere: not a block-diffusion model folder"):
        load(tmp_path / "nowhere")
    (tmp_path / "m" / "config.json").write_text('{"vocab_size": 5}')
    with pytest.raises(SourceError, match="m/config.json: not a block-diffusion model config"):
        load(tmp_path / "m")
