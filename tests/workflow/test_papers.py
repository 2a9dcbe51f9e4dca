"""Every registered paper (workflow/papers.yaml): its smoke DAG runs, is complete and is byte-identical on rerun.

All papers run in one Snakemake invocation (jobs of different papers share the two cores); every job's
call is recorded and replayed in one process in a second directory (icml26.common.replay), and each
paper's test then only compares files. What a paper must produce is read from the DAG itself: after the
run, `snakemake -n` has nothing left to do for it.
"""

import json
import re
import statistics

import pytest

from icml26.common.claims import from_record, setting
from icml26.common.registry import papers
from icml26.common.replay import RECORD_ENV
from tests.conftest import (
    ROOT,
    copy_repository,
    dag_jobs,
    planned_after_edit,
    planned_rules,
    run,
    snakemake,
    tool_env,
    tree_digest,
)

pytestmark = pytest.mark.workflow
PAPERS = [paper.slug for paper in papers(ROOT)]
SMOKE = ("--configfile", "config/smoke.yaml")


def smoke_seconds() -> dict[str, float]:
    """Each paper's smoke run in seconds as last measured (benchmarks/RESULTS.md), to balance the halves:
    through the fork server, as the suite runs it, where that was measured."""
    table = (ROOT / "benchmarks" / "RESULTS.md").read_text()
    seconds = {}
    for warm in ("", ", fork server"):
        rows = re.findall(rf"^\| (\w+) smoke run{warm} \| ([\d.]+) \|", table, flags=re.MULTILINE)
        seconds.update({slug: float(s) for slug, s in rows})
    return seconds


def balanced_halves(slugs: list[str], cost: dict[str, float]) -> list[list[str]]:
    """Two groups of about equal measured cost (longest first, each to the lighter group; unmeasured papers
    count as the median)."""
    default = statistics.median(cost.values()) if cost else 1.0
    halves, loads = [[], []], [0.0, 0.0]
    for slug in sorted(slugs, key=lambda s: (-cost.get(s, default), s)):
        lighter = loads.index(min(loads))
        halves[lighter].append(slug)
        loads[lighter] += cost.get(slug, default)
    return [sorted(half) for half in halves]


# Two smoke runs of half the papers each (the config's `papers` subset, with its own summary and report), so
# two xdist workers build them side by side (tests/conftest.py hands out each half as one unit).
HALVES = balanced_halves(PAPERS, smoke_seconds())
HALF_OF = {slug: index for index, half in enumerate(HALVES) for slug in half}


def smoke(half: int) -> tuple[str, ...]:
    return (*SMOKE, "--config", f"papers=[{', '.join(HALVES[half])}]")


def per_paper(items, key=lambda item: item):
    """Parametrize ``(smoke_runs, paper)`` with each paper's half."""
    return pytest.mark.parametrize(
        "smoke_runs, paper",
        [pytest.param(HALF_OF[key(item)], item, id=f"half{HALF_OF[key(item)]}-{key(item)}") for item in items],
        indirect=["smoke_runs"],
        scope="module",
    )  # module: one smoke run per half, not one per test


per_half = pytest.mark.parametrize(
    "smoke_runs", [pytest.param(h, id=f"half{h}") for h in range(len(HALVES))], indirect=True, scope="module"
)


@pytest.fixture(scope="module")
def smoke_runs(request, tmp_path_factory):
    """One half of the papers and their summary at smoke scale, run by Snakemake in one fresh directory and
    replayed from its recorded calls in a second (half the cost of a second Snakemake run), the HTML
    report of the first, and the rules a dry run of the first still plans (one dry run for the half, not one
    per paper): ``(first, second, half, pending)``."""
    half = request.param
    first = copy_repository(tmp_path_factory.mktemp(f"papers_{half}_a") / "icml26")
    calls = first.parent / "calls.jsonl"
    snakemake(first, "--cores", "2", *smoke(half), env={**tool_env(), RECORD_ENV: str(calls)})
    second = copy_repository(tmp_path_factory.mktemp(f"papers_{half}_b") / "icml26")
    run(["python", "-m", "icml26.common.replay", str(calls)], second)
    snakemake(first, "--cores", "1", *smoke(half), "--report", "report.html")
    return first, second, half, planned_rules(first, "--cores", "1", *smoke(half))


