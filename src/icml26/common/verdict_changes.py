"""The log of every committed quick verdict that changed since the issue-66 audit, and why (issue 66, item 7).

``results/quick/verdict_changes.yaml`` holds the audited states (``baseline``: the commit the audit read, every
claim's state then) and, in order, each change (date, paper, claim, from, to, why). Replaying the changes over the
baseline must give exactly the committed states: ``tests/common/test_verdict_changes.py`` checks it, so a verdict
that flips without an entry here -- or an entry the results do not bear out -- fails the suite. The committed
summary lists the changes beside the counts (:func:`markdown`).

A state is the claim's ``state``, with `` (by construction)`` where the setup built the result in (a change of that
label is a change of verdict: the summary counts it apart); a claim added after the audit changes from ``new``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .claims import Claim

PATH = Path("results") / "quick" / "verdict_changes.yaml"
NEW = "new"


def state_of(claim: Claim) -> str:
    return claim.state + (" (by construction)" if claim.by_construction else "")


def load(path: str | os.PathLike) -> dict[str, Any]:
    return yaml.safe_load(Path(path).read_text())


def replay(log: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Every claim's state after the logged changes, paper by paper; an entry whose ``from`` is not the state it
    changes raises (the log contradicts itself)."""
    states = {paper: dict(claims) for paper, claims in log["baseline"]["states"].items()}
    for change in log.get("changes", []):
        paper = states.setdefault(change["paper"], {})
        before = paper.get(change["claim"], NEW)
        if before != change["from"]:
            raise ValueError(
                f"{PATH}: {change['paper']}/{change['claim']} changes from {change['from']!r} on {change['date']}, "
                f"but was {before!r} then"
            )
        paper[change["claim"]] = change["to"]
    return states


def problems(log: dict[str, Any], committed: dict[str, list[Claim]]) -> list[str]:
    """Where the committed claims differ from the replayed log, one line each: an unlogged change, or a logged one
    the results do not show."""
    expected = replay(log)
    found = []
    for paper, claims in sorted(committed.items()):
        now = {c.id: state_of(c) for c in claims}
        logged = expected.get(paper, {})
        for claim_id in sorted(set(now) | set(logged)):
            if now.get(claim_id) != logged.get(claim_id):
                found.append(
                    f"{paper}/{claim_id}: committed {now.get(claim_id)!r}, the log says {logged.get(claim_id)!r} "
                    f"({PATH}: log the change, dated, with why)"
                )
    return found


def markdown(log: dict[str, Any]) -> list[str]:
    """The summary's section: each change since the audit, newest first."""
    base = log["baseline"]
    changes = log.get("changes", [])
    lines = [
        f"## Verdict changes since the audit of {base['date']} (commit {base['commit']})",
        "",
        f"{len(changes)} changes, each with why (`{PATH.as_posix()}`; a test replays them over the audited states "
        "and requires the committed ones):",
        "",
        "| date | paper | claim | from | to | why |",
        "|---|---|---|---|---|---|",
    ]
    for c in reversed(changes):
        cells = (c["date"], c["paper"], c["claim"], c["from"], f"**{c['to']}**", c["why"])
        lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in cells) + " |")
    return [*lines, ""]
