"""Pre-registered criteria (issue 66): every committed claim was judged on what config/criteria/<slug>.yaml
registers, with a margin and its reason; a moved threshold, a new statistic or a registry changed after the run
fails make verify."""

from __future__ import annotations

import json
from dataclasses import replace

import yaml

from icml26.common import criteria, verify
from icml26.common.claims import DETERMINISTIC, INCONCLUSIVE, PREMISE_NOT_MET, Claim, Interval, Premise, from_record
from icml26.common.registry import papers
from tests.conftest import ROOT


def _claim(threshold=0.0, margin=None, statistic="gain"):
    interval = Interval(statistic, 0.1, -0.1, 0.3, threshold, ">", "t over 3 seeds", margin=margin, dof=2)
    return Claim("c", "s", None, 0.1, "all", INCONCLUSIVE, [interval], premises_note="none")


REGISTRY = {"claims": {"c": {"fixed": "2026-12-05", "criteria": {"gain": [">", 0.0, 0.0]}}}}


def test_every_committed_claim_matches_its_paper_s_registry_with_a_margin_and_a_reason():
    for paper in papers():
        registry = criteria.load(paper.slug, ROOT)
        assert registry is not None, f"config/criteria/{paper.slug}.yaml missing"
        claims = [
            from_record(r) for r in json.loads((ROOT / "results" / "quick" / paper.slug / "claims.json").read_text())
        ]
        assert criteria.problems(paper.slug, claims, registry) == [], paper.slug
        for claim_id, entry in registry["claims"].items():
            assert entry.get("fixed"), f"{paper.slug}/{claim_id}: when was it fixed?"
            if entry["criteria"] != criteria.DETERMINISTIC:  # its own margin, by a named clause of the margin rule
                assert str(entry.get("margin_why")).startswith(("rule 1", "rule 2", "rule 3")), (
                    f"{paper.slug}/{claim_id}"
                )


def test_a_margin_registered_by_its_rule_accepts_any_positive_margin_and_refuses_none():
    by_rule = {"claims": {"c": {"fixed": "x", "criteria": {"gain": [">", 0.0, "1 % of the baseline's return"]}}}}
    assert criteria.problems("p", [_claim(margin=0.05)], by_rule) == []
    (line,) = criteria.problems("p", [_claim()], by_rule)
    assert "registered > 0 (margin 1 % of the baseline's return)" in line
    assert criteria.rank_point(10) == 0.09 and abs(criteria.percent_of(-222.9) - 2.229) < 1e-12


def test_a_moved_threshold_a_new_margin_or_an_unregistered_statistic_is_named():
    assert criteria.problems("p", [_claim()], REGISTRY) == []
    (moved,) = criteria.problems("p", [_claim(threshold=0.05)], REGISTRY)
    assert moved.startswith("c: 'gain' judged > 0.05 (margin 0), registered > 0 (margin 0) (fixed 2026-12-05)")
    (margin,) = criteria.problems("p", [_claim(margin=0.02)], REGISTRY)
    assert "judged > 0 (margin 0.02)" in margin
    renamed = criteria.problems("p", [_claim(statistic="gain2")], REGISTRY)
    assert renamed == ["c: statistic 'gain2' judged but not registered", "c: registered 'gain' not judged"]
    assert criteria.problems("p", [_claim()], {"claims": {}}) == ["c: not registered in config/criteria/p.yaml"]
    pattern = {"claims": {"c": {"fixed": "x", "criteria": {"*": [">", 0.0, 0.0]}}}}
    assert criteria.problems("p", [_claim(statistic="geometric-texture")], pattern) == []  # a name the data gives


def _unmet(interval):
    premise = Premise("a solved task", 0, 1, ">=", False, "the statistic needs one")
    return Claim("c", "s", None, 0.1, "all", PREMISE_NOT_MET, interval, premises=[premise])


def test_a_claim_whose_premise_is_not_met_may_lack_its_statistics_but_not_judge_others():
    """An unmet premise can leave a statistic undefined (focus_dllm's AUROC on copy alone): no interval, or fewer,
    is then no finding; a statistic it did judge must still be the registered one."""
    assert criteria.problems("p", [_unmet(DETERMINISTIC)], REGISTRY) == []
    fewer = {"claims": {"c": {"fixed": "x", "criteria": {"gain": [">", 0.0, 0.0], "auroc": [">", 0.5, 0.01]}}}}
    judged = _claim().interval
    assert criteria.problems("p", [_unmet(judged)], fewer) == []
    assert criteria.problems("p", [_claim()], fewer) == ["c: registered 'auroc' not judged"]  # judged: all of them
    moved = [replace(judged[0], threshold=0.05)]
    assert criteria.problems("p", [_unmet(moved)], fewer)[0].startswith("c: 'gain' judged > 0.05")


def test_results_computed_under_another_registry_fail_verify(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config" / "criteria").mkdir(parents=True)
    (tmp_path / "config" / "criteria" / "p.yaml").write_text(yaml.safe_dump(REGISTRY))
    folder = tmp_path / "results" / "quick" / "p"
    folder.mkdir(parents=True)
    (folder / "provenance.json").write_text(json.dumps({"criteria": criteria.digest("p")}))
    records = [_claim().record()]
    assert verify.registry_problems("p", folder, records) == []
    changed = REGISTRY | {"margin_why": "a margin added after the run"}
    (tmp_path / "config" / "criteria" / "p.yaml").write_text(yaml.safe_dump(changed))
    (line,) = verify.registry_problems("p", folder, records)
    assert line.startswith("config/criteria/p.yaml changed since these results were computed")
