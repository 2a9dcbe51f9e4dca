"""The paper-scale path: a user's causal LM (a local Hugging Face folder) as the agent, proved on a tiny random
model this test saves; and a config naming a folder that is not a model is one line naming it."""

import string

import pandas as pd
import pytest

pytest.importorskip("transformers")

from icml26.common.config import ConfigError, check_settings
from icml26.common.lm.model import ModelSettings, build_model, save_checkpoint
from icml26.common.lm.tokenizer import task_tokenizer
from icml26.complex_mcp import rules
from tests.common.test_config_checks import section


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llm") / "tiny"
    tokenizer = task_tokenizer(string.printable, "char")
    model = build_model(
        ModelSettings(hidden_size=32, layers=1, heads=2, intermediate_size=64, context=4096), tokenizer, seed=0
    )
    save_checkpoint(model, tokenizer, folder)
    return folder


def test_a_users_model_runs_as_agent_llm_and_is_judged_like_the_others(checkpoint, tmp_path):
    table = tmp_path / "episodes.csv"
    rules.episodes(
        str(table),
        experiment="agents",
        worlds=[0],
        tasks_per_template=1,
        agents=["oracle"],
        failure_rate=0.0,
        failure_rates=[0.0, 0.1],
        distractors=[0, 1],
        max_turns=3,
        max_idle=2,
        llm={"checkpoint": str(checkpoint), "max_new_tokens": 16, "temperature": 0.0, "distractors": 2},
        device="cpu",
    )
    rows = pd.read_csv(table)
    llm = rows[rows["agent"] == "llm"]
    assert len(llm) == 7 and set(rows["agent"]) == {"oracle", "llm"}
    assert (llm["tools_shown"] <= rows[rows["agent"] == "oracle"]["tools_shown"].min() + 2).all()
    assert (llm["success"] <= 1).all() and (llm["turns"] <= 3).all()  # random weights: judged, never crashing


def test_a_checkpoint_that_is_not_a_model_folder_is_named_before_any_job(tmp_path):
    cfg = section("complex_mcp")
    cfg["llm"]["checkpoint"] = str(tmp_path / "nowhere")
    with pytest.raises(ConfigError, match=r"llm.checkpoint: .*nowhere is not a model folder"):
        check_settings("complex_mcp", cfg)


def test_the_llm_agent_loads_its_model_on_the_configured_device(checkpoint, monkeypatch):
    """The agent's model goes where the config's ``device`` says (it always ran on the CPU before 2026-12-04)."""
    from icml26.common.lm import model as lm_model
    from icml26.complex_mcp import experiments
    from icml26.complex_mcp.agents import LanguageModelAgent

    llm = {"checkpoint": str(checkpoint), "max_new_tokens": 4, "temperature": 0.0, "distractors": 2, "device": "cuda"}
    (options,) = [
        o
        for agent, *_, o in experiments.grid(
            "agents", agents=[], failure_rate=0.0, failure_rates=[], distractors=[], llm=llm
        )
        if agent == "llm"
    ]
    assert options["device"] == "cuda"
    placed = []
    monkeypatch.setattr("icml26.common.device.resolve_device", lambda setting: "meta")
    real = lm_model.load_model
    monkeypatch.setattr(lm_model, "load_model", lambda path, device="cpu": placed.append(device) or real(path, device))
    agent = LanguageModelAgent(None, [], **options)
    assert placed == ["meta"] and agent.model.device.type == "meta"
