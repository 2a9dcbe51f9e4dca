"""Resumable paper-scale steps (icml26.common.units): a finished job is kept by content and reused only when its
rule, params, input bytes and code bytes are the same."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from icml26.common import units
from tests.conftest import ROOT


def _job(
    tmp_path: Path, *, params=None, data=b"rows", code="def evaluate():\n    return helper()\n", runner="# v1\n"
) -> units.Unit:
    """A job of a resumable step in a repository laid out as ours: src/icml26/demo/rules.py, a runner beside."""
    package = tmp_path / "src" / "icml26"
    (package / "demo").mkdir(parents=True, exist_ok=True)
    (package / "common").mkdir(exist_ok=True)
    for init in (package, package / "demo", package / "common"):
        (init / "__init__.py").write_text("")
    (package / "demo" / "helpers.py").write_text("def helper():\n    return 1\n")
    (package / "demo" / "rules.py").write_text("from .helpers import helper\n\n\n" + code)
    (package / "common" / "runner.py").write_text(runner)
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "in.npz").write_bytes(data)
    return units.Unit(
        "demo_evaluate",
        "paper",
        "demo",
        "icml26.demo.rules:evaluate",
        params if params is not None else {"seeds": [1, 2, 3], "adbench_rows": {"low": 1000, "high": 10000}},
        ["data/in.npz", "src/icml26/demo/rules.py", "src/icml26/common/runner.py"],
        ["data/out/a.csv", "results/paper/demo/timing/a.csv"],
    )


def _write_outputs():
    for path, text in (("data/out/a.csv", "x\n1\n"), ("results/paper/demo/timing/a.csv", "seconds\n2.5\n")):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)


def test_a_recorded_unit_is_reused_byte_for_byte_in_a_fresh_checkout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    assert job.committed() is None  # nothing kept yet: the job computes
    _write_outputs()
    job.record(seconds=3.0)
    record = json.loads((job.home / units.RECORD).read_text())
    assert record["key"] == job.key and set(record["outputs"]) == set(job.outputs)
    assert record["inputs"]["src/icml26/demo/helpers.py"] and record["params"]["seeds"] == [1, 2, 3]
    assert "src/icml26/common/runner.py" not in record["inputs"]  # the runner calls the code, computes nothing
    for output in job.outputs:  # a fresh checkout: the outputs are gone, the units folder is committed
        Path(output).unlink()
    again = _job(tmp_path)
    kept = again.committed()
    assert kept is not None and "reused the committed unit" in again.reuse(kept)
    assert Path("data/out/a.csv").read_text() == "x\n1\n"
    assert Path("results/paper/demo/timing/a.csv").read_text() == "seconds\n2.5\n"
    assert units.commits("paper", "demo") == {str(record["git"]["commit"]): 1}


@pytest.mark.parametrize(
    "change",
    [
        {"params": {"seeds": [1, 2], "adbench_rows": {"low": 1000, "high": 10000}}},
        {"data": b"other rows"},
        {"code": "def evaluate():\n    return helper() + 1\n"},
    ],
    ids=["params", "input bytes", "code bytes"],
)
def test_a_changed_param_input_or_code_line_never_reuses_a_unit(tmp_path, monkeypatch, change):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    _write_outputs()
    job.record(seconds=1.0)
    changed = _job(tmp_path, **change)
    assert changed.key != job.key and changed.committed() is None


def test_an_edit_to_a_helper_the_function_calls_changes_the_key_and_one_to_the_runner_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    assert _job(tmp_path, runner="# v2: a better console line\n").key == job.key
    (tmp_path / "src/icml26/demo/helpers.py").write_text("def helper():\n    return 2\n")
    assert units.Unit(job.rule, "paper", "demo", job.func, job.params, ["data/in.npz"], job.outputs).key != job.key


def test_an_edited_committed_copy_stops_the_job_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    _write_outputs()
    job.record(seconds=1.0)
    (job.home / "outputs" / "data/out/a.csv").write_text("x\n2\n")
    with pytest.raises(ValueError, match=r"outputs/data/out/a.csv: does not match the sha256"):
        _job(tmp_path).committed()


class _Params(dict):
    def __getattr__(self, name):
        return self[name]


def _snakemake(rule: str, scale: str, func: str) -> SimpleNamespace:
    return SimpleNamespace(
        rule=rule,
        config={"scale": scale},
        params=_Params(func=func, seeds=[1]),
        input=["workflow/papers.yaml"],
        output=["data/paper/dvm_ad/auroc/x.csv"],
    )


def test_only_the_registrys_steps_keep_units_and_only_at_paper_scale(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert "dvm_ad_evaluate" in units.unit_rules("dvm_ad")
    assert units.for_job(_snakemake("dvm_ad_evaluate", "paper", "icml26.dvm_ad.rules:evaluate")) is not None
    assert units.for_job(_snakemake("dvm_ad_evaluate", "quick", "icml26.dvm_ad.rules:evaluate")) is None
    assert units.for_job(_snakemake("dvm_ad_tables", "paper", "icml26.dvm_ad.rules:summarise")) is None
    assert units.for_job(_snakemake("provenance", "paper", "icml26.common.provenance:write")) is None
