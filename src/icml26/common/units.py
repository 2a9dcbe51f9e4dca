"""Resumable paper-scale runs: the finished jobs of a long step, committed and reused by content.

A paper-scale run can outlast a session (dvm_ad's 43 sets x 3 seeds x 28 detectors, annealed_langevin's particle
runs at d = 1024). The steps the registry names under ``units:`` (``workflow/papers.yaml``) keep, at paper scale,
a copy of each finished job's outputs in ``results/paper/<slug>/units/<rule>/<key>/`` (git-tracked), where the key
is the sha256 of everything the job's outputs follow from: the rule, its params, the bytes of every data input (a
rule input under ``src/`` that is not Python among them: see :func:`is_code`), and
the code the rule function executes, counted without comments, docstrings and blank lines (``codedeps.code_text``,
since 2026-12-07): every other source file it reaches (``codedeps.function_sources``
without the runner: the job runner, this module among its files, calls the function and does not change what it
computes, so an edit to the runner leaves the kept jobs valid, while Snakemake still reruns on it), and of its own
module only the part it can run (``codedeps.function_part``: a verdict added to the same ``rules.py`` leaves a
day's particle runs valid). A later run, in any checkout, whose job has
the same key copies the committed outputs instead of computing them again and says so in one line; a changed
parameter, input byte or line of the code that computes gives another key, so nothing stale is ever reused.
Rerunning a committed unit gives the same bytes (same config, same outputs on CPU), which is what makes the copy
equivalent to the computation.

This module is part of every rule's code (the runner imports it), so it imports only what the runner's other
modules already do, plus the small ``machine`` and ``codedeps``.

Each unit's ``unit.json`` records the commit (and whether the tree was clean), machine and time it was computed
at; the paper's ``provenance.json`` lists the commits its reused units came from. When the key's definition
changes, ``python -m icml26.common.unit_keys rekey`` recomputes each kept unit's key from the code at its own commit.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

RECORD = "unit.json"
SCALES = ("paper",)  # the scales whose runs can outlast a session; below them every job is computed


def folder(scale: str, slug: str) -> Path:
    """Where a paper's units live (relative to the repository root, the working directory of jobs)."""
    return Path("results", scale, slug, "units")


def unit_rules(slug: str, registry: str | Path = Path("workflow", "papers.yaml")) -> set[str]:
    """The rule names the registry makes resumable for ``slug`` (its ``units:`` steps; read here as plain YAML, not
    through ``icml26.common.registry``, whose imports would become every rule's code)."""
    import yaml

    entry = (yaml.safe_load(Path(registry).read_text(encoding="utf-8")) or {}).get(slug) or {}
    return {f"{slug}_{step}" for step in entry.get("units", ())}


def digest_path(path: Path) -> str:
    """The sha256 of a file's bytes (a folder's: of its files' names and bytes); a Python file's, of its code
    without comments and docstrings (``codedeps.code_text``), so prose edits leave the kept jobs valid."""
    from .codedeps import code_text
    from .sources import sha256

    if path.suffix == ".py" and path.is_file():
        return hashlib.sha256(code_text(path.read_text(encoding="utf-8")).encode()).hexdigest()
    if path.is_dir():
        inner = {p.relative_to(path).as_posix(): sha256(p) for p in sorted(path.rglob("*")) if p.is_file()}
        return hashlib.sha256(json.dumps(inner, sort_keys=True).encode()).hexdigest()
    return sha256(path)


SOURCE = Path("src")  # the package's source root, relative to the repository root (where jobs run)


def code_digests(func: str, src: Path = SOURCE) -> dict[str, str]:
    """The sha256 of the code ``module:function`` executes, without the runner's: each file it reaches, by path
    (relative to the repository root), except its own module, which counts by the part the function can run
    (``codedeps.function_part``, labelled ``<path>:<function>``)."""
    from .codedeps import code_text, function_part, function_sources, parse_module

    src = src.resolve()
    module_name, _, name = func.partition(":")
    own = parse_module(module_name, src).path
    digests = {}
    for path in function_sources(func, src, with_runner=False):
        label = str(path.relative_to(src.parent))
        if path == own:
            digests[f"{label}:{name}"] = hashlib.sha256(code_text(function_part(func, src)).encode()).hexdigest()
        else:
            digests[label] = digest_path(path)
    return digests


