"""make verify: flipped verdicts and numbers outside a declared tolerance fail; moves within it are listed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from icml26.common import verify
from icml26.common.tolerance import Tolerance
from tests.conftest import ROOT

CLAIMS = [
    {"id": "a", "holds": True, "headline": "x 1.0", "measured": {"x": 1.0, "method": "KNN"}},
    {"id": "b", "holds": False, "headline": "y", "measured": 0.5},
]
METRICS = {"loss": {"train": 0.25, "test": 0.3}, "rows": 100}


def _files(claims=CLAIMS, metrics=METRICS):
    return {"claims.json": json.loads(json.dumps(claims)), "metrics.json": json.loads(json.dumps(metrics))}


def test_flatten_keys_claims_by_id_and_masks_the_numbers_of_quoting_prose():
    flat = verify.flatten(CLAIMS)
    assert flat["a/measured/x"] == 1.0 and flat["b/holds"] is False
    assert flat["a/headline"] == "x #" and flat["b/headline"] == "y"
    assert verify.masked("AUROC +0.022 [-0.003, +0.049] on N16, 1,200 runs, 1e-3") == "AUROC # [#, #] on N#, # runs, #"


def test_identical_results_pass_and_count_every_value():
    report = verify.compare("nonesuch", _files(), _files())
    assert report.ok and report.verdicts == 2 and report.identical == 12 and not report.within


def test_reworded_prose_fails_but_a_headline_whose_numbers_moved_does_not(monkeypatch):
    """Numbers are compared with their tolerances; the words around them, and a statement, must not change."""
    monkeypatch.setattr(verify, "tolerances", lambda slug: [("claims/a/measured/*", Tolerance(abs=0.1))])
    moved = _files()
    moved["claims.json"][0]["headline"], moved["claims.json"][0]["measured"]["x"] = "x 1.05", 1.05
    assert verify.compare("nonesuch", _files(), moved).ok
    reworded = _files()
    reworded["claims.json"][0]["headline"] = "x 1.0, a clear win"
    assert verify.compare("nonesuch", _files(), reworded).outside == ["claims/a/headline: 'x #' -> 'x #, a clear win'"]
    with_statement = _files(claims=[CLAIMS[0] | {"statement": "x above 0.5"}])
    restated = _files(claims=[CLAIMS[0] | {"statement": "x above 0.4"}])
    assert verify.compare("nonesuch", with_statement, restated).outside == [
        "claims/a/statement: 'x above 0.5' -> 'x above 0.4'"
    ]


def test_a_result_file_edited_after_its_run_fails_verify(tmp_path):
    from icml26.common import provenance

    (tmp_path / "claims.json").write_text(json.dumps(CLAIMS))
    (tmp_path / "metrics.json").write_text(json.dumps(METRICS))
    record = {"outputs": provenance.output_hashes(tmp_path / "claims.json", tmp_path / "metrics.json")}
    (tmp_path / "provenance.json").write_text(json.dumps(record))
    assert verify.edited_files(tmp_path) == []
    edited = json.loads(json.dumps(CLAIMS))
    edited[1]["holds"] = True
    (tmp_path / "claims.json").write_text(json.dumps(edited))
    found = verify.edited_files(tmp_path)
    assert len(found) == 1 and "claims.json: not the file its run wrote" in found[0]
    report = verify.PaperReport("nonesuch", edited=found)
    assert not report.ok and report.lines()[2].startswith("  EDITED: ")
    (tmp_path / "provenance.json").write_text("{}")  # written before the hashes: nothing to check
    assert verify.edited_files(tmp_path) == []


def test_a_flipped_verdict_fails_whatever_the_numbers():
    flipped = _files()
    flipped["claims.json"][1]["holds"] = True
    report = verify.compare("nonesuch", _files(), flipped)
    assert not report.ok and report.flipped == ["b: does not hold -> holds"]
    word = {True: "holds", False: "does not hold"}
    states = _files(claims=[{k: v for k, v in c.items() if k != "holds"} | {"state": word[c["holds"]]} for c in CLAIMS])
    inconclusive = json.loads(json.dumps(states))
    inconclusive["claims.json"][0]["state"] = "inconclusive"
    assert verify.compare("nonesuch", states, inconclusive).flipped == ["a: holds -> inconclusive"]
    assert verify.compare("nonesuch", _files(), inconclusive).flipped == ["a: holds -> inconclusive"]  # old vs new


def test_a_moved_number_passes_only_within_its_declared_tolerance(monkeypatch):
    moved = _files()
    moved["metrics.json"]["loss"]["test"] = 0.303  # 1 % up
    assert not verify.compare("nonesuch", _files(), moved).ok  # undeclared: exact to 1e-9
    monkeypatch.setattr(verify, "tolerances", lambda slug: [("metrics/loss/*", Tolerance(rel=0.02, why="seeds"))])
    report = verify.compare("nonesuch", _files(), moved)
    assert report.ok and len(report.within) == 1 and "rel 0.02: seeds" in report.within[0]
    monkeypatch.setattr(verify, "tolerances", lambda slug: [("metrics/loss/*", Tolerance(rel=0.005))])
    assert not verify.compare("nonesuch", _files(), moved).ok


def test_a_changed_label_or_a_missing_number_fails():
    relabelled = _files()
    relabelled["claims.json"][0]["measured"]["method"] = "LOF"
    assert verify.compare("nonesuch", _files(), relabelled).outside == ["claims/a/measured/method: 'KNN' -> 'LOF'"]
    shorter = _files(metrics={"loss": {"train": 0.25}, "rows": 100})
    assert verify.compare("nonesuch", _files(), shorter).outside == ["metrics/loss/test: no longer written"]


@pytest.mark.parametrize("old,new,ok", [(0.0, 1e-12, True), (0.0, 1e-9, False), (float("nan"), float("nan"), True)])
def test_absolute_tolerance_for_round_off_quantities(old, new, ok):
    assert Tolerance(abs=1e-10).allows(old, new) is ok


def test_the_committed_results_verify_against_themselves():
    done = subprocess.run(
        [sys.executable, "-m", "icml26.common.verify", "ski_rental", "--against", str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "ski_rental: OK" in done.stdout
    unknown = subprocess.run([sys.executable, "-m", "icml26.common.verify", "nonesuch"], cwd=ROOT, capture_output=True)
    assert unknown.returncode == 2 and b"unknown paper(s) nonesuch" in unknown.stderr


def test_provenance_names_the_blas_kernel_the_pins_and_the_commit(tmp_path):
    from importlib import metadata

    from icml26.common import machine, provenance

    info = provenance.collect("smoke", "ski_rental")
    assert info["libraries"]["pandas"] == metadata.version("pandas") == "2.3.3"
    assert "lifelines" in info["libraries"] and "pytest" not in info["libraries"]  # extras are not pins
    assert any(b["user_api"] == "blas" and b.get("architecture") for b in info["blas"])
    assert machine.git_state(tmp_path) == {"commit": None, "dirty": None}  # not a checkout
    outer = tmp_path / "outer"
    (outer / "copy").mkdir(parents=True)
    git = ["git", "-C", str(outer), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "outer"], check=True)
    assert machine.git_state(outer)["commit"] is not None
    assert machine.git_state(outer / "copy") == {"commit": None, "dirty": None}  # a copy inside another repo
    line = provenance.describe({**info, "git": {"commit": "0123456789abcdef", "dirty": True}})
    assert "commit 0123456789 (uncommitted changes)" in line and info["blas"][0]["architecture"] in line


def test_an_interval_moves_with_the_tolerance_of_the_number_it_bounds(monkeypatch):
    interval = {"statistic": "auroc", "estimate": 0.55, "low": 0.4, "high": 0.7, "threshold": 0.5, "side": ">",
                "method": "t over 3 seeds", "level": 0.95, "margin": None, "dof": 2}  # fmt: skip
    claim = {"id": "a", "state": "inconclusive", "measured": {"auroc": 0.55}, "interval": [interval]}
    moved = json.loads(json.dumps(claim))
    moved["measured"]["auroc"] = moved["interval"][0]["estimate"] = 0.56
    moved["interval"][0]["low"] = 0.41
    monkeypatch.setattr(verify, "tolerances", lambda slug: [("claims/a/measured/*", Tolerance(abs=0.02, why="seeds"))])
    report = verify.compare("nonesuch", _files(claims=[claim]), _files(claims=[moved]))
    assert report.ok and len(report.within) == 3  # the measured number, the estimate and the low end
    moved["interval"][0]["low"] = 0.45
    assert not verify.compare("nonesuch", _files(claims=[claim]), _files(claims=[moved])).ok


def test_every_committed_result_names_the_clean_commit_it_was_computed_at():
    """Issue 66: a committed result from a dirty tree (or from no checkout) cannot be traced to the code that made
    it; every paper's quick provenance names a full commit and a clean tree."""
    from icml26.common.registry import papers

    for paper in papers(ROOT):
        record = json.loads((ROOT / "results" / "quick" / paper.slug / "provenance.json").read_text())
        commit, dirty = record["git"]["commit"], record["git"]["dirty"]
        assert commit and len(commit) == 40 and dirty is False, f"{paper.slug}: computed at {commit}, dirty {dirty}"


