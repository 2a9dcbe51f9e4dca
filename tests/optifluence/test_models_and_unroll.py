"""Batched training against a loop, the CNN against torch's convolution, and the spec's unrolling oracles:
hypergradient vs finite differences on a 2-step inner loop, truncation k = T vs a plain full unrolling."""

import torch

from icml26.optifluence.models import (
    CNN,
    Architecture,
    Training,
    hinge,
    population,
    train,
    train_one_by_one,
    weighted_loss,
)
from icml26.optifluence.unroll import detectability

TRAINING = Training(steps=3, lr=0.5, momentum=0.9, weight_decay=0.01)


def tiny(dtype=torch.float64, models=4, kind="mlp"):
    torch.manual_seed(0)
    skeleton, params = population(Architecture("a", kind, 5), 4, 3, list(range(1, models + 1)))
    params = {k: v.to(dtype) for k, v in params.items()}
    base_x, base_y = torch.rand(12, 4, 4, dtype=dtype), torch.randint(0, 3, (12,))
    weights = (torch.rand(models, 12) < 0.6).to(dtype)
    return skeleton, params, base_x, base_y, weights


def test_batched_training_equals_training_one_model_at_a_time():
    skeleton, params, x, y, weights = tiny(torch.float32)
    batched, _ = train(skeleton, params, x, y, weights, TRAINING)
    looped = train_one_by_one(skeleton, params, x, y, weights, TRAINING)
    assert all(torch.allclose(batched[k], looped[k], atol=1e-6) for k in params)
    assert not torch.allclose(batched["head.weight"], params["head.weight"])  # it trained


def test_the_patch_convolution_equals_torch_s_conv2d():
    net = CNN(side=6, classes=3, channels=4)
    x = torch.rand(5, 6, 6)
    kernel = net.conv.weight.reshape(4, 1, 3, 3)
    expected = torch.relu(torch.nn.functional.conv2d(x.unsqueeze(1), kernel, net.conv.bias, stride=2, padding=1))
    assert torch.allclose(net.features(x), expected.permute(0, 2, 3, 1).reshape(5, -1), atol=1e-6)


INSIDE = [[True, False], [True, True], [False, True], [False, False]]  # models x canaries: each its own IN group


def _gap(canaries, labels, *, truncation, checkpoint=True, steps=2):
    skeleton, params, x, y, weights = tiny()
    inside = torch.tensor(INSIDE)
    training = Training(steps=steps, lr=0.5, momentum=0.9)
    return detectability(canaries, labels, x, y, skeleton, params, weights, inside, training, truncation, checkpoint)


def _gradient(canaries, **kwargs):
    canaries = canaries.clone().requires_grad_(True)
    _gap(canaries, torch.tensor([0, 2]), **kwargs).sum().backward()
    return canaries.grad


def test_hypergradient_through_two_training_steps_matches_finite_differences():
    canaries = torch.rand(2, 4, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    grad = _gradient(canaries, truncation=2)
    eps, numeric = 1e-6, torch.zeros_like(canaries)
    with torch.no_grad():
        for i in range(canaries.numel()):
            step = torch.zeros(canaries.numel(), dtype=torch.float64)
            step[i] = eps
            step = step.view_as(canaries)
            numeric.view(-1)[i] = (
                _gap(canaries + step, torch.tensor([0, 2]), truncation=2).sum()
                - _gap(canaries - step, torch.tensor([0, 2]), truncation=2).sum()
            ) / (2 * eps)
    assert grad.abs().max() > 1e-3
    assert torch.allclose(grad, numeric, atol=1e-7)
    assert torch.equal(grad, _gradient(canaries, truncation=2, checkpoint=False))  # recomputation changes nothing


def _plain_unrolled_gap(canaries, labels, steps):
    """Full unrolling written the obvious way: one model at a time, autograd with create_graph."""
    skeleton, params, x, y, weights = tiny()
    phis = []
    for m in range(4):
        p = {k: v[m].clone().requires_grad_(True) for k, v in params.items()}
        v = {k: torch.zeros_like(t) for k, t in p.items()}
        w = torch.cat([weights[m], torch.tensor(INSIDE[m], dtype=torch.float64)])
        for _ in range(steps):
            loss = weighted_loss(skeleton, p, torch.cat([x, canaries]), torch.cat([y, labels]), w, 0.0)
            grads = torch.autograd.grad(loss, list(p.values()), create_graph=True)
            v = {k: 0.9 * v[k] + g for k, g in zip(p, grads)}
            p = {k: p[k] - 0.5 * v[k] for k in p}
        phis.append(hinge(torch.func.functional_call(skeleton, p, (canaries,)), labels))
    phis = torch.stack(phis)
    return torch.stack(
        [phis[[0, 1], 0].mean() - phis[[2, 3], 0].mean(), phis[[1, 2], 1].mean() - phis[[0, 3], 1].mean()]
    )


def test_truncation_at_the_full_length_equals_plain_full_unrolling_and_shorter_truncation_differs():
    canaries = torch.rand(2, 4, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(4))
    labels = torch.tensor([0, 2])
    full = canaries.clone().requires_grad_(True)
    _plain_unrolled_gap(full, labels, steps=3).sum().backward()
    ours = _gradient(canaries, truncation=3, steps=3)
    assert torch.allclose(ours, full.grad, atol=1e-10)
    assert not torch.allclose(_gradient(canaries, truncation=1, steps=3), full.grad, atol=1e-4)


def test_a_population_is_initialised_on_the_cpu_and_placed_on_the_device_asked_for():
    _, cpu = population(Architecture("a", "mlp", 5), 4, 3, [1, 2])
    _, meta = population(Architecture("a", "mlp", 5), 4, 3, [1, 2], device="meta")  # a device without memory
    assert all(v.device.type == "meta" and v.shape == cpu[k].shape for k, v in meta.items())
    _, again = population(Architecture("a", "mlp", 5), 4, 3, [1, 2])
    assert all(torch.equal(again[k], cpu[k]) for k in cpu)  # the seeds alone decide the weights
