"""The config's cross-key checks name their keys; every scale's config passes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from icml26.common.config import paper_section
from icml26.text_feedback_rl.settings import problems
from tests.conftest import as_fetched

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "text_feedback_rl.yaml"


@pytest.mark.parametrize("scale", ["smoke", "quick", "paper"])
def test_every_scale_passes_the_checks(scale, tmp_path, monkeypatch):
    monkeypatch.chdir(as_fetched(paper_section(CONFIG, scale), tmp_path))  # paper: after `make fetch`
    assert list(problems(paper_section(CONFIG, scale))) == []


def test_each_broken_constraint_is_named_by_its_key(tmp_path):
    cfg = paper_section(CONFIG, "quick")
    cfg["permutation"]["constraints"] = [5, 3]
    cfg["methods"] = ["grpo_single", "sd_importance"]
    cfg["evaluation"]["curve_problems"] = 400
    cfg["code"]["length"] = 1
    cfg["rl"]["prompts"] = 5000
    cfg["sft"]["warmup_steps"] = 400
    cfg["model"].update(heads=5, context=20)
    assert [line.split(":")[0] for line in problems(cfg)] == [
        "permutation.constraints",
        "methods",
        "evaluation.curve_problems",
        "problems",
        "rl.prompts",
        "sft.warmup_steps",
        "model.hidden_size",
        "model.context",
    ]
    cfg["model"]["checkpoint"] = str(tmp_path / "absent")
    assert any(line.startswith("model.checkpoint: ") and "absent is not a folder" in line for line in problems(cfg))


def test_the_context_bound_holds_the_longest_second_turn():
    cfg = paper_section(CONFIG, "quick")
    cfg["model"]["context"] = 25  # a permutation x1 with 5 constraints and both answers needs 26
    assert [line.split(":")[0] for line in problems(cfg)] == ["model.context"]
    cfg["model"]["context"] = 26
    assert list(problems(cfg)) == []
