"""The masked-diffusion objective by hand, the noising, and a short training run that learns a copy task."""

import pytest
import torch

from icml26.focus_dllm import training
from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM, block_causal_mask

CONFIG = BlockDiffusionConfig(
    vocab_size=10, mask_token_id=9, hidden_size=32, layers=2, heads=4, intermediate_size=64, block_size=4
)


def test_noising_masks_at_least_one_token_per_row():
    g = torch.Generator().manual_seed(0)
    block = torch.zeros((200, 4), dtype=torch.long)
    noisy, masked = training.noised_block(block, torch.full((200,), 0.01), 9, g)
    assert masked.any(dim=1).all() and (noisy[masked] == 9).all() and (noisy[~masked] == 0).all()
    _, many = training.noised_block(torch.zeros((2000, 4), dtype=torch.long), torch.full((2000,), 0.5), 9, g)
    assert many.float().mean() == pytest.approx(0.5 + 0.5**4 / 4, abs=0.02)  # plus the forced ones


def test_the_loss_is_the_weighted_masked_cross_entropy():
    torch.manual_seed(0)
    model = BlockDiffusionLM(CONFIG)
    seqs = torch.randint(0, 9, (3, 12), generator=torch.Generator().manual_seed(1))
    t = torch.tensor([0.3, 0.6, 0.9])
    loss = training.diffusion_loss(model, seqs, 1, 1, t, torch.Generator().manual_seed(2))
    noisy, masked = training.noised_block(seqs[:, 8:12], t, 9, torch.Generator().manual_seed(2))
    ids = torch.cat([seqs[:, :8], noisy], 1)
    logits, _ = model(ids, torch.arange(12).expand(3, -1), mask=block_causal_mask(12, 4))
    logp = torch.log_softmax(logits[:, 8:], -1).gather(-1, seqs[:, 8:12, None]).squeeze(-1)
    by_hand = torch.stack([-(logp[i][masked[i]]).sum() / (t[i] * 4) for i in range(3)]).mean()
    assert float(loss.detach()) == pytest.approx(float(by_hand.detach()), rel=1e-5)


def test_training_learns_to_copy_a_block():
    torch.manual_seed(0)
    model = BlockDiffusionLM(CONFIG)
    g = torch.Generator().manual_seed(3)
    text = torch.randint(0, 8, (256, 4), generator=g)
    seqs = torch.cat([text, text], dim=1)  # prompt block, answer block = the same tokens
    losses = training.train(model, seqs, 1, steps=150, batch_size=32, lr=3e-3, seed=0, log=lambda _: None)
    assert sum(losses[-10:]) / 10 < 0.3 * sum(losses[:10]) / 10
