"""Width- and depth-parameterised residual MLPs: SP, CompleteP and NTK, relative to a base size.

Network: ``input`` (Linear d_in -> width), ``depth`` residual blocks ``h <- h + alpha * tanh(W h + b)``,
``readout`` (Linear width -> d_out) whose output is multiplied by ``readout_multiplier``. Every weight
starts as N(0, 1/fan_in) (biases 0) from the same seed, so at the base width and depth all three
parameterisations build identical networks and take identical first Adam steps (tested). With the
width multiplier ``m = width / base_width`` and depth multiplier ``m_L = depth / base_depth``:

=============  ===============  ===============  ===============  ==============  =====================
               input lr         hidden lr        readout lr       readout mult.   residual alpha, eps
=============  ===============  ===============  ===============  ==============  =====================
SP             lr               lr               lr               1               1, eps
CompleteP      lr               lr / m           lr               1 / m           1 / m_L, eps / m
NTK            lr m^(-1/2)      lr m^(-3/2)      lr m^(-1)        1               1, eps
=============  ===============  ===============  ===============  ==============  =====================

Hidden weights' init std is 1/sqrt(fan_in) = 1/sqrt(m * base_width) in all three (the spec's
"hidden-weight init std proportional to 1/sqrt(width multiplier)"). CompleteP's readout multiplier
1/m with an unchanged readout lr is the muP output rule for Adam written in "multiplier" form; its
residual branches shrink as 1/m_L (Dey et al.'s alpha = 1 depth scaling). The NTK rates are the spec's.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn as nn

PARAMETERISATIONS = ("sp", "completep", "ntk")


@dataclass(frozen=True)
class Scaling:
    """Multipliers of one parameterisation at one size (all 1 at the base size)."""

    input_lr: float
    hidden_lr: float
    readout_lr: float
    readout_multiplier: float
    residual: float
    eps: float

    @classmethod
    def of(cls, name: str, width: int, depth: int, base_width: int, base_depth: int) -> Scaling:
        if name not in PARAMETERISATIONS:
            raise ValueError(f"parameterisation must be one of {PARAMETERISATIONS}, got {name!r}")
        m, m_depth = width / base_width, max(depth, 1) / max(base_depth, 1)
        if name == "sp":
            return cls(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
        if name == "completep":
            return cls(1.0, 1.0 / m, 1.0, 1.0 / m, 1.0 / m_depth, 1.0 / m)
        return cls(m**-0.5, m**-1.5, 1.0 / m, 1.0, 1.0, 1.0)


class ParamMLP(nn.Module):
    """A residual MLP whose scaling follows ``parameterisation``; ``features`` returns every layer."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        width: int,
        depth: int,
        parameterisation: str,
        *,
        base_width: int = 64,
        base_depth: int = 2,
        seed: int = 0,
    ):
        super().__init__()
        self.parameterisation = parameterisation
        self.scaling = Scaling.of(parameterisation, width, depth, base_width, base_depth)
        gen = torch.Generator().manual_seed(seed)
        self.input = nn.Linear(d_in, width)
        self.hidden = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.readout = nn.Linear(width, d_out)
        with torch.no_grad():
            for layer in (self.input, *self.hidden, self.readout):
                layer.weight.normal_(0.0, layer.in_features**-0.5, generator=gen)
                layer.bias.zero_()

    def features(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Activations after the input layer, after each block, and the (multiplied) output."""
        h = torch.tanh(self.input(x))
        out = [h]
        for layer in self.hidden:
            h = h + self.scaling.residual * torch.tanh(layer(h))
            out.append(h)
        out.append(self.readout(h) * self.scaling.readout_multiplier)
        return out

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x)[-1]

    def param_groups(self, lr: float, eps: float = 1e-8) -> list[dict]:
        """Adam parameter groups with this parameterisation's learning rates and epsilon."""
        s = self.scaling
        return [
            {"params": list(self.input.parameters()), "lr": lr * s.input_lr, "eps": eps * s.eps, "name": "input"},
            {
                "params": [p for layer in self.hidden for p in layer.parameters()],
                "lr": lr * s.hidden_lr,
                "eps": eps * s.eps,
                "name": "hidden",
            },
            {"params": list(self.readout.parameters()), "lr": lr * s.readout_lr, "eps": eps * s.eps, "name": "readout"},
        ]


def adam(model: ParamMLP, lr: float, eps: float = 1e-8) -> torch.optim.Adam:
    return torch.optim.Adam(model.param_groups(lr, eps))
