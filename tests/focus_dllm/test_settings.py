"""focus_dllm's cross-key checks for the paper's evaluation sets: each names its key before any job runs."""

from __future__ import annotations

from pathlib import Path

from icml26.common.config import paper_section
from icml26.focus_dllm.benchmarks import TASKS
from icml26.focus_dllm.settings import BENCHMARKS, problems

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "focus_dllm.yaml"


def test_the_light_list_of_sets_is_the_readers():
    assert BENCHMARKS == TASKS


def test_the_paper_section_reads_the_fetched_sets_with_the_fetched_model(tmp_path, monkeypatch):
    cfg = paper_section(CONFIG, "paper")
    monkeypatch.chdir(tmp_path)
    (tmp_path / cfg["model"]["checkpoint"]).mkdir(parents=True)  # as make fetch leaves it
    assert list(problems(cfg)) == []
    assert set(cfg["benchmarks"]) == set(cfg["tasks"]) and all(
        path.startswith("external/focus_dllm/") for path in cfg["benchmarks"].values()
    )


def test_sets_without_files_a_text_model_or_beside_procedural_tasks_are_named(tmp_path):
    cfg = paper_section(CONFIG, "quick")
    cfg["tasks"] = ["gsm8k", "copy", "math"]
    cfg["benchmarks"] = {"gsm8k": "external/focus_dllm/gsm8k"}
    found = list(problems(cfg))
    assert [line.split(":")[0] for line in found] == ["tasks", "benchmarks", "model.checkpoint"]
    assert "no file or folder for math" in found[1]
