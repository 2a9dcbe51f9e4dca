"""The config's cross-key checks, and the verdict criteria kept as they were fixed before the first quick run."""

from __future__ import annotations

from pathlib import Path

from icml26.common.config import paper_section
from icml26.sheaf_repulsion.settings import problems
from icml26.sheaf_repulsion.verdict import CRITERIA

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "sheaf_repulsion.yaml"


def test_every_scale_judges_by_the_criteria_fixed_before_the_first_quick_run():
    assert all(paper_section(CONFIG, scale)["criteria"] == CRITERIA for scale in ("smoke", "quick", "paper"))


def test_each_broken_constraint_is_named_by_its_key(tmp_path):
    cfg = paper_section(CONFIG, "quick")
    assert list(problems(cfg)) == []
    cfg["minimal"] = {"size": 4, "candidates": 60}
    cfg["criteria"] = {**CRITERIA, "high": 1.5}
    cfg["model"]["checkpoint"] = str(tmp_path / "absent.npz")
    found = list(problems(cfg))
    assert [line.split(":")[0] for line in found] == ["minimal.candidates", "criteria.high", "model.checkpoint"]
    assert "487,635 circuits of 4 edges" in found[0] and "absent.npz is neither a file" in found[2]
