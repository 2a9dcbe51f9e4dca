"""Self-influence of candidate images (IF-Init): how much a point's own loss depends on training on it.

``I(z) = g_z^T (H + lambda I)^{-1} g_z`` with ``g_z`` the gradient of ``z``'s loss and ``H`` the exact
Hessian of the mean training loss, both with respect to the last layer (the linear head) only, at the
trained weights: the last-layer restriction is the paper's cheap option (the CG alternative is not
built). ``lambda`` damps the Hessian, which is singular for a softmax head. Points with the largest
self-influence are rare, memorised ones: the seeds IF-Init starts the canaries from.
"""

from __future__ import annotations

import torch
from torch.func import grad, hessian, vmap


def _head_loss(theta: torch.Tensor, features: torch.Tensor, labels: torch.Tensor, classes: int) -> torch.Tensor:
    """Mean cross-entropy of a linear head with flattened weights ``theta`` = [W (classes x d), b]."""
    d = features.shape[-1]
    weight, bias = theta[: classes * d].reshape(classes, d), theta[classes * d :]
    return torch.nn.functional.cross_entropy(features @ weight.T + bias, labels)


def self_influence(
    train_features: torch.Tensor,
    train_labels: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor,
    features: torch.Tensor,
    labels: torch.Tensor,
    damping: float,
) -> torch.Tensor:
    """Self-influence of each point (``features``, ``labels``) on a linear softmax head trained on
    (``train_features``, ``train_labels``); ``weight``: classes x d, ``bias``: classes."""
    classes = weight.shape[0]
    theta = torch.cat([weight.reshape(-1), bias]).detach()
    h = hessian(_head_loss)(theta, train_features, train_labels, classes)
    h = h + damping * torch.eye(len(theta), dtype=h.dtype, device=h.device)
    per_point = vmap(grad(_head_loss), in_dims=(None, 0, 0, None))(
        theta, features.unsqueeze(1), labels.unsqueeze(1), classes
    )
    solved = torch.linalg.solve(h, per_point.T).T
    return (per_point * solved).sum(dim=1)


def candidate_influence(
    arch, classes: int, base_x, base_y, cand_x, cand_y, training, damping: float, seed: int, device: str = "cpu"
):
    """Self-influence of each candidate under a reference model of ``arch`` trained on the whole base pool
    (as the auditor's own model would be, on ``device``), with the candidate scored as if it were a training
    point."""
    import numpy as np

    from .models import population, schedule, train

    shape = base_x.shape[1:]
    bx, by = torch.tensor(base_x, device=device), torch.tensor(base_y, device=device)
    skeleton, params = population(arch, shape, classes, [seed], device)
    order = schedule(len(base_x), training, seed)
    params, _ = train(skeleton, params, bx, by, torch.ones(1, len(base_x), device=device), training, order=order)
    model = arch.build(shape, classes).to(device)
    model.load_state_dict({k: v[0] for k, v in params.items()})

    def in_batches(function, images: torch.Tensor) -> torch.Tensor:
        size = training.batch or len(images)
        return torch.cat([function(images[i : i + size]) for i in range(0, len(images), size)])

    with torch.no_grad():
        train_features = in_batches(model.features, bx)
        features = in_batches(model.features, torch.tensor(cand_x, device=device))
        accuracy = float((in_batches(model, bx).argmax(-1) == by).float().mean())
    scores = self_influence(
        train_features.double(),
        by,
        model.head.weight.detach().double(),
        model.head.bias.detach().double(),
        features.double(),
        torch.tensor(cand_y, device=device),
        damping,
    )
    return np.asarray(scores.cpu().numpy()), accuracy
