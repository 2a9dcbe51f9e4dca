"""The paper registry: every registered paper has all its parts, and the files generated from the registry
(dvc.yaml, the README's papers table) are current."""

import json
import shutil

import pytest

from icml26.common import docs, verdict_changes
from icml26.common.registry import Paper, dvc_yaml, missing_parts, papers
from tests.conftest import ROOT


@pytest.mark.parametrize("paper", papers(ROOT), ids=lambda p: p.slug)
def test_every_registered_paper_has_every_part(paper):
    assert missing_parts(ROOT, paper) == []
    assert all((ROOT / folder).is_dir() for folder in paper.data if (ROOT.parent / "shared").is_dir())


def test_a_paper_registered_without_its_parts_is_named(tmp_path):
    for part in Paper("ski_rental").parts().values():
        source, target = ROOT / part, tmp_path / part
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    assert missing_parts(tmp_path, Paper("ski_rental")) == []
    (tmp_path / "workflow/schemas/ski_rental.schema.yaml").unlink()
    (tmp_path / "docs/papers/ski_rental.md").unlink()
    config = tmp_path / "config/papers/ski_rental.yaml"
    config.write_text(config.read_text().replace("\nsmoke:", "\nsmokey:"))
    assert missing_parts(tmp_path, Paper("ski_rental")) == [
        "schema (workflow/schemas/ski_rental.schema.yaml)",
        "docs page (docs/papers/ski_rental.md)",
        "smoke config (config/papers/ski_rental.yaml: smoke:)",
    ]


def test_registry_rejects_unknown_keys(tmp_path):
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "papers.yaml").write_text("ski_rental: {dta: [x]}\n")
    with pytest.raises(ValueError, match="dta"):
        papers(tmp_path)


def test_dvc_yaml_is_generated_from_the_registry():
    assert (ROOT / "dvc.yaml").read_text() == dvc_yaml(ROOT), "run `make dvc-stages` and commit dvc.yaml"
    text = dvc_yaml(ROOT)
    for paper in papers(ROOT):
        assert f"  {paper.slug}:\n" in text and f"config/papers/{paper.slug}.yaml" in text
        assert all(f"        - {folder}\n" in text for folder in paper.data)
        assert (f"results/${{item}}/{paper.slug}/timing:" in text) == paper.timing


def test_readme_papers_table_is_generated_from_measured_files():
    readme = (ROOT / "README.md").read_text()
    assert docs.with_table(readme, docs.papers_table(ROOT)) == readme, "run `make docs` and commit README.md"
    block = docs.measured_block(ROOT)
    assert docs.with_table(readme, block, docs.MEASURED_BEGIN, docs.MEASURED_END) == readme, "run `make docs`"
    assert len(readme.splitlines()) <= 250


def test_papers_table_total_names_the_measured_make_run_beside_the_sum_of_the_rows(tmp_path):
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "papers.yaml").write_text("p: {}\nq: {}\n")
    for slug in ("p", "q"):
        page = tmp_path / "docs" / "papers" / f"{slug}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("---\nreproduces: x\nstatus: complete\n---\n")
    results = tmp_path / "benchmarks" / "RESULTS.md"
    results.parent.mkdir()
    rows = ["| p quick run | 600.0 | <= 20 min |", "| q quick run | 1200.0 | <= 20 min | 2026-12-05, Z80, 2 CPUs |"]
    results.write_text("\n".join(rows))
    assert docs.measured_seconds(results) == {"p quick run": 600.0, "q quick run": 1200.0}
    assert "**30 min 0 s, one after another** (`make run`)" in docs.papers_table(tmp_path)
    results.write_text("\n".join([*rows, f"| {docs.MAKE_RUN} | 1500.0 | <= 3 h | 2026-12-05, Z80, 2 CPUs |"]))
    assert "**25 min 0 s measured; 30 min 0 s, one after another** (`make run`)" in docs.papers_table(tmp_path)


def test_measured_figures_are_copied_with_their_machine_and_kept_without_a_run(tmp_path):
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "papers.yaml").write_text("p: {timing: true}\n")
    timing = tmp_path / "results" / "quick" / "p" / "timing"
    (timing / "figures").mkdir(parents=True)
    (timing / "figures" / "speed.png").write_bytes(b"png")
    (timing / "machine.json").write_text('{"cpu": "Z80", "cores": 1, "python": "3.11.7"}')
    claim = {"id": "fast", "holds": False, "headline": "0.5x", "evidence": ["timing/t.csv", "timing/figures/speed.png"]}
    (timing / "claims.json").write_text(json.dumps([claim]))
    record = docs.copy_measured(tmp_path, "p")
    assert record == {
        "machine": "Z80, 1 cores, Python 3.11.7",
        "figures": {"timing/figures/speed.png": {"id": "fast", "holds": False, "headline": "0.5x"}},
    }
    assert (tmp_path / "docs/papers/figures/p/measured/speed.png").read_bytes() == b"png"
    shutil.rmtree(tmp_path / "results")
    assert docs.copy_measured(tmp_path, "p") is None and docs.measured_record(tmp_path, "p") == record
    section = docs.figures_section(tmp_path, "p")
    assert "on Z80, 1 cores" in section and "](figures/p/measured/speed.png)" in section
    assert "`fast` (does not hold): 0.5x" in section
    assert "](docs/papers/figures/p/measured/speed.png)" in docs.measured_block(tmp_path)


