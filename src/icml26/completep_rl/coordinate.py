"""The coordinate check: how much each layer's features move in the first Adam steps, against width.

Task (ours): synthetic regression ``y = sin(x . v)`` with ``x ~ N(0, I_8)``; ``steps`` Adam steps on the
mean squared error from the same seed at every width. For every layer the size of the update is the
root-mean-square over a fixed batch and over coordinates of ``h_t(x) - h_0(x)``. Theory: flat in width
under CompleteP (feature learning at every width), shrinking like width^(-1/2) under NTK, growing
under SP. Slopes are log-log least-squares fits over the widths.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from .parameterisation import ParamMLP, adam


def feature_updates(
    parameterisation: str,
    width: int,
    *,
    depth: int,
    steps: int,
    lr: float,
    seed: int,
    base_width: int = 64,
    base_depth: int = 2,
    d_in: int = 8,
    batch: int = 256,
) -> list[float]:
    """RMS change of every layer's features (input layer, each block, output) after ``steps`` steps."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, d_in, generator=gen)
    y = torch.sin(x @ torch.randn(d_in, 1, generator=gen))
    model = ParamMLP(d_in, 1, width, depth, parameterisation, base_width=base_width, base_depth=base_depth, seed=seed)
    with torch.no_grad():
        before = [h.clone() for h in model.features(x)]
    opt = adam(model, lr)
    for _ in range(steps):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        after = model.features(x)
    return [float((a - b).pow(2).mean().sqrt()) for a, b in zip(after, before)]


def layer_names(depth: int) -> list[str]:
    return ["input", *[f"block_{i + 1}" for i in range(depth)], "output"]


def run(parameterisations: list[str], widths: list[int], seeds: list[int], **kw) -> pd.DataFrame:
    rows = []
    names = layer_names(kw["depth"])
    for p in parameterisations:
        for w in widths:
            for s in seeds:
                for layer, delta in zip(names, feature_updates(p, w, seed=s, **kw)):
                    rows.append({"parameterisation": p, "width": w, "seed": s, "layer": layer, "update_rms": delta})
    return pd.DataFrame(rows)


def slopes(table: pd.DataFrame) -> pd.DataFrame:
    """Log-log slope of the mean update size against width, per parameterisation and layer."""
    mean = table.groupby(["parameterisation", "layer", "width"], sort=True)["update_rms"].mean().reset_index()
    rows = []
    for (p, layer), g in mean.groupby(["parameterisation", "layer"], sort=True):
        slope = float(np.polyfit(np.log(g["width"]), np.log(g["update_rms"]), 1)[0])
        rows.append({"parameterisation": p, "layer": layer, "slope": slope})
    return pd.DataFrame(rows)
