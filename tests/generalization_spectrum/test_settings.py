"""The config's cross-key checks, the prompt bound they use, and the verdict criteria as fixed before the first
quick run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from icml26.common.config import paper_section
from icml26.generalization_spectrum import prompts, variants
from icml26.generalization_spectrum.settings import problems
from icml26.generalization_spectrum.verdict import CRITERIA
from icml26.generalization_spectrum.world import Program, Step

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "generalization_spectrum.yaml"


def test_every_scale_judges_by_the_criteria_fixed_before_the_first_quick_run():
    assert all(paper_section(CONFIG, scale)["criteria"] == CRITERIA for scale in ("smoke", "quick", "paper"))


def test_each_broken_constraint_is_named_by_its_key(tmp_path):
    cfg = paper_section(CONFIG, "quick")
    assert list(problems(cfg)) == []
    cfg["evaluation"].update(k=[1, 16], max_new_tokens=10)
    cfg["pretraining"]["training"]["warmup_steps"] = 5000
    cfg["model"].update(heads=5, context=64)
    cfg["learners"]["rl"]["checkpoints"] = [4, 8]
    found = list(problems(cfg))
    assert [line.split(":")[0] for line in found] == [
        "evaluation.k",
        "evaluation.max_new_tokens",
        "pretraining.training.warmup_steps",
        "model.hidden_size",
        "model.context",
        "learners.rl.checkpoints",
    ]
    cfg["model"]["checkpoint"] = str(tmp_path / "absent")
    assert any(line.startswith("model.checkpoint: ") and "absent is not a folder" in line for line in problems(cfg))


def test_the_prompt_bounds_hold_for_the_longest_statements_and_programs():
    tok = prompts.tokenizer()
    longest = Program((Step("add", 3), Step("rotate", 2), Step("take", 3)))
    assert len(prompts.example(tok, variants.Problem(longest, ((1,),), "A", "A"))[1]) == prompts.LONGEST_ANSWER
    seven = tuple((9, 8, 7, 6, 5, 4, 3) for _ in range(3))
    keep_all = Program((Step("add", 1), Step("reverse")))  # seven values out for seven in
    for narrative in "AB":
        problem = variants.Problem(keep_all, seven, narrative, "A")
        prompt, _ = prompts.example(tok, problem, demonstration=variants.Problem(longest, seven, narrative, "A"))
        assert len(prompt) <= prompts.longest_icl_prompt(3)
    rng = np.random.default_rng(0)
    for seed in variants.seeds(16, rng):
        suite = variants.suite(seed, 3, rng)
        assert all(
            len(prompts.example(tok, p, suite["D0"])[0]) <= prompts.longest_icl_prompt(3) for p in suite.values()
        )
