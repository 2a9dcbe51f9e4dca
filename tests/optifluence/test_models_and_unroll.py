"""Batched training against a loop, the CNN against torch's convolution, and the spec's unrolling oracles:
hypergradient vs finite differences on a 2-step inner loop, truncation k = T vs a plain full unrolling."""

import torch

from icml26.optifluence.models import (
    CNN,
    Architecture,
    Training,
    hinge,
    logits,
    population,
    schedule,
    train,
    train_one_by_one,
    weighted_loss,
)
from icml26.optifluence.unroll import detectability

TRAINING = Training(steps=3, lr=0.5, momentum=0.9, weight_decay=0.01)


def tiny(dtype=torch.float64, models=4, kind="mlp"):
    torch.manual_seed(0)
    skeleton, params = population(Architecture("a", kind, 5), (1, 4, 4), 3, list(range(1, models + 1)))
    params = {k: v.to(dtype) for k, v in params.items()}
    base_x, base_y = torch.rand(12, 1, 4, 4, dtype=dtype), torch.randint(0, 3, (12,))
    weights = (torch.rand(models, 12) < 0.6).to(dtype)
    return skeleton, params, base_x, base_y, weights


def test_batched_training_equals_training_one_model_at_a_time():
    skeleton, params, x, y, weights = tiny(torch.float32)
    batched, _ = train(skeleton, params, x, y, weights, TRAINING)
    looped = train_one_by_one(skeleton, params, x, y, weights, TRAINING)
    assert all(torch.allclose(batched[k], looped[k], atol=1e-6) for k in params)
    assert not torch.allclose(batched["head.weight"], params["head.weight"])  # it trained


def test_the_patch_convolution_equals_torch_s_conv2d_in_grey_and_in_colour():
    for channels in (1, 3):
        net = CNN(shape=(channels, 6, 6), classes=3, channels=4)
        x = torch.rand(5, channels, 6, 6)
        kernel = net.conv.weight.reshape(4, channels, 3, 3)
        expected = torch.relu(torch.nn.functional.conv2d(x, kernel, net.conv.bias, stride=2, padding=1))
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
    canaries = torch.rand(2, 1, 4, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
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
    canaries = torch.rand(2, 1, 4, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(4))
    labels = torch.tensor([0, 2])
    full = canaries.clone().requires_grad_(True)
    _plain_unrolled_gap(full, labels, steps=3).sum().backward()
    ours = _gradient(canaries, truncation=3, steps=3)
    assert torch.allclose(ours, full.grad, atol=1e-10)
    assert not torch.allclose(_gradient(canaries, truncation=1, steps=3), full.grad, atol=1e-4)


def test_a_population_is_initialised_on_the_cpu_and_placed_on_the_device_asked_for():
    _, cpu = population(Architecture("a", "mlp", 5), (1, 4, 4), 3, [1, 2])
    _, meta = population(Architecture("a", "mlp", 5), (1, 4, 4), 3, [1, 2], device="meta")  # a device without memory
    assert all(v.device.type == "meta" and v.shape == cpu[k].shape for k, v in meta.items())
    _, again = population(Architecture("a", "mlp", 5), (1, 4, 4), 3, [1, 2])
    assert all(torch.equal(again[k], cpu[k]) for k in cpu)  # the seeds alone decide the weights


def test_the_residual_networks_have_the_reference_parameter_counts():
    """ResNet-50 and WideResNet-50-2 are torchvision's (23,528,522 and 66,854,730 parameters with 10 classes) with
    the CIFAR stem's 3x3 conv in place of the 7x7 one (64 x 3 x (49 - 9) = 7,680 fewer); ResNet-9 is the DAWNBench
    model's 6,573,130 (GroupNorm has BatchNorm's scale and shift)."""
    count = lambda arch: sum(p.numel() for p in arch.build((3, 32, 32), 10).parameters())  # noqa: E731
    assert count(Architecture("r", "resnet", 64)) == 23_528_522 - 7_680
    assert count(Architecture("w", "resnet", 64, widen=2)) == 66_854_730 - 7_680
    assert count(Architecture("r9", "resnet9", 64)) == 6_573_130


def test_residual_networks_train_batched_as_one_by_one_and_score_images_in_any_batch():
    torch.manual_seed(0)
    x, y = torch.rand(10, 3, 16, 16, dtype=torch.float64), torch.randint(0, 3, (10,))
    weights = (torch.rand(2, 10) < 0.6).double()
    training = Training(steps=2, lr=0.1, momentum=0.9, batch=4)
    for arch in (Architecture("r9", "resnet9", 4), Architecture("r", "resnet", 4, blocks=(1, 1), widen=2)):
        skeleton, params = population(arch, (3, 16, 16), 3, [1, 2])
        params = {k: v.double() for k, v in params.items()}
        order = schedule(10, training, 0)
        batched, _ = train(skeleton, params, x, y, weights, training, order=order)
        looped = train_one_by_one(skeleton, params, x, y, weights, training, order)
        assert all(torch.allclose(batched[k], looped[k], atol=1e-10) for k in params)
        assert not torch.allclose(batched["head.weight"], params["head.weight"])  # it trained
        assert torch.allclose(logits(skeleton, batched, x, batch=3), logits(skeleton, batched, x), atol=1e-10)


def test_a_minibatch_schedule_shows_every_image_once_per_epoch_and_none_means_full_batch():
    order = schedule(10, Training(steps=7, lr=0.1, batch=3), seed=5)
    assert len(order) == 7 and all(len(step) == 3 for step in order)
    assert len(set(torch.cat(order[:3]).tolist())) == 9  # an epoch: 3 batches of distinct images (one left over)
    assert [t.tolist() for t in order] == [t.tolist() for t in schedule(10, Training(steps=7, lr=0.1, batch=3), 5)]
    assert schedule(10, Training(steps=7, lr=0.1), 5) is None
    assert schedule(10, Training(steps=7, lr=0.1, batch=10), 5) is None
