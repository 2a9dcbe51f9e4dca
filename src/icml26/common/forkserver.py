"""Opt-in fork server: jobs start from a process that has already imported the heavy libraries.

A job's own work is often shorter than its start-up: numpy, pandas, matplotlib, scikit-learn and torch
take 5-8 s of imports per job (docs/ARCHITECTURE.md, "Tests"), paid again by every job of a DAG. With
``$ICML26_FORKSERVER`` naming a socket served by ``python -m icml26.common.forkserver serve <socket>``,
``workflow/scripts/call.py`` hands its job to that server instead of running it: the server forks a copy
of itself, which takes the job's working directory, environment, ``sys.path`` and stdout/stderr (passed
as file descriptors), and calls the same :func:`icml26.common.runner.call_rule_function` as the cold
path. The job script waits and exits with the job's exit status; if the script dies (Snakemake stopped,
a timeout), the forked job is killed with it.

The server preloads third-party libraries only (:data:`PRELOAD`), never this project's code, so an edit
to ``src/`` takes effect in the next job exactly as without the server. Libraries that read the
environment when imported (Hugging Face's hub settings) are not preloaded either.

Caveat: Snakemake's benchmark files then count the CPU time and memory of the waiting job script, not of
the forked job; their wall-clock seconds are right.

``python -m icml26.common.forkserver run -- <command>`` starts a server, runs the command with
``$ICML26_FORKSERVER`` set, and stops the server: ``make run WARM=1`` and the test suite use it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Any, NoReturn

ENV = "ICML26_FORKSERVER"

# Imported once by the server, one at a time between jobs: a job that arrives meanwhile is forked from what
# is loaded so far and imports the rest itself, so no job waits for the whole list. What every job needs
# first; torch._dynamo is what the first torch.func transform or optimiser step imports (~1.5 s).
PRELOAD = (
    "snakemake.script",
    "threadpoolctl",
    "numpy",
    "pandas",
    "scipy",
    "scipy.stats",
    "matplotlib",
    "matplotlib.pyplot",
    "sklearn",
    "sklearn.metrics",
    "sklearn.datasets",
    "torch",
    "torch.func",
    "torch._dynamo",
)

_SIZE = 8  # bytes of the request's length prefix
_STDOUT_STDERR = (1, 2)


class ForkServerError(RuntimeError):
    """The job could not be handed to the server (none listening, or a different environment)."""


# ---------------------------------------------------------------------------------------------- client side


def submit(job: Any, address: str) -> int:
    """Run one Snakemake job (the ``snakemake`` object of a script) in the server at ``address``; return its
    exit status. Blocks until the job ends; this process's stdout and stderr are the job's."""
    import icml26

    request = pickle.dumps(
        {
            "job": pickle.dumps(job),
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "path": list(sys.path),
            "argv": list(sys.argv),
            "environment": (os.path.realpath(sys.prefix), sys.version),  # links resolved: a linked .venv is the same
            "package": os.path.realpath(icml26.__file__),
        }
    )
    sys.stdout.flush()
    sys.stderr.flush()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.connect(address)
        except OSError as error:
            raise ForkServerError(
                f"no fork server at {address} (${ENV}): {error.strerror}; "
                f"unset {ENV} to run jobs in their own processes"
            ) from None
        try:
            socket.send_fds(conn, [len(request).to_bytes(_SIZE, "big")], list(_STDOUT_STDERR))
            conn.sendall(request)
            reply = _receive(conn, 4)
        except ConnectionError as error:  # the server was killed: say so, not a bare ConnectionResetError
            raise ForkServerError(
                f"the fork server at {address} went away during the job ({type(error).__name__}); run again, "
                f"or unset {ENV} to run jobs in their own processes"
            ) from None
    if len(reply) < 4:
        raise ForkServerError(f"the fork server at {address} closed the connection before the job ended")
    return int.from_bytes(reply, "big", signed=True)


# ---------------------------------------------------------------------------------------------- server side


def serve(address: str) -> None:
    """Listen on ``address`` and fork one handler per job, importing :data:`PRELOAD` while no job waits,
    until the parent process (whoever started the server) is gone or a signal stops it."""
    parent = os.getppid()
    os.environ.setdefault("MPLBACKEND", "Agg")  # as the job runner sets it, before matplotlib is preloaded
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(128)
    preload = list(PRELOAD)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop between jobs, and wait for the finished ones
    try:
        with listener:
            while os.getppid() == parent:
                _reap()  # waited for, not left to the kernel: the server's CPU time then counts its jobs'
                listener.settimeout(0.0 if preload else 1.0)
                try:
                    conn, _ = listener.accept()
                except (TimeoutError, BlockingIOError):
                    if preload:
                        importlib.import_module(preload.pop(0))
                    continue
                sys.stdout.flush()
                sys.stderr.flush()
                if os.fork() == 0:
                    listener.close()
                    _handler_process(conn)
                conn.close()
    finally:
        _reap()


def _handler_process(conn: socket.socket) -> NoReturn:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    status = 1
    try:
        _handle(conn)
        status = 0
    except BaseException:  # noqa: BLE001 -- a broken request must not stop the server; its log says why
        traceback.print_exc()
    finally:
        os._exit(status)


def _handle(conn: socket.socket) -> None:
    """In a handler process: read the request, fork the job, wait for it (or for the client to vanish)."""
    conn.settimeout(None)
    header, fds, _, _ = socket.recv_fds(conn, _SIZE, len(_STDOUT_STDERR))
    request = pickle.loads(_receive(conn, int.from_bytes(header, "big")))
    mismatch = _mismatch(request)
    if mismatch:
        os.write(fds[1], f"icml26: the fork server cannot run this job: {mismatch}\n".encode())
        conn.sendall((1).to_bytes(4, "big", signed=True))
        return
    job = os.fork()
    if job == 0:
        conn.close()
        os._exit(_run_job(request, fds))
    for fd in fds:
        os.close(fd)
    watch = os.pidfd_open(job)
    while True:
        ready, _, _ = select.select([conn, watch], [], [])
        if watch in ready:
            break
        if not conn.recv(1):  # the job script is gone (Snakemake stopped, a timeout): stop the job too
            with contextlib.suppress(ProcessLookupError):
                os.killpg(job, signal.SIGTERM)
            os.waitpid(job, 0)
            return
    _, status = os.waitpid(job, 0)
    code = os.waitstatus_to_exitcode(status)
    conn.sendall((code if code >= 0 else 128 - code).to_bytes(4, "big", signed=True))


def _reap() -> None:
    """Wait for every handler that has finished."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _mismatch(request: dict[str, Any]) -> str | None:
    """Why this server cannot stand in for the job's own interpreter, if it cannot."""
    import icml26

    if request["environment"] != (os.path.realpath(sys.prefix), sys.version):
        return (
            f"it runs Python {sys.version.split()[0]} in {sys.prefix}, the job "
            f"Python {request['environment'][1].split()[0]} in {request['environment'][0]}"
        )
    if request["package"] != os.path.realpath(icml26.__file__):
        return f"it imports icml26 from {icml26.__file__}, the job from {request['package']}"
    return None


