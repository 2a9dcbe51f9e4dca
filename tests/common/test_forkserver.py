"""The fork server runs a job exactly as its own interpreter would: the client's directory, environment,
sys.path and streams, the current project code, its exit status; and a job dies with its client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from snakemake.iocontainers import InputFiles, Log, OutputFiles, Params, ResourceList, Snakemake, Wildcards

from icml26.common.forkserver import ENV, PRELOAD, ForkServerError, running_server, submit
from tests.conftest import GUARD, ROOT

JOBS = """
import json, os, sys, time

VALUE = {value}


def report(out):
    print("to the log")
    with open(out, "w") as handle:
        json.dump({{"cwd": os.getcwd(), "colour": os.environ.get("COLOUR"), "pid": os.getpid(), "value": VALUE,
                   "preloaded": sorted({preload!r} - set(sys.modules))}}, handle)


def fail(out):
    raise ValueError("the input has no rows")


def stop(out):
    sys.exit(3)


def linger(out):
    with open(out, "w") as handle:
        handle.write(str(os.getpid()))
    time.sleep(600)
"""


@pytest.fixture(scope="module")
def address():
    with running_server() as where:  # in the system's temporary folder: a socket path has at most 107 bytes
        yield where


@pytest.fixture
def jobs(tmp_path, monkeypatch):
    """A module of rule functions on this process's sys.path (sent with each job), and a helper for jobs."""

    def write(value: int = 1) -> None:
        (tmp_path / "jobmod.py").write_text(JOBS.format(value=value, preload=set(PRELOAD)))

    write()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return write


def job(func: str, out: Path, log: Path | None = None) -> Snakemake:
    """A Snakemake script's ``snakemake`` object for the rule function ``jobmod:<func>``."""
    return Snakemake(
        InputFiles(fromdict={}),
        OutputFiles(fromdict={"out": str(out)}),
        Params(fromdict={"func": f"jobmod:{func}"}),
        Wildcards(fromdict={}),
        1,
        ResourceList(),
        Log(toclone=[str(log)] if log else []),
        {},
        "r",
        None,
    )


def test_a_job_runs_forked_from_the_server_in_the_client_s_directory_and_environment(
    address, jobs, tmp_path, monkeypatch
):
    monkeypatch.setenv("COLOUR", "teal")
    assert submit(job("report", tmp_path / "out.json", tmp_path / "r.log"), address) == 0
    seen = json.loads((tmp_path / "out.json").read_text())
    assert seen["cwd"] == str(tmp_path) and seen["colour"] == "teal"
    assert seen["pid"] != os.getpid()
    assert "to the log" in (tmp_path / "r.log").read_text()


def test_jobs_start_with_the_preloaded_libraries_once_the_server_has_imported_them(address, jobs, tmp_path):
    deadline = time.time() + 600  # the imports take ~10 s between jobs; ten minutes means they never end
    while True:
        assert submit(job("report", tmp_path / "out.json"), address) == 0
        if json.loads((tmp_path / "out.json").read_text())["preloaded"] == []:
            break
        assert time.time() < deadline
        time.sleep(0.5)


def test_the_next_job_runs_the_edited_code(address, jobs, tmp_path):
    assert submit(job("report", tmp_path / "out.json"), address) == 0
    jobs(value=2)
    assert submit(job("report", tmp_path / "out.json"), address) == 0
    assert json.loads((tmp_path / "out.json").read_text())["value"] == 2


def test_a_failing_job_exits_1_with_its_reason_on_the_console_and_the_traceback_in_its_log(
    address, jobs, tmp_path, capfd
):
    assert submit(job("fail", tmp_path / "out.json", tmp_path / "r.log"), address) == 1
    assert "icml26: r failed: the input has no rows" in capfd.readouterr().err
    assert "Traceback" in (tmp_path / "r.log").read_text()


def test_a_job_s_exit_status_passes_through(address, jobs, tmp_path):
    assert submit(job("stop", tmp_path / "out.json"), address) == 3


