"""The rule runner's argument mapping, seeding and thread pinning."""

from types import SimpleNamespace

import numpy as np
import pytest

from icml26.common import runner
from icml26.common.determinism import pin_threads, seed_everything


class Named(dict):
    """Stands in for Snakemake's named lists: ``.items()``, attribute access, and iteration over the paths (a
    list-valued name flattened), as a ``Namedlist`` iterates."""

    __getattr__ = dict.__getitem__

    def __iter__(self):
        for value in self.values():
            yield from (value if isinstance(value, list) else [value])


def job(log=None, threads=1, **sections):
    named = {k: Named(v) for k, v in sections.items()}
    return SimpleNamespace(rule="r", threads=threads, log=[str(log)] if log else [], **named)


def test_rule_kwargs_merge_named_sections_and_drop_func():
    sm = job(input={"a": "in.csv"}, output={"b": "out.csv"}, params={"func": "m:f", "k": [1, 2]})
    assert runner.rule_kwargs(sm) == {"a": "in.csv", "b": "out.csv", "k": [1, 2]}


def test_rule_kwargs_reject_a_name_used_twice():
    sm = job(input={"a": "x"}, output={"a": "y"}, params={"func": "m:f"})
    with pytest.raises(ValueError, match="used twice"):
        runner.rule_kwargs(sm)


def test_resolve_needs_module_and_function():
    assert runner.resolve("icml26.common.summary:build_summary").__name__ == "build_summary"
    with pytest.raises(ValueError, match="module:function"):
        runner.resolve("icml26.common.summary.build_summary")


def test_a_failing_rule_function_writes_its_traceback_to_the_log_and_one_line_to_the_console(tmp_path, capsys):
    log = tmp_path / "r.log"
    sm = job(log=log, input={}, output={}, params={"func": "icml26.common.runner:resolve", "spec": "no_colon"})
    with pytest.raises(SystemExit) as stop:
        runner.call_rule_function(sm)
    assert stop.value.code == 1 and stop.value.__cause__ is None and stop.value.__suppress_context__
    text = log.read_text()
    assert "[r] icml26.common.runner:resolve" in text and "Traceback" in text and "no_colon" in text
    console = capsys.readouterr().err.splitlines()
    assert console == [
        f"icml26: r failed: rule function must be given as 'module:function', got 'no_colon' (traceback: {log})"
    ]
    without_log = job(input={}, output={}, params={"func": "icml26.common.runner:resolve", "spec": "no_colon"})
    with pytest.raises(ValueError, match="module:function"):  # no log to hold the traceback: it is raised
        runner.call_rule_function(without_log)


def test_a_successful_rule_function_reports_its_time(tmp_path):
    log = tmp_path / "r.log"
    out = tmp_path / "m.json"
    sm = job(
        log=log, input={}, output={"path": str(out)}, params={"func": "icml26.common.io:write_json", "data": {"a": 1}}
    )
    runner.call_rule_function(sm)
    assert out.read_text() == '{\n  "a": 1\n}\n'
    assert "[r] done in" in log.read_text()


def test_seed_everything_gives_reproducible_generators_and_global_state():
    a, ga = seed_everything(3).random(5), np.random.random()
    b, gb = seed_everything(3).random(5), np.random.random()
    assert np.array_equal(a, b) and ga == gb
    assert not np.array_equal(seed_everything(4).random(5), a)