@pytest.mark.parametrize("paper", papers(ROOT), ids=lambda p: p.slug)
def test_committed_measured_figures_exist_and_name_a_registered_measured_paper(paper):
    record = docs.measured_record(ROOT, paper.slug)
    assert record is None or paper.timing
    for path in (record or {}).get("figures", {}):
        assert (ROOT / "docs" / "papers" / "figures" / paper.slug / "measured" / path.split("/")[-1]).is_file()


def test_durations_and_verdict_counts(tmp_path):
    assert docs.duration(15.8) == "16 s" and docs.duration(129.5) == "2 min 10 s"
    assert docs.duration(9000) == "2 h 30 min"
    claims = tmp_path / "claims.json"
    base = {
        "statement": "s",
        "paper_value": 1,
        "measured": 1,
        "comparator": "<=",
        "premises_note": "none",
        "headline": "h",
        "evidence": ["tables/t.csv"],
        "note": "n",
    }
    states = ["holds", "holds", "does not hold", "inconclusive", "inconclusive", "not evaluated"]
    records = [base | {"id": str(i), "state": s} for i, s in enumerate(states)]
    records[3]["interval"] = records[4]["interval"] = [
        {"statistic": "x", "estimate": 1, "low": 0, "high": 2, "threshold": 1.5, "side": ">", "method": "t"}
    ]
    records[1]["by_construction"] = "a scripted agent"
    claims.write_text(json.dumps(records))
    assert docs.verdict_count(claims) == (
        "1 of 6 hold; 1 does not hold, 2 inconclusive, 1 not evaluated, 1 by construction"
    )
    page = tmp_path / "p.md"
    page.write_text("---\nreproduces: x\n---\n# p\n")
    with pytest.raises(ValueError, match="status"):
        docs.front_matter(page)


@pytest.mark.parametrize("paper", papers(ROOT), ids=lambda p: p.slug)
def test_docs_page_shows_every_evidence_figure_of_the_committed_verdicts(paper):
    page = (ROOT / "docs" / "papers" / f"{paper.slug}.md").read_text()
    section = docs.figures_section(ROOT, paper.slug)
    assert docs.with_table(page, section, docs.FIGURES_BEGIN, docs.FIGURES_END) == page, "run `make docs`"
    criteria = docs.criteria_section(ROOT, paper.slug)  # the registered criteria and margins, beside the verdicts
    assert docs.with_table(page, criteria, docs.CRITERIA_BEGIN, docs.CRITERIA_END) == page, "run `make docs`"
    abstract = docs.abstract_section(ROOT, paper.slug)  # the abstract's claims, beside the verdicts judging them
    assert docs.with_table(page, abstract, docs.ABSTRACT_BEGIN, docs.ABSTRACT_END) == page, "run `make docs`"
    for path in docs.evidence_figures(ROOT, paper.slug):
        shown = ROOT / "docs" / "papers" / "figures" / paper.slug / path.split("/")[-1]
        assert shown.is_file(), f"{shown} missing: run `make docs` after the quick run"
        assert f"](figures/{paper.slug}/{shown.name})" in page


def test_the_committed_summary_is_current_and_links_the_committed_copies(tmp_path):
    from icml26.common.summary import build_summary

    claims = sorted((ROOT / "results" / "quick").glob("*/claims.json"))
    out = tmp_path / "summary.md"
    build_summary(
        claims,
        out,
        scale="quick",
        link=lambda paper, path: docs.committed_link(paper, path, ROOT),
        changes=[ROOT / verdict_changes.PATH],
        not_run=[ROOT / "results" / "paper" / "not_run.yaml"],
        root=ROOT,
        abstracts=sorted((ROOT / "config" / "abstract_claims").glob("*.yaml")),
        measured=sorted((ROOT / "docs" / "papers" / "figures").glob("*/measured.json")),
    )
    assert out.read_text() == (ROOT / "results" / "quick" / "summary.md").read_text(), "run `make docs`"
    for paper in papers(ROOT):
        for path in docs.evidence_tables(ROOT, paper.slug):
            copy = ROOT / "docs" / "papers" / "tables" / paper.slug / path.split("/")[-1]
            assert copy.is_file(), f"{copy} missing: run `make docs` after the quick run"


def test_evidence_without_a_committed_copy_is_named_without_a_link(tmp_path):
    (tmp_path / "docs" / "papers" / "figures" / "p").mkdir(parents=True)
    (tmp_path / "docs" / "papers" / "figures" / "p" / "a.png").write_bytes(b"png")
    assert docs.committed_link("p", "figures/a.png", tmp_path) == "../../docs/papers/figures/p/a.png"
    assert docs.committed_link("p", "tables/big.csv", tmp_path) is None  # over the budget: not copied
    big = tmp_path / "results" / "quick" / "p" / "tables"
    big.mkdir(parents=True)
    (big / "big.csv").write_bytes(b"x" * (docs.TABLE_BUDGET + 1))
    (big / "small.csv").write_bytes(b"x")
    claims = [{"id": "c", "evidence": ["tables/big.csv", "tables/small.csv", "figures/a.png"]}]
    (tmp_path / "results" / "quick" / "p" / "claims.json").write_text(json.dumps(claims))
    assert docs.evidence_tables(tmp_path, "p") == ["tables/small.csv"]
    assert [c.name for c in docs.copy_tables(tmp_path, "p")] == ["small.csv"]
