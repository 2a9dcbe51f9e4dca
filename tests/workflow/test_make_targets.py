"""The Makefile's Snakemake targets put the paper before `--configfile`, which takes every word after it as a
config file (`make run PAPER=<slug>` read the slug as a config file until 2026-12-04), and `make fetch` needs a
paper."""

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