def test_seed_everything_makes_torch_deterministic_without_loading_its_compiler():
    import subprocess
    import sys

    probe = (
        "import sys, torch; from icml26.common.determinism import seed_everything; seed_everything(0); "
        "print(torch.are_deterministic_algorithms_enabled(), "
        "torch.is_deterministic_algorithms_warn_only_enabled(), 'torch._inductor' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "False"]


def test_pin_threads_rejects_zero():
    pin_threads(1)
    with pytest.raises(ValueError):
        pin_threads(0)


def test_a_recorded_call_replays_to_the_same_bytes_elsewhere(tmp_path, monkeypatch):
    import shutil

    from icml26.common.claims import HOLDS, Claim, write_claims
    from icml26.common.replay import RECORD_ENV, record, replay
    from icml26.common.summary import build_summary

    first, second, calls = tmp_path / "a", tmp_path / "b", tmp_path / "calls.jsonl"
    (first / "p").mkdir(parents=True)
    write_claims(
        first / "p" / "claims.json",
        [Claim("c", "s", 1.0, 0.5, "<=", HOLDS, premises_note="none", headline="h", evidence=["tables/t.csv"])],
        substitution="none",
    )
    shutil.copytree(first, second)
    kwargs = {"claims": ["p/claims.json"], "summary": "out/summary.md", "scale": "smoke"}
    monkeypatch.chdir(first)
    build_summary(**kwargs)
    monkeypatch.delenv(RECORD_ENV, raising=False)
    record("icml26.common.summary:build_summary", kwargs, 1, ["out/summary.md"])
    assert not calls.exists()  # recording is off unless asked for
    monkeypatch.setenv(RECORD_ENV, str(calls))
    record("icml26.common.summary:build_summary", kwargs, 1, ["out/summary.md"])
    monkeypatch.chdir(second)
    assert replay(calls) == 1
    assert (second / "out" / "summary.md").read_bytes() == (first / "out" / "summary.md").read_bytes()


def test_a_failed_job_removes_its_papers_verdict_and_says_so(tmp_path, capsys, monkeypatch):
    """A verdict left from an earlier run would read as this run's (issue 67): a job of the paper that fails takes
    the paper's claims.json with it, naming it; a job that succeeds, or shared code, leaves it."""
    monkeypatch.chdir(tmp_path)
    verdict = tmp_path / "results" / "smoke" / "ski_rental" / "claims.json"
    verdict.parent.mkdir(parents=True)
    verdict.write_text("[]")
    failing = job(log=tmp_path / "r.log", input={}, output={}, params={"func": "icml26.ski_rental.rules:verdict"})
    failing.config = {"scale": "smoke"}
    shared = job(log=tmp_path / "s.log", input={}, output={}, params={"func": "icml26.common.runner:resolve"})
    shared.config = {"scale": "smoke"}
    with pytest.raises(SystemExit):
        runner.call_rule_function(shared)  # shared code failing: no paper's verdict to remove
    assert verdict.exists()
    with pytest.raises(SystemExit):
        runner.call_rule_function(failing)  # missing arguments: the paper's job fails
    assert not verdict.exists()
    (line,) = capsys.readouterr().err.splitlines()[-1:]  # still one line
    assert line.startswith("icml26: r failed: ") and line.endswith(
        "; removed results/smoke/ski_rental/claims.json, which this run no longer supports "
        "(git checkout restores a committed one)"
    )


def read_folder(model: str, path: str) -> None:
    """A rule function that reads a folder (for the test below)."""
    from pathlib import Path

    from icml26.common.io import write_json

    write_json(path, {"files": sorted(p.name for p in Path(model).iterdir())})


def test_a_folder_edited_after_its_job_stops_the_job_that_reads_it(tmp_path, capsys, monkeypatch):
    """Snakemake sees a folder's time stamp, not an edit inside it (issue 67): the runner records what a job wrote
    into a folder output and a later job reading that folder fails in one line naming the changed file."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "data" / "model"
    folder.mkdir(parents=True)
    (folder / "weights.bin").write_bytes(b"trained")
    (folder / "config.json").write_text("{}")
    runner.record_folders([str(folder), str(tmp_path / "not_a_folder.csv")])
    (folder / ".snakemake_timestamp").write_text("")  # Snakemake stamps a folder output after its job
    assert runner.changed_folders([str(folder)]) == []
    reader = job(
        log=tmp_path / "r.log",
        input={"model": str(folder)},
        output={"path": str(tmp_path / "out.json")},
        params={"func": "tests.common.test_runner_and_determinism:read_folder"},
    )
    runner.call_rule_function(reader)
    (folder / "weights.bin").write_bytes(b"edited by hand")
    (folder / "notes.txt").write_text("added")
    (tmp_path / "out.json").unlink()
    with pytest.raises(SystemExit):
        runner.call_rule_function(reader)
    (line,) = capsys.readouterr().err.splitlines()[-1:]
    assert "data/model: notes.txt, weights.bin changed since the job that wrote it; delete the folder" in line
    assert not (tmp_path / "out.json").exists()  # nothing written from the edited folder
    unrecorded = tmp_path / "data" / "other"
    unrecorded.mkdir()
    assert runner.changed_folders([str(unrecorded)]) == []  # no manifest: not checked


def test_a_failed_job_leaves_the_committed_verdict_in_place(tmp_path, capsys, monkeypatch):
    """A failed quick run deleted the paper's committed claims.json (issue 79): the committed bytes stay, named as
    committed; a verdict an earlier local run wrote over them is still removed."""
    import subprocess

    monkeypatch.chdir(tmp_path)
    verdict = tmp_path / "results" / "smoke" / "ski_rental" / "claims.json"
    verdict.parent.mkdir(parents=True)
    verdict.write_text("[]")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "committed verdict"], check=True)
    failing = job(log=tmp_path / "r.log", input={}, output={}, params={"func": "icml26.ski_rental.rules:verdict"})
    failing.config = {"scale": "smoke"}
    with pytest.raises(SystemExit):
        runner.call_rule_function(failing)
    assert verdict.read_text() == "[]"
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("the committed results/smoke/ski_rental/claims.json stays as committed (this run did not replace it)")
    )
    verdict.write_text('[{"id": "from an earlier local run"}]')
    with pytest.raises(SystemExit):
        runner.call_rule_function(failing)
    assert not verdict.exists()