def content_key(rule: str, func: str, params: dict[str, Any], digests: dict[str, str]) -> str:
    """The sha256 naming a job: its rule, function, params (as JSON sees them) and what it reads (label -> sha256)."""
    blob = json.dumps({"rule": rule, "func": func, "params": params, "inputs": digests}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def is_code(label: str) -> bool:
    """A Python file under ``src/`` (a label of :func:`code_digests` may end in ``:<function>``): code, counted by
    what the function reaches. Any other input counts by its bytes, a file under ``src/`` among them: coins' Coq
    prelude and gold specs are what its check jobs prove with, and a key without them reused stale outcomes."""
    path = Path(label.partition(":")[0])
    return path.is_relative_to(SOURCE) and path.suffix == ".py"


def key(rule: str, func: str, params: dict[str, Any], inputs: list[str]) -> tuple[str, dict[str, str]]:
    """The job's content key, and the sha256 of each data input and piece of code it covers. ``inputs`` are the
    rule's inputs; the Python files among them (which include the runner's) give way to :func:`code_digests`."""
    data = sorted({str(p) for p in inputs if not is_code(str(p))})
    digests = {p: digest_path(Path(p)) for p in data} | (code_digests(func) if func else {})
    return content_key(rule, func, params, digests), digests


def recomputed(record: dict[str, Any], src: Path = SOURCE) -> tuple[str, dict[str, str]]:
    """The key, and its digests, that a kept unit's job gets with the sources under ``src``: the record's rule,
    function, params and data-input digests as recorded, its code and the other files under ``src/`` it read
    digested afresh."""
    data = {
        label: digest_path(src.parent / label) if Path(label).is_relative_to(SOURCE) else digest
        for label, digest in record["inputs"].items()
        if not is_code(label)
    }
    digests = data | code_digests(record["func"], src)
    return content_key(record["rule"], record["func"], record["params"], digests), digests


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """Params as JSON sees them (Snakemake hands lists and dicts in its own containers)."""
    return json.loads(json.dumps(params, sort_keys=True, default=str))


class Unit:
    """One job of a resumable step: where its committed copy would be, and how to reuse or record it."""

    def __init__(
        self, rule: str, scale: str, slug: str, func: str, params: dict[str, Any], inputs: list[str], outputs: list[str]
    ):
        self.rule, self.func, self.outputs = rule, func, [str(o) for o in outputs]
        self.params = _plain(params)
        self.key, self.inputs = key(rule, func, self.params, inputs)
        self.home = folder(scale, slug) / rule / self.key[:20]

    def committed(self) -> dict[str, Any] | None:
        """The unit's record when a finished copy with this key is here and every output copy is intact."""
        from .sources import sha256

        record_path = self.home / RECORD
        if not record_path.is_file():
            return None
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if record.get("key") != self.key or set(record.get("outputs", {})) != set(self.outputs):
            return None
        for output, digest in record["outputs"].items():
            copy = self.home / "outputs" / output
            if not copy.is_file() or sha256(copy) != digest:
                raise ValueError(
                    f"{copy}: does not match the sha256 its unit recorded ({self.home / RECORD}); "
                    "restore it from git or delete the unit's folder to compute it again"
                )
        return record

    def reuse(self, record: dict[str, Any]) -> str:
        """Copy the committed outputs into place; the one line saying where they were computed."""
        for output in self.outputs:
            Path(output).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.home / "outputs" / output, output)
        git = record.get("git") or {}
        return (
            f"reused the committed unit {self.home} (same rule, params, input and code bytes), computed "
            f"{record.get('written', '?')} at commit {str(git.get('commit'))[:10]}"
            f"{' (uncommitted changes)' if git.get('dirty') else ''} on {record.get('machine', '?')}"
        )

    def record(self, seconds: float) -> None:
        """Keep a copy of the finished job's outputs (plain files) with its record."""
        from datetime import UTC, datetime

        from .io import write_json
        from .machine import blas, cpu_model, git_state, kernels
        from .sources import sha256

        if any(Path(o).is_dir() for o in self.outputs):
            raise ValueError(f"{self.rule}: a resumable step writes files, not folders ({self.outputs})")
        for output in self.outputs:
            target = self.home / "outputs" / output
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(output, target)
        git = git_state()
        write_json(
            self.home / RECORD,
            {
                "rule": self.rule,
                "func": self.func,
                "key": self.key,
                "params": self.params,
                "inputs": self.inputs,
                "outputs": {o: sha256(o) for o in self.outputs},
                "git": git,
                "written": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": f"{cpu_model()}, {kernels(blas())}",
                "seconds": round(seconds, 1),
            },
        )


def for_job(snakemake: Any) -> Unit | None:
    """The job's unit when its rule is a resumable step of its paper at a scale that keeps units, else None."""
    scale = (getattr(snakemake, "config", None) or {}).get("scale")
    parts = snakemake.params.func.partition(":")[0].split(".")
    if scale not in SCALES or len(parts) < 3 or snakemake.rule not in unit_rules(parts[1]):
        return None
    params = {k: v for k, v in snakemake.params.items() if k != "func"}
    func = snakemake.params.func
    return Unit(snakemake.rule, scale, parts[1], func, params, list(snakemake.input), list(snakemake.output))


def commits(scale: str, slug: str) -> dict[str, int]:
    """``{commit (or 'commit, uncommitted changes'): units}`` over the paper's committed units."""
    counts: dict[str, int] = {}
    for path in sorted(folder(scale, slug).glob(f"*/*/{RECORD}")):
        git = json.loads(path.read_text(encoding="utf-8")).get("git") or {}
        name = str(git.get("commit")) + (" (uncommitted changes)" if git.get("dirty") else "")
        counts[name] = counts.get(name, 0) + 1
    return counts
