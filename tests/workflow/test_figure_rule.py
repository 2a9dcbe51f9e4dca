"""The figure rule (docs/ARCHITECTURE.md, "Figures show their claim"): every evidence figure of a committed quick
claim is declared in its paper's ``plots.CRITERIA`` with the verdict constants it draws, imported from the paper's
``verdict`` module (the same objects, so figure and verdict cannot disagree) and used in the drawing code, or with
a sentence saying why it draws none."""

import ast
import importlib
import json
from pathlib import Path

import pytest

from icml26.common.registry import papers

ROOT = Path(__file__).resolve().parents[2]
SLUGS = [p.slug for p in papers(ROOT)]


def evidence_figures(slug: str) -> set[str]:
    claims = json.loads((ROOT / "results" / "quick" / slug / "claims.json").read_text(encoding="utf-8"))
    return {Path(e).stem for c in claims for e in c["evidence"] if e.startswith("figures/") and e.endswith(".png")}


def _declares_criteria(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CRITERIA" for t in node.targets)


def used_names(source: str) -> set[str]:
    """Names the module's code reads, outside the CRITERIA declaration itself."""
    body = [node for node in ast.parse(source).body if not _declares_criteria(node)]
    return {n.id for node in body for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def problems(slug: str) -> list[str]:
    plots = importlib.import_module(f"icml26.{slug}.plots")
    verdict = importlib.import_module(f"icml26.{slug}.verdict")
    criteria = getattr(plots, "CRITERIA", None)
    if not isinstance(criteria, dict):
        return [f"{slug}: plots.CRITERIA is missing"]
    found = [
        f"{slug}: evidence figure {stem}.png is not in plots.CRITERIA"
        for stem in sorted(evidence_figures(slug) - set(criteria))
    ]
    used = used_names(Path(plots.__file__).read_text(encoding="utf-8"))
    for stem, drawn in criteria.items():
        if isinstance(drawn, str):
            if len(drawn.split()) < 8:
                found.append(f"{slug}: {stem}: say why the figure draws no verdict constant")
            continue
        for name in drawn:
            if not hasattr(verdict, name):
                found.append(f"{slug}: {stem}: {name} is not in {slug}.verdict")
            elif getattr(plots, name, None) is not getattr(verdict, name):
                found.append(f"{slug}: {stem}: plots does not import {name} from its verdict")
            elif name not in used:
                found.append(f"{slug}: {stem}: {name} is imported but never drawn")
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_every_evidence_figure_draws_its_claims_criterion_from_the_verdict(slug):
    assert problems(slug) == []


def test_the_figure_rule_catches_a_copied_threshold_an_unused_one_and_an_undeclared_figure(monkeypatch):
    from icml26.coins import plots, verdict

    monkeypatch.setattr(plots, "MOST", float("0.5"))  # a copy typed into the plots, not the verdict's object
    monkeypatch.setattr(plots, "CRITERIA", {"kill_rate": ("MOST", "RESAMPLES", "NOPE")})
    monkeypatch.setattr(plots, "RESAMPLES", verdict.RESAMPLES, raising=False)  # imported, but the code never reads it
    found = problems("coins")
    assert "coins: evidence figure levels.png is not in plots.CRITERIA" in found
    assert "coins: kill_rate: plots does not import MOST from its verdict" in found
    assert "coins: kill_rate: RESAMPLES is imported but never drawn" in found
    assert "coins: kill_rate: NOPE is not in coins.verdict" in found
    monkeypatch.setattr(plots, "CRITERIA", {"kill_rate": "none", "levels": "none"})
    assert "coins: levels: say why the figure draws no verdict constant" in problems("coins")
