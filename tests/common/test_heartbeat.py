"""A long job's progress reaches the console: its newest log line, the time run, and an estimate per phase."""

from __future__ import annotations

import io
import time

from icml26.common import heartbeat, runner
from tests.common.test_runner_and_determinism import job


def test_the_line_carries_the_latest_step_and_extrapolates_the_phase_rate(tmp_path):
    beat = heartbeat.Heartbeat("train", tmp_path / "train.log", io.StringIO(), every=60)
    start = beat.start
    assert beat.line("", start + 5) == "icml26: train: running 5 s"
    first = beat.line("stage 1: step 100/500 loss 0.9", start + 60)
    assert first == "icml26: train: running 1 min 00 s; stage 1: step 100/500 loss 0.9"  # a phase's first sight
    later = beat.line("stage 1: step 300/500 loss 0.5", start + 120)
    assert later.endswith("(about 1 min 00 s left in this phase)")  # 200 steps a minute, 200 to go
    fresh = beat.line("stage 2: step 10/400 loss 1.2", start + 130)
    assert "left" not in fresh  # a new phase: no rate yet


def test_the_newest_printed_line_is_read_from_the_log(tmp_path):
    log = tmp_path / "r.log"
    log.write_text("[r] icml26.x:y\nstep 1/3\n\nstep 2/3\n[r] done\n")
    assert heartbeat.last_line(log, "r") == "step 2/3"
    assert heartbeat.last_line(tmp_path / "missing.log", "r") == ""


def slow(path: str) -> None:
    """A rule function that reports progress for a while (for the test below)."""
    from icml26.common.io import write_json

    for step in range(1, 5):
        print(f"step {step}/4", flush=True)
        time.sleep(0.15)
    write_json(path, {"done": True})


def test_a_job_longer_than_the_interval_reports_on_the_console_and_a_short_one_does_not(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(heartbeat, "EVERY", 0.2)
    monkeypatch.setattr(heartbeat.Heartbeat.__init__, "__defaults__", (0.2,))
    long = job(
        log=tmp_path / "long.log",
        input={},
        output={"path": str(tmp_path / "out.json")},
        params={"func": "tests.common.test_heartbeat:slow"},
    )
    long.rule = "long"
    runner.call_rule_function(long)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("icml26: long: running")]
    assert lines and any("step " in line and "/4" in line for line in lines)
    quick = job(
        log=tmp_path / "quick.log",
        input={},
        output={"path": str(tmp_path / "q.json")},
        params={"func": "icml26.common.io:write_json", "data": {}},
    )
    runner.call_rule_function(quick)
    assert capsys.readouterr().err == ""