def test_the_halves_cover_every_registered_paper_once_and_balance_the_measured_cost():
    assert sorted(HALVES[0] + HALVES[1]) == sorted(PAPERS) and not set(HALVES[0]) & set(HALVES[1])
    assert balanced_halves(["a", "b", "c", "d"], {"a": 10, "b": 6, "c": 5, "d": 1}) == [["a", "d"], ["b", "c"]]
    assert balanced_halves(["x", "new"], {"x": 3.0}) == [["new"], ["x"]]  # unmeasured: the median (3.0)


@per_paper(PAPERS)
def test_smoke_run_is_complete_and_byte_identical_in_two_directories(smoke_runs, paper):
    first, second, _, pending = smoke_runs
    assert [rule for rule in pending if rule == paper or rule.startswith(f"{paper}_")] == []
    out = first / "results" / "smoke" / paper
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {"claims.json", "metrics.json"} <= {p.name for p in files}
    assert [p for p in files if p.stat().st_size == 0] == []
    assert (out / "figures").is_dir() and (out / "tables").is_dir()
    digests = [
        tree_digest(repo / "results" / "smoke" / paper, repo / "data" / "smoke" / paper) for repo in (first, second)
    ]
    assert digests[0] == digests[1]
    html = (first / "report.html").read_text(errors="replace")
    assert [p.name for p in (out / "figures").glob("*.png") if p.name not in html] == []


@per_half
def test_report_opens_on_the_summary_of_verdicts(smoke_runs):
    first, _, half, _ = smoke_runs
    html = (first / "report.html").read_text(errors="replace")
    assert "Claim verdicts at smoke scale" in html
    for paper in HALVES[half]:
        claims = json.loads((first / "results" / "smoke" / paper / "claims.json").read_text())
        assert all(claim["id"] in html for claim in claims), paper


@per_paper(PAPERS)
def test_every_claim_has_a_headline_and_existing_evidence(smoke_runs, paper):
    out = smoke_runs[0] / "results" / "smoke" / paper
    for claim in json.loads((out / "claims.json").read_text()):
        assert claim["headline"].strip(), claim["id"]
        assert claim["evidence"] and all((out / path).is_file() for path in claim["evidence"]), claim["id"]


@per_paper([p for p in papers(ROOT) if p.timing], key=lambda p: p.slug)
def test_papers_registered_with_timing_write_it(smoke_runs, paper):
    assert any((smoke_runs[0] / "results" / "smoke" / paper.slug / "timing").rglob("*.csv"))


@per_half
def test_summary_lists_every_paper_s_verdicts(smoke_runs):
    summary = (smoke_runs[0] / "results" / "smoke" / "subset" / "summary.md").read_text()  # a subset run's own
    assert not (smoke_runs[0] / "results" / "smoke" / "summary.md").exists()  # the all-papers one left alone
    assert all(f"## {paper}\n" not in summary for paper in HALVES[1 - smoke_runs[2]])  # the subset only
    for paper in HALVES[smoke_runs[2]]:
        claims = json.loads((smoke_runs[0] / "results" / "smoke" / paper / "claims.json").read_text())
        kind = setting([from_record(c) for c in claims])  # "stand-in" or "paper's" (the substitution)
        assert f"| [{paper}](#{paper}) | {kind} | {len(claims)} |" in summary and f"## {paper}\n" in summary, paper
        assert all(f"| {claim['id']} | " in summary for claim in claims)
    assert "{" not in summary  # headlines, not JSON
    folder = smoke_runs[0] / "results" / "smoke" / "subset"
    links = re.findall(r"\]\(([^)#][^)]*)\)", summary)
    assert links and all((folder / link).exists() for link in links)  # evidence links from one folder down


