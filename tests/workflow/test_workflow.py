"""The real Snakemake DAG: dry runs, bad input, smoke run, determinism, resumption, report."""

import os
import signal
import subprocess
import time

import pytest

from tests.conftest import (
    BIN,
    GUARD,
    copy_repository,
    fetch_replicas,
    planned_after_edit,
    snakemake,
    tool_env,
    tree_digest,
)

pytestmark = pytest.mark.workflow
SMOKE = ("--configfile", "config/smoke.yaml")


@pytest.mark.parametrize("overlay", [(), ("--configfile", "config/paper.yaml")])  # smoke: really run in test_papers.py
def test_dry_run_of_the_whole_dag(repo, overlay):
    if overlay:
        fetch_replicas(repo)  # the paper sections read the papers' own models: `make fetch` first
    out = snakemake(repo, "-n", "--cores", "2", *overlay).stdout
    assert "ski_rental_verdict" in out and "summary" in out


def test_invalid_config_fails_before_any_job_with_the_key_named(repo):
    (repo / "bad.yaml").write_text("ski_rental:\n  lambdas: [0.5, 2]\n  B_values: [1]\n")
    proc = snakemake(repo, "ski_rental", "--cores", "1", "--configfile", "bad.yaml", check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "ski_rental.lambdas[1]" in text and "ski_rental.B_values[0]" in text
    assert "Traceback" not in text
    assert not (repo / "data").exists() and not (repo / "results" / "quick" / "ski_rental" / "tables").exists()


def test_a_key_given_twice_in_an_overlay_stops_a_plain_snakemake_run_too(repo):
    """`make run` checked overlays for repeated keys, a plain `snakemake --configfile` did not (issue 79): the run
    went on with the last of the two values."""
    (repo / "twice.yaml").write_text("ski_rental:\n  B_values: [20]\n  B_values: [50]\n")
    proc = snakemake(repo, "-n", "ski_rental", "--configfile", "config/smoke.yaml", "twice.yaml", check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Traceback" not in text
    line = next(line for line in text.splitlines() if line.startswith("icml26:"))
    assert line.startswith("icml26: invalid config file: ") and line.endswith(
        "twice.yaml, line 3: 'B_values' is given twice in one mapping (also line 2); YAML keeps the last without a "
        "word, so say it once"
    )


def test_invalid_scale_is_named(repo):
    (repo / "bad.yaml").write_text("scale: huge\n")
    proc = snakemake(repo, "-n", "--configfile", "bad.yaml", check=False)
    assert proc.returncode != 0 and "scale: 'huge' is not one of" in proc.stdout + proc.stderr


def test_a_rule_naming_a_function_that_does_not_exist_is_named_before_any_job(repo):
    rules = repo / "workflow" / "rules" / "ski_rental.smk"
    rules.write_text(rules.read_text().replace('"icml26.ski_rental.rules:verdict"', '"icml26.ski_rental.rules:nope"'))
    proc = snakemake(repo, "-n", "--cores", "1", *SMOKE, check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "rule ski_rental_verdict: rules.py defines no 'nope'" in text
    assert "Traceback" not in text


def test_a_subset_of_papers_builds_alone_and_an_unknown_one_is_named(repo):
    out = snakemake(repo, "-n", "--cores", "1", *SMOKE, "--config", "papers=[massart_drift]").stdout
    assert "massart_drift_verdict" in out and "summary" in out and "ski_rental_" not in out
    (repo / "bad.yaml").write_text("papers: [nope]\n")
    proc = snakemake(repo, "-n", "--configfile", "bad.yaml", check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "papers names nope, not registered" in text and "Traceback" not in text


def test_failing_job_is_reported_and_leaves_no_output(smoke_run, tmp_path):
    repo = copy_repository(tmp_path / "failing")
    predictions = repo / "data" / "smoke" / "ski_rental" / "predictions.csv"
    snakemake(
        repo,
        "results/smoke/ski_rental/tables/oracles.csv",
        str(predictions.relative_to(repo)),  # oracles: to keep
        "--cores",
        "1",
        *SMOKE,
    )
    predictions.write_text("this is not a predictions table\n")
    proc = snakemake(repo, "ski_rental", "--cores", "1", *SMOKE, check=False)
    assert proc.returncode != 0
    assert "Error in rule ski_rental_policies" in proc.stdout + proc.stderr
    assert not (repo / "data" / "smoke" / "ski_rental" / "policies.csv").exists()
    log = (repo / "logs" / "smoke" / "ski_rental" / "policies.log").read_text()
    assert "Traceback" in log  # the whole story is in the rule's log, not on the console


def test_smoke_run_writes_every_output(smoke_run):
    out = smoke_run / "results" / "smoke" / "ski_rental"
    for name in (
        "claims.json",
        "metrics.json",
        "tables/consistency_robustness.csv",
        "tables/error_sweep.csv",
        "tables/oracles.csv",
        "figures/pareto.png",
        "figures/pareto.pdf",
        "figures/error_sweep.png",
        "figures/error_sweep.pdf",
    ):
        assert (out / name).stat().st_size > 0, name
    for rule in ("predictions", "policies", "evaluate", "verdict"):
        assert (smoke_run / "logs" / "smoke" / "ski_rental" / f"{rule}.log").exists()
        assert (smoke_run / "benchmarks" / "smoke" / "ski_rental" / f"{rule}.tsv").exists()


def test_no_op_rebuild_has_nothing_to_do(smoke_run):
    out = snakemake(smoke_run, "ski_rental", "-n", "--cores", "2", *SMOKE).stdout
    assert "Nothing to be done" in out


def test_changing_a_parameter_reruns_only_its_dependents(smoke_run):
    (smoke_run / "lam.yaml").write_text("ski_rental:\n  figures: {lam: 0.25, R: 2.0}\n")
    # several overlays go after one --configfile (a second --configfile flag replaces the first)
    out = snakemake(smoke_run, "ski_rental", "-n", "--cores", "2", *SMOKE, "lam.yaml").stdout
    assert "rule ski_rental_figures:" in out
    for unaffected in ("ski_rental_policies", "ski_rental_evaluate", "ski_rental_verdict"):
        assert f"rule {unaffected}:" not in out


def test_editing_a_plotting_module_reruns_only_that_paper_s_figure_jobs(smoke_run):
    plots = smoke_run / "src" / "icml26" / "ski_rental" / "plots.py"
    planned = planned_after_edit(smoke_run, plots, "ski_rental")
    assert planned == {"ski_rental_figures", "ski_rental"}
    verdict = smoke_run / "src" / "icml26" / "ski_rental" / "verdict.py"
    # a new verdict gets a new provenance record
    assert planned_after_edit(smoke_run, verdict, "ski_rental") == {"ski_rental_verdict", "provenance", "ski_rental"}
    assert "Nothing to be done" in snakemake(smoke_run, "ski_rental", "-n", "--cores", "2", *SMOKE).stdout


def test_html_report(smoke_run):
    # (the summary, which needs every paper's verdict, is tested in test_papers.py on its full smoke run)
    snakemake(smoke_run, "ski_rental", "--cores", "1", *SMOKE, "--report", "report.html")
    html = (smoke_run / "report.html").read_text(errors="replace")
    assert "pareto.png" in html and "error_sweep.png" in html


def test_report_works_after_building_a_subset_of_papers(smoke_run):
    # only ski_rental is built there: no summary.md, one paper of many (the all-papers report: test_papers.py)
    snakemake(smoke_run, "--cores", "1", *SMOKE, "--report", "subset_report.html")
    assert "pareto.png" in (smoke_run / "subset_report.html").read_text(errors="replace")


def test_interrupted_run_resumes_to_identical_outputs(smoke_run, tmp_path):
    repo = copy_repository(tmp_path / "interrupted")
    proc = subprocess.Popen(
        [str(BIN / "snakemake"), "ski_rental", "--cores", "1", *SMOKE],
        cwd=repo,
        env=tool_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    marker = repo / "logs" / "smoke" / "ski_rental" / "policies.log"
    deadline = time.time() + GUARD  # a guard against a hang, not a time limit
    while not marker.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C would
    proc.wait(timeout=GUARD)
    partial = repo / "data" / "smoke" / "ski_rental" / "policies.csv"
    assert (
        not partial.exists() or partial.read_bytes() == (smoke_run / "data/smoke/ski_rental/policies.csv").read_bytes()
    )
    snakemake(repo, "ski_rental", "--cores", "2", *SMOKE, "--rerun-incomplete")
    assert tree_digest(repo / "results" / "smoke" / "ski_rental") == tree_digest(
        smoke_run / "results" / "smoke" / "ski_rental"
    )
    leftovers = [p for p in (repo / "data").rglob(".*") if p.is_file()] + [
        p for p in (repo / "results").rglob(".*") if p.is_file()
    ]
    assert leftovers == []
