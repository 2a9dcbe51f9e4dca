"""Run names: FM once per swept weight, each method's seeds, and names that cannot be parsed."""

from __future__ import annotations

from pathlib import Path

import pytest

from icml26.common.config import paper_section
from icml26.text_feedback_rl import runs

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "text_feedback_rl.yaml"


def test_fm_runs_once_per_weight_and_every_other_method_once():
    cfg = {"methods": ["sd", "fm", "grpo_multi"], "fm_weights": [0.1, 1.0, 2.5], "seeds": [0], "seeds_by_method": {}}
    assert runs.names(cfg) == ["sd", "fm_w0.1", "fm_w1", "fm_w2.5", "grpo_multi"]
    assert [runs.parse(n) for n in ("fm_w0.1", "fm_w2.5", "sd")] == [
        ("fm", {"fm_weight": 0.1}),
        ("fm", {"fm_weight": 2.5}),
        ("sd", {}),
    ]
    assert [n for n in runs.names(cfg) if runs.is_fm(n)] == ["fm_w0.1", "fm_w1", "fm_w2.5"]


def test_the_quick_config_runs_five_seeds_of_the_compared_methods_and_fewer_of_the_rest():
    cfg = paper_section(CONFIG, "quick")
    counts = {}
    for name, _ in runs.pairs(cfg):
        counts[name] = counts.get(name, 0) + 1
    assert counts == {
        "grpo_single": 5,
        "grpo_multi": 5,
        "sd": 5,
        "fm_w0.1": 2,
        "fm_w1": 2,
        "sd_fm": 1,
        "sd_turn2_baseline": 2,
        "sd_importance": 1,
    }
    smoke = paper_section(CONFIG, "smoke")
    assert runs.pairs(smoke) == [(n, 0) for n in ["grpo_single", "sd", "fm_w1", "sd_turn2_baseline"]]
    paper = paper_section(CONFIG, "paper")
    assert all(len(runs.seeds(paper, n)) == 5 for n in runs.names(paper))


@pytest.mark.parametrize("name", ["fm", "fm_wheavy"])
def test_an_fm_run_without_a_weight_is_refused_by_name(name):
    with pytest.raises(ValueError, match=rf"run '{name}': "):
        runs.parse(name)
