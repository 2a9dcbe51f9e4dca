"""Resumable paper-scale steps (icml26.common.units): a finished job is kept by content and reused only when its
rule, params, input bytes and code bytes are the same."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from icml26.common import unit_keys, units
from icml26.common.codedeps import function_sources
from icml26.common.sources import sha256
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


@pytest.mark.parametrize(
    ("code", "same"),
    [
        ("def evaluate():\n    return helper()\n\n\ndef verdict():\n    return 'holds'\n", True),
        ("def evaluate():\n    return helper() * 1\n", False),
        ("LIMIT = 2\n\n\ndef evaluate():\n    return helper()\n", False),
        ("def evaluate():\n    return _scale(helper())\n\n\ndef _scale(x):\n    return 2 * x\n", False),
    ],
    ids=["a verdict beside it", "its own lines", "a module constant", "a same-module helper it calls"],
)
def test_its_own_module_counts_only_by_the_part_the_function_can_run(tmp_path, monkeypatch, code, same):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    assert "src/icml26/demo/rules.py:evaluate" in job.inputs and "src/icml26/demo/rules.py" not in job.inputs
    assert (_job(tmp_path, code=code).key == job.key) is same


@pytest.mark.parametrize(
    ("helpers", "same"),
    [
        (
            '"""Helpers."""\n\n\ndef helper():\n    """One, for now."""\n    # a constant\n    return 1  # why\n',
            True,
        ),
        ("def helper():\n\n    return 1\n", True),
        ('def helper():\n    return 1\n\n\nNOTE = "a string that is not a docstring"\n', False),
        ("def helper():\n  return 1\n", False),
        ("def helper():\n    return (1)\n", False),
    ],
    ids=["docstrings and comments", "a blank line", "a string literal", "indentation", "a token"],
)
def test_code_counts_without_comments_docstrings_and_blank_lines(tmp_path, monkeypatch, helpers, same):
    """Rewording a docstring of a module a kept job reaches (dvm_ad's benchmark, for one) recomputed hours of
    finished jobs; since 2026-12-07 prose and blank lines are not counted, anything Python runs is."""
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    (tmp_path / "src/icml26/demo/helpers.py").write_text(helpers)
    edited = units.Unit(job.rule, "paper", "demo", job.func, job.params, ["data/in.npz"], job.outputs)
    assert (edited.key == job.key) is same
    reworded = _job(tmp_path, code='def evaluate():\n    """Reworded."""\n    return helper()  # why\n')
    assert reworded.key == job.key  # the function's own module too


def test_a_rule_input_under_src_that_is_not_python_counts_by_its_bytes(tmp_path, monkeypatch, capsys):
    """coins' check jobs prove with its Coq prelude and gold specs, files under src/ that code_digests does not
    reach: the key dropped every input under src/, so an edited prelude reused the old outcomes."""
    monkeypatch.chdir(tmp_path)
    _job(tmp_path)
    prelude = tmp_path / "src/icml26/demo/Prelude.v"
    prelude.write_text("Ltac solve := idtac.\n")
    inputs = ["data/in.npz", "src/icml26/demo/Prelude.v", "src/icml26/demo/rules.py"]
    job = units.Unit("demo_evaluate", "paper", "demo", "icml26.demo.rules:evaluate", {}, inputs, ["data/out/a.csv"])
    assert "src/icml26/demo/Prelude.v" in job.inputs and "src/icml26/demo/rules.py" not in job.inputs
    Path("data/out").mkdir(parents=True, exist_ok=True)
    Path("data/out/a.csv").write_text("x\n1\n")
    job.record(seconds=1.0)
    prelude.write_text("Ltac solve := lia.\n")
    edited = units.Unit(job.rule, "paper", "demo", job.func, {}, inputs, job.outputs)
    assert edited.key != job.key and edited.committed() is None
    assert unit_keys.main(["check", str(units.folder("paper", "demo"))]) == 1  # check sees it as a run does
    assert "not reused (changed since: src/icml26/demo/Prelude.v)" in capsys.readouterr().out
    prelude.unlink()
    assert unit_keys.main(["check", str(units.folder("paper", "demo"))]) == 1
    assert "not reused (reads src/icml26/demo/Prelude.v, which is not here)" in capsys.readouterr().out


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def _kept_under_an_older_key(job: units.Unit, commit: str, dirty: bool = False) -> Path:
    """Record ``job`` as a unit keyed as before the part-of-module key (every code file whole, by its bytes), at
    ``commit``."""
    _write_outputs()
    job.record(seconds=1.0)
    record = json.loads((job.home / units.RECORD).read_text())
    src = Path("src").resolve()
    code = [str(f.relative_to(src.parent)) for f in function_sources(job.func, src, with_runner=False)]
    whole = {p: sha256(Path(p)) for p in ("data/in.npz", *code)}
    old = units.content_key(job.rule, job.func, job.params, whole)
    record |= {"key": old, "inputs": whole, "git": {"commit": commit, "dirty": dirty}}
    (job.home / units.RECORD).write_text(json.dumps(record))
    return job.home.rename(job.home.parent / old[:20])


def test_rekeying_recomputes_each_key_from_the_code_at_the_units_own_commit(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "src")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "code")
    old = _kept_under_an_older_key(job, _git(tmp_path, "rev-parse", "HEAD"))
    assert job.committed() is None  # under today's key definition the old folder is not found
    beside = "def evaluate():\n    return helper()\n\n\ndef verdict():\n    return 1\n"
    today = _job(tmp_path, code=beside)  # a verdict added after the unit ran
    assert unit_keys.main(["rekey", str(units.folder("paper", "demo"))]) == 0
    assert f"{old} -> {job.key[:20]}" in capsys.readouterr().out and not old.exists()
    kept = today.committed()
    assert kept is not None and kept["rekeyed_from"].startswith(old.name) and kept["inputs"] == today.inputs
    assert _job(tmp_path, code="def evaluate():\n    return helper() - 1\n").committed() is None  # code changed


def test_check_says_which_kept_units_a_run_here_reuses_and_what_changed_for_the_others(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    _write_outputs()
    job.record(seconds=1.0)
    folder = str(units.folder("paper", "demo"))
    _job(tmp_path, code="def evaluate():\n    return helper()\n\n\ndef verdict():\n    return 1\n")  # beside it
    assert unit_keys.main(["check", folder]) == 0
    assert "1 of 1 kept units reused" in capsys.readouterr().out
    (tmp_path / "src/icml26/demo/helpers.py").write_text("def helper():\n    return 2\n")
    assert unit_keys.main(["check", folder]) == 1
    out = capsys.readouterr().out
    assert "not reused (changed since: src/icml26/demo/helpers.py)" in out and "0 of 1 kept units" in out
    assert unit_keys.main(["audit", folder]) == 2 and "usage:" in capsys.readouterr().err


def test_check_names_a_paper_the_registry_does_not_know_instead_of_finding_no_units(monkeypatch, capsys):
    """`make units PAPER=dvm-ad` read as "none finished yet"; a registered paper with none still reads so."""
    monkeypatch.chdir(ROOT)
    assert unit_keys.main(["check", "results/paper/dvm-ad/units"]) == 2
    assert "unknown paper(s) dvm-ad" in capsys.readouterr().err
    assert unit_keys.main(["check", "results/paper/ski_rental/units"]) == 0
    assert "none finished yet" in capsys.readouterr().out


LEFT = {
    "dirty": "uncommitted changes",
    "record disagrees with its commit": "helpers.py differs from commit",
    "unknown commit": "is not in this repository",
    "not a record": "not a unit record",
}


@pytest.mark.parametrize("fault", LEFT)
def test_a_unit_whose_code_is_not_known_is_left_as_it_is_and_named(tmp_path, monkeypatch, capsys, fault):
    monkeypatch.chdir(tmp_path)
    job = _job(tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "src")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "code")
    commit = "0" * 40 if fault == "unknown commit" else _git(tmp_path, "rev-parse", "HEAD")
    if fault == "record disagrees with its commit":  # the record was written by code the commit does not hold
        (tmp_path / "src/icml26/demo/helpers.py").write_text("def helper():\n    return 3\n")
    old = _kept_under_an_older_key(job, commit, dirty=fault == "dirty")
    if fault == "not a record":
        (old / units.RECORD).write_text("{not json")
    assert unit_keys.main(["rekey", str(units.folder("paper", "demo"))]) == 1
    out = capsys.readouterr().out
    assert old.is_dir() and f"{old}: left as it is" in out and LEFT[fault] in out


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
