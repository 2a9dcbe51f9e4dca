"""A beta-VAE on dSprites-style slices and the grid maps of its layers (application study 2).

Two models (``architecture``): ``mlp`` (ours, below paper scale): an MLP encoder ``pixels -> hidden -> hidden ->
(mu, log var)`` and a mirrored decoder; ``conv`` (paper scale): the reference's convolutional BetaVAE_B (Burgess
et al. 2018) -- four 4x4 stride-2 convolutions of 32, 32, 64, 64 channels, a fully connected layer of
``hidden[1]`` units, ``latent`` Gaussian latents, and the mirror image with transposed convolutions. Both use SiLU
activations (the reference's are ReLU) so that every layer is a smooth map of the latent grid (finite differences
of ReLU networks see kinks, not curvature). The seven measured layers are the same points in both: input, the
encoder's two stages (MLP layers; the convolution stack, then the fully connected layer), mu, the decoder's two
stages (the fully connected layers; the transposed-convolution stack's last hidden map) and the output.
Objective: the Burgess et al. (2018) capacity form ``BCE + gamma |KL - C|`` with ``C`` ramped linearly from 0 to
``capacity`` over ``capacity_iterations``; images in [-1, 1] are the targets ``(x + 1) / 2`` of a per-pixel BCE.

:func:`layer_maps` pushes a grid of images through a trained (or untrained) network and returns one
array ``grid_shape + (width,)`` per layer - inputs, encoder layers, mu, decoder layers, output - which
:mod:`.geometry` measures like any other grid-sampled map. The same code trains on CPU (quick scale)
and GPU (paper scale, ``device: auto``).
"""

from __future__ import annotations

import time

import numpy as np

LAYERS = ("input", "encoder_1", "encoder_2", "mu", "decoder_1", "decoder_2", "output")


ARCHITECTURES = ("mlp", "conv")
CHANNELS = (32, 32, 64, 64)  # BetaVAE_B's convolution stack


