"""``make fetch PAPER=<slug>``: bring a paper's own models and data into the repository once, with checksums.

A paper's ``paper:`` section lists what its paper-scale run reads under ``fetch:`` (schema:
``workflow/schemas/fetch.schema.yaml``), one entry per folder::

    fetch:
      agent: {hub: Qwen/Qwen2.5-3B-Instruct, kind: model, revision: main, into: external/crl_bpt/agent,
              what: "the paper's agent"}

and points its config keys (``model.checkpoint``, ...) at the ``into`` folders. Fetching is a step of its own,
never part of a run (jobs set ``HF_HUB_OFFLINE=1``): each entry is downloaded with ``huggingface_hub``'s
``snapshot_download`` into a folder beside its target and renamed into place, and a manifest
``<into>.fetch.json`` records where it came from (repository, the revision asked for, the commit received) and
the sha256 of every file. A second fetch of a complete folder checks it against its manifest instead of
downloading; a changed or missing file is one line naming it. Where the repository has DVC, the folder is then
``dvc add``-ed, so ``dvc push``/``pull`` move it like the pipeline's own data.

Offline (no hub, as on a cluster without internet): ``--from FOLDER`` (``make fetch FROM=...``) copies each entry
from ``FOLDER/<name>`` instead, e.g. a copy of the model's repository made elsewhere; the manifest then says so.
Data that is not on the hub (an entry with ``source:``, where to download it, instead of ``hub:``) comes in that way
only: without ``FROM`` its fetch is one line saying where to get it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .io import temporary_sibling, write_json
from .sources import SourceError, fail

ROOT = Path(__file__).resolve().parents[3]  # this package's repository; `make fetch` works in its own folder
MANIFEST = ".fetch.json"  # <into>.fetch.json: the manifest beside each fetched folder


@dataclass(frozen=True)
class Entry:
    """One folder a paper's paper-scale run reads: a Hugging Face repository (model or data set) at a revision, or
    data from elsewhere (``source``: where to download it; ``hub`` None)."""

    name: str
    hub: str | None
    kind: str
    revision: str
    into: str
    what: str
    files: tuple[str, ...] = ()
    source: str | None = None

    @property
    def origin(self) -> str:
        return self.hub or self.source

    @property
    def described(self) -> str:
        """Where it comes from, as a log line says it: a hub repository "at" its revision; a source as it reads
        ("...: the 47 .npz files", revision "as downloaded") with the revision in parentheses."""
        return f"{self.hub} at {self.revision}" if self.hub else f"{self.source} ({self.revision})"

    @property
    def manifest(self) -> str:
        return self.into + MANIFEST


def entries(slug: str, scale: str = "paper", root: Path = ROOT) -> list[Entry]:
    """The ``fetch:`` entries of a paper's section at ``scale`` (validated like any config)."""
    from .config import paper_section, validate

    section = paper_section(root / "config" / "papers" / f"{slug}.yaml", scale, None)
    validate(section, root / "workflow" / "schemas" / f"{slug}.schema.yaml", prefix=slug)
    return [
        Entry(
            name,
            e.get("hub"),
            e["kind"],
            e["revision"],
            e["into"],
            e["what"],
            files=tuple(e.get("files", ())),
            source=e.get("source"),
        )  # fmt: skip
        for name, e in section.get("fetch", {}).items()
    ]