def test_verify_at_paper_scale_checks_the_papers_run_there_and_names_the_others(capsys, monkeypatch):
    """`make verify SCALE=paper` compares the papers with committed paper-scale results and names the rest, rather
    than stopping at the first paper never run at that scale."""
    monkeypatch.chdir(ROOT)
    assert verify.main(["--scale", "paper"]) == 0
    out = capsys.readouterr().out
    assert "ski_rental: OK" in out and "not verified, no committed paper-scale results in HEAD:" in out
    assert "text_feedback_rl" in out.split("not verified")[1].splitlines()[0]  # a GPU paper, never run here


def test_a_rerun_that_reproduces_the_committed_bytes_keeps_their_provenance_byte_for_byte(tmp_path, monkeypatch):
    """The same output bytes under the same criteria: the committed record stays as it is, at the same commit, a
    later one (a fresh clone's HEAD is always later than the commit its results name) or on another machine with
    other libraries, so `git status` stays clean after a rerun; other output bytes or another criteria file write
    a new record."""
    from icml26.common import provenance

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "results" / "quick" / "p"
    folder.mkdir(parents=True)
    (folder / "claims.json").write_text("[]\n")
    (folder / "metrics.json").write_text("{}\n")
    fixed = {"paper": "p", "scale": "quick", "cpu": "x", "git": {"commit": "abc", "dirty": False}, "criteria": "c1"}
    stamps = iter(f"2026-12-0{day}T00:00:00+00:00" for day in range(1, 7))
    monkeypatch.setattr(provenance, "collect_written", lambda: next(stamps))
    monkeypatch.setattr(provenance, "collect", lambda scale, slug: fixed | {"written": provenance.collect_written()})
    args = ("results/quick/p/claims.json", "results/quick/p/metrics.json", "results/quick/p/provenance.json")
    provenance.write(*args, scale="quick", slug="p")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "run"], check=True)
    committed = (folder / "provenance.json").read_bytes()
    record = lambda: json.loads((folder / "provenance.json").read_text())  # noqa: E731
    provenance.write(*args, scale="quick", slug="p")  # a clean rerun on the same machine
    assert (folder / "provenance.json").read_bytes() == committed
    fixed |= {"git": {"commit": "def", "dirty": False}, "cpu": "y", "libraries": {"numpy": "9.9"}}
    provenance.write(*args, scale="quick", slug="p")  # the same bytes at a later commit, elsewhere
    assert (folder / "provenance.json").read_bytes() == committed
    fixed["criteria"] = "c2"  # judged under another criteria file: a new record, this run's
    provenance.write(*args, scale="quick", slug="p")
    assert record()["criteria"] == "c2" and record()["git"]["commit"] == "def" and record()["cpu"] == "y"
    fixed["criteria"] = "c1"
    (folder / "claims.json").write_text('[{"id": "c"}]\n')  # another verdict: a new record, dated now
    provenance.write(*args, scale="quick", slug="p")
    assert record()["written"] != json.loads(committed)["written"]