def build(pixels: int, hidden: list[int], latent: int, architecture: str = "mlp"):
    """The network: encoder layers, the (mu, log var) head, decoder layers and the pixel readout."""
    import torch
    import torch.nn as nn

    if architecture == "conv":
        return _conv(pixels, hidden, latent)
    if architecture != "mlp":
        raise ValueError(f"vae.architecture must be one of {ARCHITECTURES}, got {architecture!r}")

    class BetaVAE(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = nn.ModuleList([nn.Linear(pixels, hidden[0]), nn.Linear(hidden[0], hidden[1])])
            self.head = nn.Linear(hidden[1], 2 * latent)
            self.decoder = nn.ModuleList([nn.Linear(latent, hidden[1]), nn.Linear(hidden[1], hidden[0])])
            self.readout = nn.Linear(hidden[0], pixels)
            self.act = nn.SiLU()

        def forward(self, x, sample: bool = True, trace: bool = False):
            out = {"input": x}
            h = x
            for i, layer in enumerate(self.encoder, start=1):
                h = self.act(layer(h))
                out[f"encoder_{i}"] = h
            mu, log_var = self.head(h).chunk(2, dim=-1)
            out["mu"] = mu
            z = mu + (0.5 * log_var).exp() * torch.randn_like(mu) if sample else mu
            h = z
            for i, layer in enumerate(self.decoder, start=1):
                h = self.act(layer(h))
                out[f"decoder_{i}"] = h
            logits = self.readout(h)
            out["output"] = torch.sigmoid(logits)
            return out if trace else (logits, mu, log_var)

    return BetaVAE()


def _conv(pixels: int, hidden: list[int], latent: int):
    """BetaVAE_B on square images of ``pixels`` (a side divisible by 16), SiLU activations."""
    import torch
    import torch.nn as nn

    side = int(round(pixels**0.5))
    if side * side != pixels or side % 16:
        raise ValueError(f"the convolutional beta-VAE needs square images with a side divisible by 16, got {pixels}")
    small, width = side // 16, hidden[1]

    class ConvBetaVAE(nn.Module):
        def __init__(self):
            super().__init__()
            ins = (1, *CHANNELS[:-1])
            self.convs = nn.ModuleList(nn.Conv2d(a, b, 4, 2, 1) for a, b in zip(ins, CHANNELS))
            self.fc = nn.Linear(CHANNELS[-1] * small * small, width)
            self.head = nn.Linear(width, 2 * latent)
            self.unfc = nn.ModuleList([nn.Linear(latent, width), nn.Linear(width, CHANNELS[-1] * small * small)])
            outs = (*reversed(CHANNELS[:-1]), 1)
            self.deconvs = nn.ModuleList(nn.ConvTranspose2d(a, b, 4, 2, 1) for a, b in zip(reversed(CHANNELS), outs))
            self.act = nn.SiLU()

        def forward(self, x, sample: bool = True, trace: bool = False):
            out = {"input": x}
            h = x.reshape(-1, 1, side, side)
            for conv in self.convs:
                h = self.act(conv(h))
            out["encoder_1"] = h.flatten(1)
            h = self.act(self.fc(h.flatten(1)))
            out["encoder_2"] = h
            mu, log_var = self.head(h).chunk(2, dim=-1)
            out["mu"] = mu
            z = mu + (0.5 * log_var).exp() * torch.randn_like(mu) if sample else mu
            h = self.act(self.unfc[0](z))
            out["decoder_1"] = h
            h = self.act(self.unfc[1](h)).reshape(-1, CHANNELS[-1], small, small)
            for deconv in self.deconvs[:-1]:
                h = self.act(deconv(h))
            out["decoder_2"] = h.flatten(1)
            logits = self.deconvs[-1](h).flatten(1)
            out["output"] = torch.sigmoid(logits)
            return out if trace else (logits, mu, log_var)

    return ConvBetaVAE()


def train(
    images: np.ndarray,
    *,
    hidden: list[int],
    latent: int,
    iterations: int,
    checkpoints: list[int],
    batch: int,
    lr: float,
    gamma: float,
    capacity: float,
    capacity_iterations: int,
    seed: int,
    device: str,
    architecture: str = "mlp",
) -> tuple[dict[int, dict], list[dict]]:
    """Train on ``images`` (N, pixels) in [-1, 1]; return state dicts at ``checkpoints`` and a loss log."""
    import torch

    torch.manual_seed(seed)
    x_all = torch.as_tensor(images, dtype=torch.float32, device=device)
    target_all = (x_all + 1) / 2
    model = build(images.shape[1], hidden, latent, architecture).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    gen = torch.Generator(device="cpu").manual_seed(seed)
    states, log = {}, []
    t0 = time.perf_counter()
    for it in range(iterations + 1):
        if it in checkpoints:
            states[it] = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
        if it == iterations:
            break
        idx = torch.randint(0, len(x_all), (batch,), generator=gen).to(device)
        logits, mu, log_var = model(x_all[idx])
        bce = torch.nn.functional.binary_cross_entropy_with_logits(logits, target_all[idx], reduction="sum") / batch
        kl = 0.5 * (mu.pow(2) + log_var.exp() - 1 - log_var).sum(dim=1).mean()
        c = capacity * min(1.0, it / max(capacity_iterations, 1))
        loss = bce + gamma * (kl - c).abs()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % max(1, iterations // 20) == 0:
            log.append(
                {
                    "iteration": it,
                    "bce": bce.item(),
                    "kl": kl.item(),
                    "capacity": c,
                    "seconds": time.perf_counter() - t0,
                }
            )
            print(f"iteration {it}: BCE {bce.item():.2f}, KL {kl.item():.2f} (C = {c:.1f})", flush=True)
    return states, log


def layer_maps(
    state: dict, images: np.ndarray, *, hidden: list[int], latent: int, device: str = "cpu", architecture: str = "mlp"
) -> dict[str, np.ndarray]:
    """Every layer's activations for a grid of images (grid_shape + (pixels,)), in float64."""
    import torch

    grid_shape = images.shape[:-1]
    model = build(images.shape[-1], hidden, latent, architecture)
    model.load_state_dict(state)
    model.to(device).eval()
    with torch.no_grad():
        out = model(
            torch.as_tensor(images.reshape(-1, images.shape[-1]), dtype=torch.float32, device=device),
            sample=False,
            trace=True,
        )
    return {name: out[name].double().cpu().numpy().reshape(*grid_shape, -1) for name in LAYERS}