def file_hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (relative POSIX paths, sorted); the hub's cache folder left out."""
    found = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and ".cache" not in p.relative_to(folder).parts):
        found[path.relative_to(folder).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def check(entry: Entry, root: Path = ROOT) -> dict:
    """The manifest of a fetched entry, after checking every file it lists (one line naming the first that differs
    or is missing, and any file that is not in it)."""
    folder, manifest = root / entry.into, root / entry.manifest
    if not manifest.is_file() or not folder.is_dir():
        fail(folder, f"not fetched yet: run `make fetch PAPER=<paper>` ({entry.what})")
    problem = changed_since_fetch(entry.into, root, label=entry.name, remember=False)
    if problem:
        raise SourceError(problem)
    return json.loads(manifest.read_text())


CHECKED = ".fetch.checked.json"  # <into>.fetch.checked.json: each file's size and mtime when it last matched


def changed_since_fetch(into: str, root: Path = ROOT, *, label: str | None = None, remember: bool = True) -> str | None:
    """Why a fetched folder no longer matches its manifest (a file changed, missing or added since ``make fetch``),
    in one line, or None. Runs check before any job, so that a file edited after the fetch is never read as if
    fetched; ``remember``: a file whose size and modification time equal those it had when it last matched is not
    read again (``<into>.fetch.checked.json``, beside the manifest), so the check costs a stat per file."""
    folder, manifest = root / into, root / (into + MANIFEST)
    label = label or Path(into).name
    try:
        files = dict(json.loads(manifest.read_text())["files"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return (
            f"{manifest}: not a fetch manifest (JSON with a 'files' map of sha256): restore it from git, or move the "
            f"folder {into} and its manifest away and fetch again"
        )
    cache_file = root / (into + CHECKED)
    stamp_of_manifest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    seen: dict[str, list[int]] = {}
    if remember:
        try:
            cache = json.loads(cache_file.read_text())
            seen = cache["files"] if cache.get("manifest") == stamp_of_manifest else {}
        except (OSError, ValueError, KeyError, TypeError):
            seen = {}
    present = {
        p.relative_to(folder).as_posix(): p
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(folder).parts
    }
    checked = {}
    for name, digest in files.items():
        path = present.get(name)
        if path is None:
            return f"{folder / name}: missing from the fetched {label} (listed in {manifest.name})"
        stat = path.stat()
        stamp = [stat.st_size, stat.st_mtime_ns]
        if seen.get(name) != stamp and hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            return f"{folder / name}: contents differ from the fetched file ({manifest.name}); fetch again"
        checked[name] = stamp
    extra = sorted(present.keys() - files.keys())
    if extra:
        return f"{folder / extra[0]}: not part of the fetched {label} ({manifest.name} does not list it)"
    if remember and checked != seen:
        write_json(cache_file, {"manifest": stamp_of_manifest, "files": checked})
    return None


def _download(entry: Entry, into: Path) -> str:
    """Download the entry from the hub into ``into``; the commit received."""
    from huggingface_hub import HfApi, snapshot_download

    repo_type = "model" if entry.kind == "model" else "dataset"
    snapshot_download(
        repo_id=entry.hub,
        repo_type=repo_type,
        revision=entry.revision,
        local_dir=into,
        allow_patterns=list(entry.files) or None,
    )
    info = HfApi().repo_info(entry.hub, repo_type=repo_type, revision=entry.revision)
    return info.sha


def _downloaded(entry: Entry, into: Path) -> str:
    """:func:`_download`, its failure (no network, no such repository, a refused file) one line saying how to fetch
    offline instead."""
    try:
        return _download(entry, into)
    except Exception as error:  # huggingface_hub's and requests' many kinds: the user needs the gist and the way out
        gist = " ".join(str(error).split())[:200] or type(error).__name__
        fail(
            into.parent / entry.name,
            f"could not download {entry.hub} at {entry.revision} ({type(error).__name__}: {gist}); without the hub, "
            f"copy a local copy in: make fetch PAPER=<paper> FROM=<a folder holding {entry.name}/>",
        )


def _copy(entry: Entry, source: Path, into: Path) -> str:
    from .sources import SourceError, user_folder_problem

    folder = source / entry.name
    if not folder.is_dir():
        fail(folder, f"no such folder to fetch {entry.name} from ({entry.described})")
    problem = user_folder_problem(folder)  # a link out of it would be copied in, listed and `dvc add`-ed as data
    if problem:
        raise SourceError(f"make fetch FROM={source}: {problem}")
    shutil.copytree(folder, into, ignore=shutil.ignore_patterns(".cache", ".git"))
    return f"copied from {folder}"


def fetch(entry: Entry, *, source: Path | None = None, root: Path = ROOT, log=print) -> dict:
    """Bring one entry in (from the hub, or from ``source/<name>``) unless it is already complete; its manifest."""
    folder = root / entry.into
    if (root / entry.manifest).is_file() and folder.is_dir():
        record = check(entry, root)
        log(f"{entry.name}: {entry.into} is complete ({len(record['files'])} files as fetched); nothing to do")
        return record
    if folder.exists():
        fail(folder, "exists but was not fetched (no manifest beside it): move it away, or point the config at it")
    if entry.hub is None and source is None:
        fail(
            folder,
            f"{entry.name} is not on the Hugging Face hub: download it from {entry.source}, then "
            f"make fetch FROM=<a folder holding {entry.name}/> (copied in with checksums)",
        )
    tmp = temporary_sibling(folder)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.parent.mkdir(parents=True, exist_ok=True)
    log(f"{entry.name}: fetching {entry.described} into {entry.into} ...")
    try:
        commit = _copy(entry, source, tmp) if source is not None else _downloaded(entry, tmp)
        shutil.rmtree(tmp / ".cache", ignore_errors=True)
        record = {
            "hub": entry.origin,
            "kind": entry.kind,
            "revision": entry.revision,
            "received": commit,
            "files": file_hashes(tmp),
        }
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    tmp.rename(folder)
    write_json(root / entry.manifest, record)
    log(f"{entry.name}: {len(record['files'])} files, {entry.into} ({commit})")
    return record


def track(entry: Entry, root: Path = ROOT) -> None:
    """``dvc add`` the fetched folder where the repository has DVC (``<into>.dvc`` then names it)."""
    if (root / ".dvc").is_dir() and shutil.which("dvc"):
        subprocess.run(["dvc", "add", "--quiet", entry.into], cwd=root, check=True)


def run(slug: str, *, source: Path | None, root: Path = ROOT, dvc: bool = True) -> Iterator[dict]:
    found = entries(slug, root=root)
    if not found:
        print(f"{slug}: its paper scale reads nothing that needs fetching (its fetch: list is empty)")
    for entry in found:
        yield fetch(entry, source=source, root=root)
        if dvc:
            track(entry, root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="+", help="paper slugs (workflow/papers.yaml)")
    parser.add_argument("--from", dest="source", type=Path, help="copy each entry from FOLDER/<name> (offline)")
    parser.add_argument("--no-dvc", action="store_true", help="do not `dvc add` the fetched folders")
    args = parser.parse_args(argv)
    os.environ.pop("HF_HUB_OFFLINE", None)  # fetching is the one step that may reach the hub
    from .config import ConfigError
    from .registry import papers

    known = [p.slug for p in papers(Path.cwd())]
    unknown = [slug for slug in args.papers if slug not in known]
    if unknown:
        print(f"icml26 fetch: unknown paper {', '.join(unknown)}; registered: {', '.join(known)}", file=sys.stderr)
        return 2
    try:
        for slug in args.papers:  # into the repository it is called from (make's folder), as Snakemake reads it
            for _ in run(slug, source=args.source, root=Path.cwd(), dvc=not args.no_dvc):
                pass
    except (SourceError, ConfigError) as error:
        print(f"icml26 fetch: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
