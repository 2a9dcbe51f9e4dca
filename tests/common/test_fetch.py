"""`make fetch`: a paper's own models come in once, with a manifest of checksums, from the hub or (offline, as here)
a local folder; a changed, missing or extra file is one line naming it; a config naming an unfetched folder says
how to fetch it. The hub itself cannot be reached here: its call is checked with huggingface_hub stood in."""

import json
import shutil

import pytest

pytest.importorskip("transformers")

from icml26.common import fetch
from icml26.common.config import ConfigError, changed_fetched_problems, check_settings, paper_section
from icml26.common.lm import replicas
from icml26.common.registry import papers
from icml26.common.sources import SourceError
from tests.conftest import ROOT

ENTRY = fetch.Entry("policy", "Qwen/Qwen2.5-1.5B-Instruct", "model", "main", "external/paper/policy", "the policy")


@pytest.fixture
def source(tmp_path):
    """A local copy of the model's repository, as an offline user would have it: FOLDER/<entry name>."""
    replicas.causal_lm(tmp_path / "source" / "policy", ["A<B", "OK"], "qwen2")
    return tmp_path / "source"


def test_fetch_copies_the_folder_and_records_every_file(source, tmp_path):
    root = tmp_path / "repo"
    record = fetch.fetch(ENTRY, source=source, root=root, log=lambda line: None)
    folder = root / ENTRY.into
    assert sorted(record["files"]) == sorted(p.name for p in folder.iterdir())
    assert json.loads((root / "external/paper/policy.fetch.json").read_text()) == record
    assert record["hub"] == ENTRY.hub and record["received"].startswith("copied from")
    assert record["files"]["config.json"] == fetch.file_hashes(source / "policy")["config.json"]
    lines = []
    assert fetch.fetch(ENTRY, source=None, root=root, log=lines.append) == record  # complete: no download
    assert lines == ["policy: external/paper/policy is complete (5 files as fetched); nothing to do"]


def test_a_changed_missing_or_extra_file_is_named(source, tmp_path):
    root = tmp_path / "repo"
    fetch.fetch(ENTRY, source=source, root=root, log=lambda line: None)
    folder = root / ENTRY.into
    (folder / "config.json").write_text("{}")
    with pytest.raises(SourceError, match=r"policy/config.json: contents differ from the fetched file"):
        fetch.check(ENTRY, root)
    (folder / "config.json").unlink()
    with pytest.raises(SourceError, match=r"policy/config.json: missing from the fetched policy"):
        fetch.check(ENTRY, root)
    shutil.copy(source / "policy" / "config.json", folder / "config.json")
    (folder / "pytorch_model.bin").write_bytes(b"pickle")
    with pytest.raises(SourceError, match=r"policy/pytorch_model.bin: not part of the fetched policy"):
        fetch.check(ENTRY, root)


def test_a_missing_source_or_an_unfetched_folder_in_the_way_is_one_line(source, tmp_path):
    with pytest.raises(SourceError, match=r"nowhere/policy: no such folder to fetch policy from"):
        fetch.fetch(ENTRY, source=tmp_path / "nowhere", root=tmp_path / "repo", log=lambda line: None)
    assert not (tmp_path / "repo" / ENTRY.into).exists()  # nothing half-written
    (tmp_path / "repo" / ENTRY.into).mkdir(parents=True)
    with pytest.raises(SourceError, match="exists but was not fetched"):
        fetch.fetch(ENTRY, source=source, root=tmp_path / "repo", log=lambda line: None)


def test_the_hub_is_asked_for_the_repository_at_its_revision_and_the_commit_is_recorded(tmp_path, monkeypatch):
    import huggingface_hub

    asked = {}

    def snapshot_download(**kwargs):
        asked.update(kwargs)
        replicas.causal_lm(kwargs["local_dir"], ["A"], "gpt2")
        (kwargs["local_dir"] / ".cache").mkdir()  # the hub's own bookkeeping, not part of the model

    class Api:
        def repo_info(self, repo_id, repo_type, revision):
            return type("Info", (), {"sha": "0123abcd" * 5})()

    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    monkeypatch.setattr(huggingface_hub, "HfApi", Api)
    entry = fetch.Entry("lm", "openai-community/gpt2", "model", "main", "external/p/lm", "GPT-2", ("*.json",))
    record = fetch.fetch(entry, root=tmp_path, log=lambda line: None)
    assert (asked["repo_id"], asked["revision"], asked["allow_patterns"]) == (
        "openai-community/gpt2",
        "main",
        ["*.json"],
    )
    assert record["received"] == "0123abcd" * 5 and ".cache" not in str(record["files"])


