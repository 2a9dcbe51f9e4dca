"""Progress of a long job on the console: every ``every`` seconds, the job's latest log line, how long it has run
and, when that line counts steps (``300/500``), about how long its phase has left.

A job's output goes to its log (``logs/<scale>/<slug>/<rule>.log``), so a 25-minute training job was silent on
the console. The runner starts a :class:`Heartbeat` beside every rule function; a job shorter than ``every``
prints nothing, so short runs stay quiet. The rule functions keep printing what they print (step, loss, seconds);
the heartbeat only carries the newest line to the screen. The estimate is per phase: it restarts when the counted
total or the words before the count change (stage 1 to stage 2), and extrapolates that phase's rate.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import TextIO

COUNT = re.compile(r"(\d+)\s*/\s*(\d+)")
EVERY = 60.0  # seconds between console lines


def duration(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def last_line(log: Path, rule: str) -> str:
    """The newest non-empty line of ``log`` that the job printed (not the runner's own ``[rule]`` lines)."""
    try:
        with open(log, "rb") as stream:
            stream.seek(max(0, log.stat().st_size - 4096))
            lines = stream.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    return next((line.strip() for line in reversed(lines) if line.strip() and not line.startswith(f"[{rule}]")), "")


class Heartbeat:
    """``with Heartbeat(rule, log, console):`` -- a daemon thread printing progress lines until the block ends."""

    def __init__(self, rule: str, log: Path, console: TextIO, every: float = EVERY):
        self.rule, self.log, self.console, self.every = rule, log, console, every
        self.start = time.monotonic()
        self.phase: tuple[str, int] | None = None  # (words before the count, total)
        self.phase_start: tuple[float, int] = (self.start, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.console.write(self.line(last_line(self.log, self.rule), time.monotonic()) + "\n")
            self.console.flush()

    def line(self, latest: str, now: float) -> str:
        """The console line for the job's ``latest`` log line at time ``now``."""
        text = f"icml26: {self.rule}: running {duration(now - self.start)}"
        if not latest:
            return text
        text += f"; {latest[:160]}"
        match = COUNT.search(latest)
        if not match:
            return text
        done, total = int(match.group(1)), int(match.group(2))
        phase = (latest[: match.start()], total)
        if phase != self.phase:  # a new phase: its rate starts here
            self.phase, self.phase_start = phase, (now, done)
            return text
        since, first = self.phase_start
        if done > first and total >= done:
            left = (now - since) / (done - first) * (total - done)
            text += f" (about {duration(left)} left in this phase)"
        return text