def test_a_job_from_another_python_environment_is_refused_with_one_line(address, jobs, tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(sys, "prefix", "/elsewhere/venv")
    assert submit(job("report", tmp_path / "out.json"), address) == 1
    err = capfd.readouterr().err
    assert "icml26: the fork server cannot run this job" in err and "/elsewhere/venv" in err
    assert not (tmp_path / "out.json").exists()


def test_no_server_at_the_address_is_one_clear_error(jobs, tmp_path):
    with pytest.raises(ForkServerError, match=f"no fork server at {tmp_path}/absent"):
        submit(job("report", tmp_path / "out.json"), str(tmp_path / "absent"))


def test_a_job_is_stopped_when_its_client_dies(address, jobs, tmp_path):
    client = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
            import sys; sys.path.insert(0, {str(tmp_path)!r}); sys.path.insert(0, {str(ROOT)!r})
            from icml26.common.forkserver import submit
            from tests.common.test_forkserver import job
            from pathlib import Path
            submit(job("linger", Path({str(tmp_path / "pid")!r})), {address!r})
        """),
        ],
        cwd=tmp_path,
    )
    deadline = time.time() + GUARD  # guards against a hang; no wall-clock assertion
    while not (tmp_path / "pid").exists() or not (tmp_path / "pid").read_text():
        assert client.poll() is None and time.time() < deadline
        time.sleep(0.05)
    pid = int((tmp_path / "pid").read_text())
    client.send_signal(signal.SIGKILL)
    client.wait()
    while _alive(pid):
        assert time.time() < deadline
        time.sleep(0.05)


def test_run_serves_the_command_and_passes_its_exit_status(tmp_path):
    check = f"import os, sys; sys.exit(7 if os.path.exists(os.environ[{ENV!r}]) else 1)"
    proc = subprocess.run(
        [sys.executable, "-m", "icml26.common.forkserver", "run", "--", sys.executable, "-c", check],
        cwd=tmp_path,
        timeout=GUARD,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 7
    usage = subprocess.run(
        [sys.executable, "-m", "icml26.common.forkserver", "run"],
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=False,
    )
    assert usage.returncode == 2 and usage.stderr.startswith("usage:")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_job_script_pointed_at_no_server_stops_with_one_line_naming_the_rule(jobs, tmp_path, monkeypatch):
    from icml26.common.runner import run_job

    monkeypatch.setenv(ENV, str(tmp_path / "absent"))
    with pytest.raises(SystemExit, match=rf"^icml26: r: no fork server at {tmp_path}/absent .*unset {ENV}"):
        run_job(job("report", tmp_path / "out.json"))
    assert not (tmp_path / "out.json").exists()


def test_a_linked_venv_is_the_same_environment(address, jobs, tmp_path, monkeypatch):
    """A .venv reached through a link (issue 67: the server refused every job) is the server's own."""
    link = tmp_path / "venv-link"
    link.symlink_to(sys.prefix, target_is_directory=True)
    monkeypatch.setattr(sys, "prefix", str(link))
    assert submit(job("report", tmp_path / "out.json"), address) == 0 and (tmp_path / "out.json").exists()


def test_a_server_that_goes_away_during_a_job_is_one_clear_error(jobs, tmp_path):
    """A fork server killed while a job runs resets the connection: one clear error, not a bare
    ConnectionResetError (issue 67). A stand-in server accepts the job and resets the connection."""
    import struct
    import tempfile
    import threading

    where = tempfile.mkdtemp(prefix="icml26-reset-")  # a socket path has at most 107 bytes
    address = os.path.join(where, "socket")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(1)

    def accept_and_reset():
        conn, _ = listener.accept()
        conn.recv(1 << 16)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
        conn.close()

    thread = threading.Thread(target=accept_and_reset)
    thread.start()
    try:
        with pytest.raises(
            ForkServerError, match=r"went away during the job \((Connection\w*|BrokenPipe)Error\); run again"
        ):
            submit(job("report", tmp_path / "out.json"), address)
    finally:
        thread.join()
        listener.close()