def test_the_provenance_line_tells_a_reproducing_rerun_from_no_rerun(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = Path("results/quick/p")
    folder.mkdir(parents=True)
    record = {"cpu": "AMD EPYC", "cores": 2, "blas": [], "python": "3.11.7", "git": {"commit": "a" * 40}}
    (folder / "provenance.json").write_text(json.dumps(record))
    reference = tmp_path / "other"
    (reference / folder).mkdir(parents=True)
    (reference / folder / "provenance.json").write_text(json.dumps(record))
    assert verify.provenance_line(folder, str(reference)).endswith("the committed run: nothing here was rerun")
    (folder / "tables").mkdir()  # a run here that reproduced the committed bytes kept their record
    assert verify.provenance_line(folder, str(reference)).endswith(
        "reproducing the committed run's bytes (their record kept)"
    )


def test_a_paper_counts_as_rerun_only_where_its_tables_or_figures_exist(tmp_path):
    folder = tmp_path / "results" / "quick" / "p"
    folder.mkdir(parents=True)
    (folder / "claims.json").write_text("[]")  # a fresh clone: the committed files alone
    assert not verify.rerun_here(folder)
    (folder / "tables").mkdir()
    assert verify.rerun_here(folder)


def test_a_claims_file_that_is_not_json_is_one_line_naming_it(tmp_path, monkeypatch, capsys):
    import shutil

    monkeypatch.chdir(tmp_path)
    (tmp_path / "workflow").mkdir()
    shutil.copyfile(ROOT / "workflow" / "papers.yaml", tmp_path / "workflow" / "papers.yaml")
    folder = tmp_path / "results" / "quick" / "ski_rental"
    folder.mkdir(parents=True)
    for name in ("claims.json", "metrics.json"):
        shutil.copyfile(ROOT / "results" / "quick" / "ski_rental" / name, folder / name)
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "run"], check=True)
    (folder / "claims.json").write_text("garbage{")
    assert verify.main(["ski_rental"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "results/quick/ski_rental/claims.json: not valid JSON" in err
