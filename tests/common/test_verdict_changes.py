"""The log of verdict changes (issue 66, item 7): replayed over the audited states it gives exactly the committed
quick verdicts, so a verdict that flips without a dated reason fails here; the committed summary lists it."""

from __future__ import annotations

import pytest
import yaml

from icml26.common import verdict_changes
from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, Claim, Interval, read_claims, write_claims
from icml26.common.registry import papers
from icml26.common.summary import build_summary
from tests.conftest import ROOT


def _committed() -> dict[str, list[Claim]]:
    return {p.slug: read_claims(ROOT / "results" / "quick" / p.slug / "claims.json") for p in papers()}


def _claim(state=INCONCLUSIVE, bounds=(-0.1, 0.1, 0.3), by_construction=""):
    interval = Interval("gain", bounds[1], bounds[0], bounds[2], 0.0, ">", "t over 3 seeds", dof=2)
    return Claim(
        "c", "s", None, 0.1, "all", state, [interval], premises_note="none", by_construction=by_construction,
        headline="h", evidence=["tables/t.csv"],
    )  # fmt: skip


LOG = {
    "baseline": {"commit": "abc", "date": "2026-12-04", "states": {"p": {"c": "holds"}}},
    "changes": [{"date": "2026-12-05", "paper": "p", "claim": "c", "from": "holds", "to": "inconclusive", "why": "w"}],
}


def test_the_log_replayed_over_the_audit_gives_every_committed_verdict():
    log = verdict_changes.load(ROOT / verdict_changes.PATH)
    assert verdict_changes.problems(log, _committed()) == []
    assert all(c["why"].strip() and c["date"] for c in log["changes"])


def test_an_unlogged_flip_a_logged_change_the_results_lack_and_a_broken_chain_are_named():
    assert verdict_changes.problems(LOG, {"p": [_claim()]}) == []
    (unlogged,) = verdict_changes.problems(LOG, {"p": [_claim(FAILS, (-0.3, -0.2, -0.1))]})
    assert unlogged.startswith("p/c: committed 'does not hold', the log says 'inconclusive'")
    (built_in,) = verdict_changes.problems(LOG, {"p": [_claim(HOLDS, (0.05, 0.1, 0.3), by_construction="scripted")]})
    assert "committed 'holds (by construction)'" in built_in  # the label is part of the verdict
    added = {"p": [_claim(), Claim("d", "s", None, 1, "==", HOLDS, premises_note="none")]}
    assert verdict_changes.problems(LOG, added) == [
        "p/d: committed 'holds', the log says None (" + str(verdict_changes.PATH) + ": log the change, dated, with why)"
    ]
    new = LOG["changes"] + [{"date": "d", "paper": "p", "claim": "d", "from": "new", "to": "holds", "why": "w"}]
    assert verdict_changes.problems(LOG | {"changes": new}, added) == []
    broken = LOG["changes"] + [{"date": "d", "paper": "p", "claim": "c", "from": "holds", "to": "x", "why": "w"}]
    with pytest.raises(ValueError, match="p/c changes from 'holds' on d, but was 'inconclusive' then"):
        verdict_changes.replay(LOG | {"changes": broken})


def test_the_summary_lists_the_changes_newest_first(tmp_path):
    folder = tmp_path / "results" / "quick" / "p"
    folder.mkdir(parents=True)
    write_claims(folder / "claims.json", [_claim()], substitution="none")
    log = tmp_path / "log.yaml"
    later = {"date": "2026-12-06", "paper": "p", "claim": "c", "from": "inconclusive", "to": "inconclusive", "why": "z"}
    log.write_text(yaml.safe_dump(LOG | {"changes": LOG["changes"] + [later]}))
    build_summary([folder / "claims.json"], tmp_path / "summary.md", scale="quick", changes=[log])
    text = (tmp_path / "summary.md").read_text()
    assert "## Verdict changes since the audit of 2026-12-04 (commit abc)" in text
    assert text.index("| 2026-12-06 |") < text.index("| 2026-12-05 | p | c | holds | **inconclusive** | w |")
    build_summary([folder / "claims.json"], tmp_path / "plain.md", scale="quick")
    assert "Verdict changes" not in (tmp_path / "plain.md").read_text()
