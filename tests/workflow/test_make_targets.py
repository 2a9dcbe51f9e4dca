"""The Makefile's Snakemake targets put the paper before `--configfile`, which takes every word after it as a
config file (`make run PAPER=<slug>` read the slug as a config file until 2026-12-04), and `make fetch` needs a
paper."""

import shutil

import pytest

from tests.conftest import ROOT, run

pytestmark = pytest.mark.workflow


@pytest.mark.parametrize("target", ["run", "paper", "slurm", "pull"])
def test_the_paper_comes_before_the_config_files(target):
    commands = run(["make", "-n", target, "PAPER=ski_rental", "OVERLAYS=mine.yaml"], ROOT).stdout
    calls = [line for line in commands.splitlines() if "snakemake" in line and "--configfile" in line]
    assert calls, commands
    for line in calls:
        words = line.split()
        assert words.index("ski_rental") < words.index("--configfile"), line
        assert words[words.index("--configfile") + 1 :][:2] == [
            f"config/{'paper' if target == 'paper' else 'quick'}.yaml",
            "mine.yaml",
        ]


def test_fetch_names_what_it_needs():
    found = run(["make", "fetch"], ROOT, check=False)
    assert found.returncode != 0 and "make fetch PAPER=<slug>" in found.stdout
    assert "--from /somewhere" in run(["make", "-n", "fetch", "PAPER=crl_bpt", "FROM=/somewhere"], ROOT).stdout


def test_a_paper_alone_is_registered_alone(tmp_path):
    """`make paper PAPER=crl_bpt` after fetching crl_bpt's models alone must not stop on another paper's
    unfetched model: with PAPER, only that paper is registered (its summary goes to results/<scale>/subset/)."""
    for target in ("run", "slurm", "pull"):
        commands = run(["make", "-n", target, "PAPER=crl_bpt", "SCALE=paper"], ROOT).stdout
        calls = [line for line in commands.splitlines() if "snakemake" in line and "--configfile" in line]
        assert calls and all("--config 'papers=[crl_bpt]'" in line for line in calls), commands
    from tests.conftest import copy_repository, fetch_replicas, snakemake

    repo = copy_repository(tmp_path / "icml26")
    fetch_replicas(repo)
    shutil.rmtree(repo / "external" / "complex_mcp")  # another paper's model not fetched
    alone = snakemake(repo, "crl_bpt", "-n", "--configfile", "config/paper.yaml", "--config", "papers=[crl_bpt]")
    assert alone.returncode == 0
    every = snakemake(repo, "crl_bpt", "-n", "--configfile", "config/paper.yaml", check=False)
    assert every.returncode != 0 and "complex_mcp.llm.checkpoint" in every.stdout + every.stderr


def test_smoke_verify_and_report_take_the_paper_and_the_scale():
    """Every target a user runs passes PAPER= and SCALE= through (issue 67: each exercised, a dry run at least)."""
    smoke = run(["make", "-n", "smoke", "PAPER=ski_rental"], ROOT).stdout.splitlines()
    calls = [line for line in smoke if "snakemake ski_rental" in line]
    assert calls and all("--configfile config/smoke.yaml" in c and "papers=[ski_rental]" in c for c in calls)
    assert "forkserver run" in calls[0]  # the smoke tour goes through the fork server
    verify = run(["make", "-n", "verify", "PAPER=ski_rental", "SCALE=smoke"], ROOT).stdout
    assert "-m icml26.common.verify --scale smoke ski_rental" in verify
    report = run(["make", "-n", "report", "SCALE=paper"], ROOT).stdout
    assert "--configfile config/paper.yaml" in report and "--report results/paper/report.html" in report


def test_report_registers_only_the_papers_run_at_the_scale(tmp_path):
    """`make report SCALE=paper` read every paper's config, so an unfetched model of a paper never run at paper
    scale stopped it: it registers the papers with a verdict there (PAPER= one), and says so when there is none."""
    for slug in ("ski_rental", "coins"):
        (tmp_path / "results" / "paper" / slug).mkdir(parents=True)
        (tmp_path / "results" / "paper" / slug / "claims.json").write_text("{}")
    make = ["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(tmp_path)]
    assert "--config 'papers=[coins,ski_rental]'" in run([*make, "-n", "report", "SCALE=paper"], ROOT).stdout
    alone = run([*make, "-n", "report", "SCALE=paper", "PAPER=coins"], ROOT).stdout
    assert "--config 'papers=[coins]'" in alone
    none = run([*make, "report", "SCALE=smoke"], ROOT, check=False)
    assert none.returncode == 2 and "no paper has results at smoke scale" in none.stdout


def test_make_help_lists_every_target_with_what_it_does():
    import re

    phony = re.search(r"^\.PHONY: (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    listed = {line.split()[1]: line for line in run(["make", "help"], ROOT).stdout.splitlines() if line.strip()}
    assert set(phony) <= set(listed), sorted(set(phony) - set(listed))
    assert all(len(line.split()) > 2 for line in listed.values())  # each with its line of text
