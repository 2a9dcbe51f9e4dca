"""Inputs you can trust, through the workflow: every source file is a rule input, a changed byte reruns
its readers, targets request every table and figure, a failing job says why in one console line."""

from pathlib import Path

import pytest

from icml26.common.io import TMP_PREFIX
from icml26.common.registry import papers
from tests.conftest import ROOT, copy_repository, copy_with_own_data, dag_jobs, planned_rules, snakemake

pytestmark = pytest.mark.workflow
PAPERS = papers(ROOT)
QUICK = ("--configfile", "config/quick.yaml")
READERS = {  # one file of each offline folder -> a file made by the rule that reads it (quick scale)
    "metabric/metabric.h5": "data/quick/cox_subgroups/datasets/metabric.csv",
    "cmapss/RUL_FD001.txt": "data/quick/cox_subgroups/datasets/cmapss.csv",
    "adbench_classical/39_vertebral.npz": "data/quick/dvm_ad/datasets/39_vertebral.npz",
    "eeg_annotations/Seizures-list-PN00.txt": "data/quick/seizure_benchmark/seizure_statistics.csv",
    "szcore/results.json": "data/quick/seizure_benchmark/szcore/results.json",
}


@pytest.fixture(scope="module")
def with_own_data(tmp_path_factory):
    """A repository copy beside its own copy of ../shared/data (so bytes can be changed), with the rules that
    read the sources run once."""
    repo = copy_with_own_data(tmp_path_factory.mktemp("inputs"))
    snakemake(repo, *READERS.values(), "--cores", "2", *QUICK)  # targets first: --configfile takes several
    return repo


def test_every_file_read_outside_the_repository_is_an_input_in_a_registered_data_folder(with_own_data):
    jobs = dag_jobs(with_own_data, "--cores", "1", *QUICK)
    outside = {f for job in jobs for f in job["input"] if f.startswith("../")}
    for paper in PAPERS:
        read = {f for f in outside if any(f.startswith(folder.rstrip("/") + "/") for folder in paper.data)}
        assert all(read for _ in paper.data), f"{paper.slug}: registered data folders are never read"
        assert {Path(f).parent.as_posix() for f in read} <= {d.rstrip("/") for d in paper.data}, paper.slug
        outside -= read
    assert outside == set(), "files read from outside the repository that no paper registers under data:"
    assert {f"../shared/data/{name}" for name in READERS} <= {f for job in jobs for f in job["input"]}


@pytest.mark.parametrize("source", sorted(READERS))
def test_a_changed_byte_in_a_source_file_reruns_the_rule_that_reads_it(with_own_data, source):
    path = with_own_data.parent / "shared" / "data" / source
    original = path.read_bytes()
    assert "Nothing to be done" in snakemake(with_own_data, READERS[source], "-n", "--cores", "1", *QUICK).stdout
    path.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))
    try:
        planned = planned_rules(with_own_data, READERS[source], "--cores", "1", *QUICK)
    finally:
        path.write_bytes(original)
    assert planned, source


def test_a_failing_job_says_why_in_one_console_line_and_leaves_nothing(with_own_data):
    data = with_own_data.parent / "shared" / "data" / "metabric" / "metabric.h5"
    original = data.read_bytes()
    out = with_own_data / READERS["metabric/metabric.h5"]
    leftover = out.with_name(f"{TMP_PREFIX}{out.name}.k1ll3d.csv")  # what a SIGKILLed write leaves
    leftover.write_text("half a table")
    data.write_bytes(b"this is not HDF5" * 64)
    try:
        proc = snakemake(with_own_data, str(out.relative_to(with_own_data)), "--cores", "1", *QUICK, check=False)
    finally:
        data.write_bytes(original)
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("icml26: ")]
    assert proc.returncode != 0 and len(lines) == 1, proc.stderr[-3000:]
    assert lines[0].startswith("icml26: cox_subgroups_dataset failed: ../shared/data/metabric/metabric.h5: ")
    assert "contents differ from the file this project was built on" in lines[0]
    assert lines[0].endswith("removed results/quick/cox_subgroups/claims.json, which this run no longer supports "
                             "(git checkout restores a committed one)")  # fmt: skip
    assert not (with_own_data / "results" / "quick" / "cox_subgroups" / "claims.json").exists()
    assert not out.exists() and not leftover.exists()  # Snakemake removed the stale output, the job its leftover


def test_targets_request_every_table_and_figure_their_rules_write(tmp_path):
    repo = copy_repository(tmp_path / "icml26")
    jobs = dag_jobs(repo, *[paper.slug for paper in PAPERS], "--cores", "1", "--configfile", "config/smoke.yaml")
    for paper in PAPERS:
        target = next(job for job in jobs if job["rule"] == paper.slug)
        written = {
            f
            for job in jobs
            for f in job["output"]
            if f.startswith((f"results/smoke/{paper.slug}/tables/", f"results/smoke/{paper.slug}/figures/"))
        }
        assert written and written <= set(target["input"]), sorted(written - set(target["input"]))
