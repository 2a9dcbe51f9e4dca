"""The students: equal parameter counts (the spec's check), the dual-stream gate, what the condition changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch

from icml26.common.config import paper_section
from icml26.prism_moe.student import KINDS, Student, StudentSettings, matched_width, parameter_count

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "prism_moe.yaml"


def _settings(scale: str) -> StudentSettings:
    return StudentSettings(
        image_size=paper_section(CONFIG, scale)["data"]["size"], **paper_section(CONFIG, scale)["student"]
    )


@pytest.mark.parametrize("scale", ["smoke", "quick", "paper"])
def test_every_baseline_has_prisms_parameter_count_within_one_percent(scale):
    s = _settings(scale)
    prism = parameter_count(Student(s, "prism", 3, 4))
    for kind in KINDS:
        count = parameter_count(Student(matched_width(s, kind, 3, 4), kind, 3, 4))
        assert abs(count - prism) / prism < 0.01, (kind, count, prism)


@pytest.mark.parametrize("kind", KINDS)
def test_every_student_saves_as_safetensors_and_reloads(tmp_path, kind):
    from safetensors.torch import load_file, save_file

    net = Student(matched_width(_settings("quick"), kind, 3, 4), kind, 3, 4)
    save_file(net.state_dict(), str(tmp_path / "student.safetensors"))
    again = Student(matched_width(_settings("quick"), kind, 3, 4), kind, 3, 4)
    again.load_state_dict(load_file(str(tmp_path / "student.safetensors")))
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), again.state_dict().values()))


def test_the_unmatched_baselines_would_differ():
    s = _settings("quick")
    prism = parameter_count(Student(s, "prism", 3, 4))
    assert abs(parameter_count(Student(s, "dense", 3, 4)) - prism) / prism > 0.1


def _images(n=3):
    return torch.randint(0, 256, (n, 3, 32, 32), dtype=torch.uint8, generator=torch.Generator().manual_seed(0))


def test_the_gate_starts_near_one_and_stays_in_half_to_one():
    torch.manual_seed(0)
    student = Student(StudentSettings(), "prism", 3, 4)
    block = student.last[0]
    h = torch.randn(4, 64, 64) * 10
    with torch.no_grad():
        assert torch.allclose(block.gate_value(h), 0.5 + 0.5 * torch.sigmoid(torch.tensor(3.0)))
        block.gate.weight.normal_(0, 5)
        g = block.gate_value(h)
    assert float(g.min()) >= 0.5 and float(g.max()) <= 1.0 and float(g.min()) < 0.6


def test_conditions_change_nothing_at_initialisation_and_something_once_film_has_learnt():
    torch.manual_seed(0)
    student = Student(StudentSettings(), "prism", 3, 4).eval()
    out = student(_images(), [0, 1, 2])
    assert torch.equal(out.tokens[0], out.tokens[1]) and torch.equal(out.tokens[1], out.tokens[2])
    with torch.no_grad():
        for block in student.last:
            block.moe.router.film.project.weight.normal_(0, 1)
    out = student(_images(), [0, 1, 2])
    assert not torch.equal(out.routes[0][0], out.routes[0][1])
    assert [r.shape for r in out.routes] == [torch.Size([3, 3, 64, 2])] * 2


def test_dense_and_unconditioned_students_give_one_answer_for_every_condition():
    torch.manual_seed(0)
    for kind in ("dense", "moe_unconditioned"):
        out = Student(StudentSettings(), kind, 3, 4).eval()(_images(), [3, 4, 5, 6])
        assert len(out.tokens) == 4 and all(t is out.tokens[0] for t in out.tokens)


def test_an_adapter_student_uses_the_teachers_own_adapter_and_the_mean_for_a_task():
    torch.manual_seed(0)
    student = Student(StudentSettings(), "adapters", 3, 4).eval()
    before = student(_images(), [0, 1, 3])
    with torch.no_grad():
        for block in student.last:
            block.adapters[2].fc2.bias.add_(1.0)  # only teacher 2's adapter moves
    after = student(_images(), [0, 1, 3])
    assert torch.equal(before.tokens[0], after.tokens[0]) and torch.equal(before.tokens[1], after.tokens[1])
    assert not torch.equal(before.tokens[2], after.tokens[2])  # the task mixes every adapter


def test_bad_settings_fail_with_the_key():
    with pytest.raises(ValueError, match="routed_blocks"):
        Student(replace(StudentSettings(), routed_blocks=9), "prism", 3, 4)
    with pytest.raises(ValueError, match="student kind"):
        Student(StudentSettings(), "sparse", 3, 4)
