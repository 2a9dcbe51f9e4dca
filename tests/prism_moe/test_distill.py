"""The training stages: losses in closed form, the conflict probe, evaluation through the stats."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.prism_moe import distill, scenes
from icml26.prism_moe.methods import conditions
from icml26.prism_moe.student import Student, StudentSettings
from icml26.prism_moe.tasks import SCENES

TINY = StudentSettings(dim=16, depth=2, heads=2, mlp_hidden=32, routed_blocks=1, expert_hidden=16, condition_dim=4)


def test_distillation_loss_is_zero_on_the_target_and_two_on_its_negative():
    target = torch.randn(2, 5, 4, 4)
    tokens = target.flatten(2).transpose(1, 2)
    assert float(distill.distillation_loss(tokens, target, 0.0)) == pytest.approx(0, abs=1e-6)
    expected = 2 + float(2 * target.abs().mean())  # 1 - cos = 2, L1 = 2 |t|
    assert float(distill.distillation_loss(-tokens, target, 0.0)) == pytest.approx(expected, rel=1e-5)


def test_decorrelation_is_zero_for_uncorrelated_channels_and_one_for_copies():
    a = torch.tensor([[1.0, 1], [1, -1], [-1, 1], [-1, -1]])
    assert float(distill.decorrelation_loss(a)) == pytest.approx(0, abs=1e-6)
    copies = torch.randn(50, 1).repeat(1, 3)
    assert float(distill.decorrelation_loss(copies)) == pytest.approx(1, rel=1e-3)


def test_task_heads_output_full_resolution_maps():
    head = distill.Linear2d(16, 3, 4)
    assert head(torch.randn(2, 64, 16)).shape == (2, 3, 32, 32)


@pytest.fixture(scope="module")
def data():
    return scenes.generate(48, 0), scenes.generate(10, 1)


class _Random(torch.nn.Module):
    def __init__(self, seed):
        super().__init__()
        self.net = torch.nn.Conv2d(3, 6, 4, stride=4)
        torch.nn.init.normal_(self.net.weight, generator=torch.Generator().manual_seed(seed))

    def forward(self, images):
        return self.net(images.float() / 255)


def test_stage1_records_the_gradient_cosine_of_every_teacher_pair(data):
    torch.manual_seed(0)
    student = Student(TINY, "dense", 3, 4)
    names = ("semantic", "geometric", "texture")
    projectors = torch.nn.ModuleDict({t: distill.Projector(16, 6) for t in names})
    s = distill.TrainSettings(stage1_steps=6, batch_size=4, warmup=2, conflict_every=3, log_every=3)
    losses, cosines = distill.stage1(
        student,
        projectors,
        {t: _Random(i) for i, t in enumerate(names)},
        conditions(SCENES),
        data[0],
        s,
        np.random.default_rng(0),
        log=lambda line: None,
    )
    assert [c["step"] for c in cosines] == [1, 1, 1, 3, 3, 3, 6, 6, 6]
    assert {c["pair"] for c in cosines} == {"semantic-geometric", "semantic-texture", "geometric-texture"}
    assert len(losses) == 6


def test_the_recorded_cosine_is_that_of_the_teachers_loss_gradients_on_the_student(data):
    """Recomputed by hand at step 1 from the same start: each teacher's distillation loss, its gradient with respect
    to the student's parameters only (not the projectors'), and their cosine over all of them (issue 55: the old
    test checked only that a cosine lies in [-1, 1])."""
    import copy

    torch.manual_seed(0)
    student = Student(TINY, "dense", 3, 4)
    names = ("semantic", "geometric", "texture")
    projectors = torch.nn.ModuleDict({t: distill.Projector(16, 6) for t in names})
    teachers = {t: _Random(i) for i, t in enumerate(names)}
    s = distill.TrainSettings(stage1_steps=1, batch_size=4, warmup=1, conflict_every=1)
    by_hand_student, by_hand_projectors = copy.deepcopy(student), copy.deepcopy(projectors)
    torch.manual_seed(5)
    _, cosines = distill.stage1(
        student, projectors, teachers, conditions(SCENES), data[0], s, np.random.default_rng(0), log=lambda line: None
    )
    torch.manual_seed(5)  # the same routing noise and dropout draws as inside stage1
    index = np.random.default_rng(0).integers(len(data[0]["images"]), size=4)
    images = torch.from_numpy(data[0]["images"][index])
    out = by_hand_student(images, [conditions(SCENES)[t] for t in names])
    params = [p for p in by_hand_student.parameters() if p.requires_grad]
    flat = {}
    for t, tokens in zip(names, out.tokens):
        loss = distill.distillation_loss(by_hand_projectors[t](tokens), teachers[t](images), s.decorrelation)
        grads = torch.autograd.grad(loss, params, retain_graph=True, allow_unused=True)
        flat[t] = np.concatenate(
            [(g if g is not None else torch.zeros_like(p)).flatten().numpy() for g, p in zip(grads, params)]
        )
    for c in cosines:
        a, b = (flat[t] for t in c["pair"].split("-"))
        expected = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
        assert c["cosine"] == pytest.approx(expected, abs=1e-5), c["pair"]
    assert len({round(c["cosine"], 4) for c in cosines}) == 3  # three different pairs, three different cosines


def test_a_single_teacher_has_no_pair_to_compare(data):
    student = Student(TINY, "dense", 3, 4)
    s = distill.TrainSettings(stage1_steps=2, batch_size=4, warmup=1, conflict_every=1)
    _, cosines = distill.stage1(
        student,
        torch.nn.ModuleDict({"texture": distill.Projector(16, 6)}),
        {"texture": _Random(0)},
        conditions(SCENES),
        data[0],
        s,
        np.random.default_rng(0),
        log=lambda line: None,
    )
    assert cosines == []


def test_evaluation_and_routing_counts_cover_every_test_token(data):
    torch.manual_seed(0)
    student = Student(TINY, "prism", 3, 4)
    heads = torch.nn.ModuleDict({t: distill.Linear2d(16, n, 4) for t, n in SCENES.items()})
    stats = distill.evaluate(student, heads, conditions(SCENES), data[1], batch=4)
    assert len(stats["depth_pixels"]) == 10 and stats["seg_confusion"].sum() == 10 * 32 * 32
    counts = distill.routing_counts(student, [0, 1, 2], data[1]["images"], TINY.experts, batch=4)
    assert counts.shape == (1, 3, TINY.experts) and (counts.sum(-1) == 10 * 64).all()
    assert student.training  # evaluation puts the student back in training mode
