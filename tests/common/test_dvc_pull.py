"""`make pull` checks what `dvc pull` needs first: a default remote that exists, and a dvc.lock entry for the stage."""

from pathlib import Path

from icml26.common import dvc_pull

CONFIG = "[core]\n    remote = local\n['remote \"local\"']\n    url = ../../remote\n"


def _clone(tmp_path: Path, lock: str | None, remote: bool) -> tuple[Path, Path]:
    repo = tmp_path / "clone"
    (repo / ".dvc").mkdir(parents=True)
    (repo / ".dvc" / "config").write_text(CONFIG)
    if remote:
        (tmp_path / "remote").mkdir()
    if lock is not None:
        (repo / "dvc.lock").write_text(lock)
    return repo / ".dvc" / "config", repo / "dvc.lock"


def test_a_fresh_clone_is_told_that_the_remote_folder_does_not_exist(tmp_path):
    config, lock = _clone(tmp_path, None, remote=False)
    reason = dvc_pull.problem(["ski_rental@quick"], config, lock)
    assert "does not exist" in reason and str(tmp_path / "remote") in reason and "make push" in reason


def test_a_stage_without_a_recorded_run_is_named(tmp_path):
    config, lock = _clone(tmp_path, "schema: '2.0'\nstages:\n  ski_rental@quick:\n    cmd: x\n", remote=True)
    assert dvc_pull.problem(["ski_rental@quick"], config, lock) is None
    reason = dvc_pull.problem(["coins@quick", "ski_rental@quick"], config, lock)
    assert "records no run of coins@quick:" in reason and "dvc repro coins@quick" in reason
    assert dvc_pull.problem([], config, lock) is None  # every recorded stage


def test_no_lock_and_no_remote_setting_are_refused(tmp_path):
    config, lock = _clone(tmp_path, None, remote=True)
    assert "records no run of any stage" in dvc_pull.problem([], config, lock)
    config.write_text("[core]\n    analytics = false\n")
    assert "names no default remote" in dvc_pull.problem([], config, lock)
    assert dvc_pull.default_remote(config) == ("", "")