def _run_job(request: dict[str, Any], fds: list[int]) -> int:
    """In the job process: become the job's process (directory, environment, streams) and run it."""
    os.setpgid(0, 0)  # the job's own children are stopped with it
    for target, fd in zip(_STDOUT_STDERR, fds):
        os.dup2(fd, target)
        os.close(fd)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[:] = request["path"]
    sys.argv[:] = request["argv"]
    status = 1
    try:
        from .runner import call_rule_function

        call_rule_function(pickle.loads(request["job"]))  # here: its classes may live on the job's sys.path
        status = 0
    except SystemExit as stop:  # as the interpreter treats it: an int is the status, anything else is printed
        if stop.code is None or isinstance(stop.code, int):
            status = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 -- as the interpreter does for an uncaught error in a cold job
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return status


def _receive(conn: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


# ---------------------------------------------------------------------------------------------- lifetime


@contextlib.contextmanager
def running_server(directory: str | None = None):
    """A server for the duration of the block; yields its address. Waits until it listens."""
    with tempfile.TemporaryDirectory(prefix="icml26-fork-", dir=directory) as tmp:
        address = os.path.join(tmp, "socket")
        server = subprocess.Popen([sys.executable, "-m", "icml26.common.forkserver", "serve", address])
        try:
            while not os.path.exists(address):
                if server.poll() is not None:
                    raise ForkServerError(f"the fork server exited with status {server.returncode} before listening")
                time.sleep(0.01)
            yield address
        finally:
            server.terminate()
            server.wait()


def main(argv: list[str]) -> int:
    usage = "usage: python -m icml26.common.forkserver serve SOCKET | run -- COMMAND [ARG ...]"
    if len(argv) == 2 and argv[0] == "serve":
        with contextlib.suppress(KeyboardInterrupt):
            serve(argv[1])
        return 0
    if len(argv) >= 2 and argv[0] == "run":
        command = argv[2:] if argv[1] == "--" else argv[1:]
        if not command:
            print(usage, file=sys.stderr)
            return 2
        with running_server() as address:
            return subprocess.call(command, env={**os.environ, ENV: address})
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