def test_data_that_is_not_on_the_hub_comes_in_from_a_folder_or_says_where_to_get_it(tmp_path):
    entry = fetch.Entry("eeg", None, "dataset", "as downloaded", "external/paper/eeg", "EEG", source="PhysioNet")
    with pytest.raises(SourceError, match=r"eeg: eeg is not on the Hugging Face hub: download it from PhysioNet, then"):
        fetch.fetch(entry, root=tmp_path / "repo", log=lambda line: None)
    (tmp_path / "from" / "eeg").mkdir(parents=True)
    (tmp_path / "from" / "eeg" / "a.edf").write_bytes(b"0")
    lines = []
    record = fetch.fetch(entry, source=tmp_path / "from", root=tmp_path / "repo", log=lines.append)
    assert record["hub"] == "PhysioNet" and list(record["files"]) == ["a.edf"]
    # a source's revision reads as a note ("PhysioNet at as downloaded" before), a hub's as "at <revision>"
    assert lines[0] == "eeg: fetching PhysioNet (as downloaded) into external/paper/eeg ..."
    assert ENTRY.described == "Qwen/Qwen2.5-1.5B-Instruct at main"


PAPERS_THAT_FETCH = [
    "text_feedback_rl",
    "generalization_spectrum",
    "crl_bpt",
    "complex_mcp",
    "focus_dllm",
    "cox_subgroups",
    "seizure_benchmark",
    "dvm_ad",
    "manifold_microscope",
]


@pytest.mark.parametrize("slug", PAPERS_THAT_FETCH)
def test_the_papers_paper_section_names_its_model_and_reads_what_it_fetches(slug):
    import importlib

    from icml26.common.config import load_yaml

    entries = fetch.entries(slug)
    assert entries and all(e.into.startswith(f"external/{slug}/") and "/" in e.origin for e in entries)
    reader = getattr(importlib.import_module(f"icml26.{slug}"), "FETCH_OVERLAY", None)  # the paper section is offline
    overlay = load_yaml((ROOT / reader).read_text())[slug] if reader else None
    section = paper_section(ROOT / "config" / "papers" / f"{slug}.yaml", "paper", overlay)
    read = {e.into for e in entries} & set(json.dumps(section).replace('"', " ").split())
    assert read == {e.into for e in entries}  # every fetched folder is read by a config key
    with pytest.raises(ConfigError, match=rf"has not been fetched: run `make fetch PAPER={slug}`"):
        check_settings(slug, section)
    assert not fetch.entries(slug, scale="quick")  # below paper scale nothing is fetched


def test_every_registered_papers_fetch_list_validates():
    for paper in papers(ROOT):
        assert isinstance(fetch.entries(paper.slug), list)


@pytest.mark.parametrize("make", ["file link out", "folder link out", "loop", "dangling", "named pipe"])
def test_fetch_from_a_folder_with_a_link_out_a_loop_or_a_pipe_is_refused_and_copies_nothing(source, tmp_path, make):
    """A link to a system file was copied into external/, listed in the manifest and `dvc add`-ed (issue 79)."""
    import os

    folder = source / "policy"
    bad = folder / "extra"
    if make == "file link out":
        bad.symlink_to("/etc/passwd")
    elif make == "folder link out":
        bad.symlink_to("/etc")
    elif make == "loop":
        bad.symlink_to(folder / "extra")
    elif make == "dangling":
        bad.symlink_to(tmp_path / "gone")
    else:
        os.mkfifo(bad)
    expected = {"loop": "leads nowhere or in a loop", "dangling": "leads nowhere or in a loop"}.get(
        make, "named pipe" if make == "named pipe" else "leads out of"
    )
    root = tmp_path / "repo"
    with pytest.raises(SourceError, match=rf"make fetch FROM=.*policy/extra.*{expected}"):
        fetch.fetch(ENTRY, source=source, root=root, log=lambda line: None)
    assert not (root / ENTRY.into).exists() and not (root / ENTRY.manifest).exists()
    assert not list((root / "external" / "paper").glob("*")) if (root / "external" / "paper").exists() else True


