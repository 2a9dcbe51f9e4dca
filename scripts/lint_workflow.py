"""`snakemake --lint`, with its advice to give every rule a conda environment or container accepted.

The project has one environment for every rule (pyproject.toml, mirrored by environment.yml), so that advice
is the one finding the workflow keeps; any other finding fails (exit 1) and is printed with its place.
Run by `make lint`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ACCEPTED = {"Specify a conda environment or container for each rule."}
ROOT = Path(__file__).resolve().parents[1]


def findings(text: str) -> list[tuple[str, str]]:
    """(where, title) of every lint in Snakemake's text report."""
    where, found = "", []
    for line in text.splitlines():
        if line.startswith("Lints for "):
            where = line.removeprefix("Lints for ").rstrip(":")
        elif match := re.match(r"    \* (.+?):$", line):
            found.append((where, match.group(1)))
    return found


def main() -> int:
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--lint"], cwd=ROOT, capture_output=True, text=True)
    text = proc.stdout + proc.stderr
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not findings(text)):
        print(text, file=sys.stderr)
        return proc.returncode or 1
    rejected = [(where, title) for where, title in findings(text) if title not in ACCEPTED]
    for where, title in rejected:
        print(f"{where}: {title}")
    accepted = len(findings(text)) - len(rejected)
    print(f"snakemake --lint: {len(rejected)} finding(s); {accepted} conda/container advice accepted")
    return 1 if rejected else 0


if __name__ == "__main__":
    sys.exit(main())
