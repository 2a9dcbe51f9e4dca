"""The beta-VAE: deterministic training, the capacity objective's schedule, one map per layer."""

import numpy as np
import pytest

from icml26.manifold_microscope import vae

torch = pytest.importorskip("torch")


def _images(n=40, pixels=36, seed=0):
    return np.tanh(np.random.default_rng(seed).normal(size=(n, pixels)))


def test_training_is_deterministic_and_keeps_the_requested_checkpoints():
    kw = dict(
        hidden=[12, 6],
        latent=2,
        iterations=30,
        checkpoints=[0, 10, 30],
        batch=8,
        lr=1e-3,
        gamma=5.0,
        capacity=3.0,
        capacity_iterations=20,
        seed=4,
        device="cpu",
    )
    one, log_one = vae.train(_images(), **kw)
    two, log_two = vae.train(_images(), **kw)
    assert sorted(one) == [0, 10, 30]
    for it in one:
        for name in one[it]:
            assert torch.equal(one[it][name], two[it][name])
    assert not torch.equal(one[0]["readout.weight"], one[30]["readout.weight"])
    assert [r["capacity"] for r in log_one][-1] == 3.0  # ramped to C after capacity_iterations
    assert [r["bce"] for r in log_one] == [r["bce"] for r in log_two]


def test_layer_maps_cover_every_layer_with_the_right_widths_and_the_input_is_the_data():
    states, _ = vae.train(
        _images(),
        hidden=[12, 6],
        latent=2,
        iterations=1,
        checkpoints=[0],
        batch=4,
        lr=1e-3,
        gamma=1.0,
        capacity=1.0,
        capacity_iterations=1,
        seed=0,
        device="cpu",
    )
    grid = _images(15).reshape(3, 5, 36)
    maps = vae.layer_maps(states[0], grid, hidden=[12, 6], latent=2)
    assert list(maps) == list(vae.LAYERS)
    widths = {name: m.shape[-1] for name, m in maps.items()}
    assert widths == {
        "input": 36,
        "encoder_1": 12,
        "encoder_2": 6,
        "mu": 2,
        "decoder_1": 6,
        "decoder_2": 12,
        "output": 36,
    }
    np.testing.assert_allclose(maps["input"], grid, atol=1e-6)
    assert maps["output"].min() >= 0 and maps["output"].max() <= 1


def test_the_convolutional_beta_vae_is_betavae_b_with_the_same_seven_layers():
    """The reference's BetaVAE_B at paper scale: four stride-2 convolutions (32, 32, 64, 64 channels) to a 4 x 4 map
    of 64x64 images, a fully connected layer, the latents, and the mirror image; the same seven measured layers."""
    model = vae.build(64 * 64, [1024, 256], 10, "conv")
    assert [c.out_channels for c in model.convs] == list(vae.CHANNELS) and model.fc.in_features == 64 * 4 * 4
    assert model.fc.out_features == 256 and model.head.out_features == 20
    images = _images(12, pixels=32 * 32)
    states, _ = vae.train(
        images, hidden=[64, 16], latent=3, iterations=2, checkpoints=[0, 2], batch=4, lr=1e-3, gamma=1.0,
        capacity=1.0, capacity_iterations=1, seed=0, device="cpu", architecture="conv",
    )  # fmt: skip
    assert not torch.equal(states[0]["convs.0.weight"], states[2]["convs.0.weight"])
    maps = vae.layer_maps(states[2], images.reshape(3, 4, -1), hidden=[64, 16], latent=3, architecture="conv")
    widths = {name: m.shape[-1] for name, m in maps.items()}
    assert list(maps) == list(vae.LAYERS) and widths == {
        "input": 1024, "encoder_1": 64 * 2 * 2, "encoder_2": 16, "mu": 3, "decoder_1": 16, "decoder_2": 32 * 16 * 16,
        "output": 1024,
    }  # fmt: skip
    with pytest.raises(ValueError, match="side divisible by 16"):
        vae.build(36, [12, 6], 2, "conv")