def test_a_link_inside_the_folder_is_read_as_the_file_it_names(source, tmp_path):
    (source / "policy" / "alias.json").symlink_to(source / "policy" / "config.json")
    record = fetch.fetch(ENTRY, source=source, root=tmp_path / "repo", log=lambda line: None)
    assert record["files"]["alias.json"] == record["files"]["config.json"]


def test_an_unknown_paper_is_one_line_naming_the_registered_ones(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert fetch.main(["ski_rentl"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown paper ski_rentl; registered: " in err and "ski_rental" in err


@pytest.mark.parametrize("manifest", ["not json {", '{"hub": "x"}', '["files"]'], ids=["garbage", "no files", "a list"])
def test_a_manifest_that_is_not_one_is_one_line_naming_it(source, tmp_path, manifest):
    root = tmp_path / "repo"
    fetch.fetch(ENTRY, source=source, root=root, log=lambda line: None)
    (root / ENTRY.manifest).write_text(manifest)
    with pytest.raises(SourceError, match=r"policy.fetch.json: not a fetch manifest"):
        fetch.check(ENTRY, root)


def test_a_download_that_fails_offline_says_how_to_fetch_without_the_hub(tmp_path, monkeypatch):
    def offline(entry, into):
        raise OSError("[Errno 101] Network is unreachable\n  (and a hundred lines of retries)")

    monkeypatch.setattr(fetch, "_download", offline)
    with pytest.raises(SourceError) as caught:
        fetch.fetch(ENTRY, source=None, root=tmp_path / "repo", log=lambda line: None)
    message = str(caught.value)
    assert "could not download Qwen/Qwen2.5-1.5B-Instruct at main (OSError: [Errno 101]" in message
    assert "FROM=<a folder holding policy/>" in message and "\n" not in message
    assert not (tmp_path / "repo" / ENTRY.into).exists()  # nothing half-written


def test_a_file_changed_after_the_fetch_stops_the_run_before_any_job(source, tmp_path, monkeypatch):
    """The settings check (every Snakemake start) compares a fetched folder with its manifest: an edited file is one
    line naming the setting and the file. Files whose size and mtime are those of their last match are not read."""
    root = tmp_path / "repo"
    fetch.fetch(ENTRY, source=source, root=root, log=lambda line: None)
    monkeypatch.chdir(root)
    section = {"fetch": {"policy": {"into": ENTRY.into, "hub": ENTRY.hub}}, "model": {"policy": ENTRY.into}}
    assert list(changed_fetched_problems("paper", section)) == []  # as fetched; each file's size and mtime remembered
    cache = json.loads((root / (ENTRY.into + fetch.CHECKED)).read_text())
    assert sorted(cache["files"]) == sorted(json.loads((root / ENTRY.manifest).read_text())["files"])
    read = []
    monkeypatch.setattr(fetch.Path, "read_bytes", lambda self, _r=fetch.Path.read_bytes: read.append(self) or _r(self))
    assert list(changed_fetched_problems("paper", section)) == []
    assert [p.name for p in read] == [ENTRY.name + fetch.MANIFEST]  # the manifest alone, no fetched file
    config = root / ENTRY.into / "config.json"
    config.write_text(config.read_text().replace("{", "{ ", 1))  # same folder, edited bytes (size changes)
    with pytest.raises(ConfigError, match=r"paper\.model\.policy: .*policy/config\.json: contents differ"):
        check_settings("paper", section)
    (root / ENTRY.into / "extra.bin").write_bytes(b"x")
    config.unlink()
    with pytest.raises(ConfigError, match=r"config\.json: missing from the fetched policy"):
        check_settings("paper", section)