def _downstream(jobs: list[dict], rules: set[str]) -> set[str]:
    """The rules of ``rules``' jobs and of every job that consumes their outputs, transitively."""
    found, changed = set(rules), True
    while changed:
        made = {f for job in jobs if job["rule"] in found for f in job["output"]}
        more = {job["rule"] for job in jobs if made & set(job["input"])} - found
        found, changed = found | more, bool(more)
    return found


@per_half
def test_a_lost_table_or_figure_is_rebuilt_with_only_what_depends_on_it(smoke_runs):
    repo, _, half, _ = smoke_runs
    jobs = dag_jobs(repo, "--cores", "1", *smoke(half))
    lost = []
    for paper in HALVES[half]:
        out = repo / "results" / "smoke" / paper
        lost += [min((out / "tables").glob("*.csv")), min((out / "figures").glob("*.png"))]
    makers = {job["rule"] for job in jobs if {str(p.relative_to(repo)) for p in lost} & set(job["output"])}
    for path in lost:
        path.rename(path.with_name(path.name + ".lost"))  # rename keeps the file's time for the restore
    try:
        planned = planned_rules(repo, "--cores", "1", *smoke(half))
    finally:
        for path in lost:
            path.with_name(path.name + ".lost").rename(path)
    assert len(makers) >= len(HALVES[half]) and makers <= planned
    assert planned <= _downstream(jobs, makers), planned - _downstream(jobs, makers)
    assert "Nothing to be done" in snakemake(repo, "-n", "--cores", "1", *smoke(half)).stdout


@per_half
def test_a_deleted_intermediate_is_rebuilt_with_everything_after_it(smoke_runs):
    """Snakemake skips a job whose outputs exist even when a produced input was deleted; results must never outlive
    the run they summarise (issue 53): each paper's deleted intermediate is planned again, with its consumers."""
    repo, _, half, _ = smoke_runs
    jobs = dag_jobs(repo, "--cores", "1", *smoke(half))
    produced = {f: job["rule"] for job in jobs for f in job["output"]}
    consumed = {f for job in jobs for f in job["input"]}
    deleted, makers = [], set()
    for paper in HALVES[half]:
        inter = sorted(f for f in produced.keys() & consumed if f.startswith(f"data/smoke/{paper}/"))
        assert inter, paper
        deleted.append(repo / inter[0])
        makers.add(produced[inter[0]])
    for path in deleted:
        path.rename(path.with_name(path.name + ".lost"))
    try:
        planned = planned_rules(repo, "--cores", "1", *smoke(half))
    finally:
        for path in deleted:
            path.with_name(path.name + ".lost").rename(path)
    assert makers <= planned, makers - planned
    assert planned <= _downstream(jobs, makers) | set(HALVES[half]) | {"all"}, planned - _downstream(jobs, makers)
    assert "Nothing to be done" in snakemake(repo, "-n", "--cores", "1", *smoke(half)).stdout


@per_half
def test_editing_the_shared_figure_module_reruns_only_figure_jobs(smoke_runs):
    repo, _, half, _ = smoke_runs
    planned = planned_after_edit(repo, repo / "src" / "icml26" / "common" / "figures.py", *smoke(half)[2:]) - {"all"}
    assert planned and all(rule.endswith("_figures") or rule in HALVES[half] for rule in planned), planned
    drawn = {rule.removesuffix("_figures").removesuffix("_timing") for rule in planned if rule.endswith("_figures")}
    assert drawn == set(HALVES[half])  # <slug>_figures, and <slug>_timing_figures for measured outputs
    assert "Nothing to be done" in snakemake(repo, "-n", "--cores", "2", *smoke(half)).stdout
