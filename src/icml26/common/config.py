"""Config validation with messages that name the offending key.

The workflow validates the merged config (``config/config.yaml`` plus any
``--configfile`` overlays) against ``workflow/schemas/*.schema.yaml``
(JSON Schema draft 2020-12) before any job runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
from collections.abc import Iterator
from numbers import Real
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` through libyaml when PyYAML has it (ten times faster: every job re-reads the config)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class ConfigError(ValueError):
    """The config does not match its schema; the message names every bad key."""


def _key(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<top level>"


def _strict_integer(checker, instance) -> bool:
    """JSON Schema counts 1.0 as an integer; in a config it is a typo that numpy rejects later, inside a job."""
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = validators.extend(
    Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer)
)


def validate(config: Any, schema: str | os.PathLike, *, prefix: str = "") -> None:
    """Raise :class:`ConfigError` listing every violation, each as ``key: problem``.

    The schemas themselves are checked against the JSON Schema meta-schema by the tests, not here:
    every Snakemake start (and every SLURM job) validates the config.
    """
    spec = load_yaml(Path(schema).read_text(encoding="utf-8"))
    validator = StrictValidator(spec, registry=_siblings(Path(schema).parent))
    errors = sorted(validator.iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        problems = [f"{_key([*([prefix] if prefix else []), *e.absolute_path])}: {e.message}" for e in errors]
        raise ConfigError(_invalid(problems, f" ({Path(schema).name})"))


def _siblings(folder: Path):
    """The schemas beside one, by file name, read when referenced: ``$ref: fetch.schema.yaml`` reads the shared one."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    def retrieve(name: str) -> Resource:
        return Resource.from_contents(load_yaml((folder / name).read_text(encoding="utf-8")), DRAFT202012)

    return Registry(retrieve=retrieve)


def _invalid(problems: list[str], where: str = "") -> str:
    """One line for one problem, else one line per problem under a heading."""
    if len(problems) == 1:
        return f"invalid config{where}: {problems[0]}"
    return f"invalid config{where}:\n" + "\n".join(f"  {p}" for p in problems)


def merged(base: dict[str, Any], overlay: dict[str, Any] | None) -> dict[str, Any]:
    """``overlay`` on ``base`` as Snakemake merges config files: mappings key by key, anything else replaced."""
    out = dict(base)
    for key, value in (overlay or {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def paper_section(path: str | os.PathLike, scale: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """A paper's settings at ``scale``: its ``quick`` defaults, the scale's overlay, then the user's overrides.

    ``path`` is ``config/papers/<slug>.yaml`` with top-level keys ``quick`` (every key), and optionally
    ``smoke`` and ``paper``; ``overrides`` is what ``--configfile`` overlays put under ``<slug>:``.
    """
    if overrides is not None and not isinstance(overrides, dict):
        slug = Path(path).stem
        raise ConfigError(
            f"invalid config: {slug}: must be a mapping of its settings (key: value, as in config/papers/"
            f"{slug}.yaml), got {type(overrides).__name__} {overrides!r}"
        )
    scales = load_yaml(Path(path).read_text(encoding="utf-8")) or {}
    unknown = sorted(set(scales) - {"smoke", "quick", "paper"})
    if unknown or "quick" not in scales:
        raise ConfigError(
            f"invalid config: {path} must have a 'quick' section and only smoke/quick/paper"
            + (f" (found {', '.join(unknown)})" if unknown else "")
        )
    return merged(merged(scales["quick"], scales.get(scale) if scale != "quick" else None), overrides)


def range_problems(section: Any, path: tuple = ()) -> Iterator[str]:
    """Every ``{low, high[, points]}`` mapping in ``section`` must have low < high and at least two points
    (the constraint JSON Schema cannot state between two keys), and every number must be finite (YAML's ``.nan``
    and ``.inf`` pass a schema's ``type: number`` and its bounds, since a comparison with NaN is false)."""
    if isinstance(section, float) and not math.isfinite(section):
        yield f"{_key(path)}: {section} is not a finite number"
    if isinstance(section, dict):
        low, high = section.get("low"), section.get("high")
        if isinstance(low, Real) and isinstance(high, Real) and not low < high:
            yield f"{_key(path)}: low ({low}) must be below high ({high})"
        points = section.get("points")
        if "low" in section and isinstance(points, int) and points < 2:
            yield f"{_key((*path, 'points'))}: a range needs at least 2 points, got {points}"
        for key, value in section.items():
            yield from range_problems(value, (*path, key))
    elif isinstance(section, list):
        for i, value in enumerate(section):
            yield from range_problems(value, (*path, i))


def check_settings(slug: str, section: dict[str, Any]) -> None:
    """The checks on a paper's (schema-valid) settings that a schema cannot express: ranges, then the
    paper's own cross-key constraints, ``icml26.<slug>.settings.problems(section)`` (one place per paper)."""
    unfetched = list(unfetched_problems(slug, section)) or list(changed_fetched_problems(slug, section))
    if unfetched:  # before the paper's own checks, which would only say the folder is missing or read it
        raise ConfigError(_invalid(unfetched))
    problems = list(range_problems(section, (slug,))) + list(folder_problems(section, (slug,)))
    if importlib.util.find_spec(f"icml26.{slug}.settings") is not None:
        problems += [f"{slug}.{p}" for p in importlib.import_module(f"icml26.{slug}.settings").problems(section)]
    if problems:
        raise ConfigError(_invalid(problems))


def folder_problems(section: Any, path: tuple = ()) -> Iterator[str]:
    """Every setting that names a folder of inputs (the user's data root, a fetched folder, the offline data) is read
    under one rule before any job (``sources.user_folder_problem``): no link out of it, no link loop, no pipe or
    device, and not a system folder. A CIFAR batch, a PNG or an EDF that links to a file elsewhere is refused
    whichever reader would open it."""
    from .sources import user_folder_problem

    values = section.items() if isinstance(section, dict) else enumerate(section if isinstance(section, list) else [])
    for key, value in values:
        if key == "fetch":
            continue
        if isinstance(value, (dict, list)):
            yield from folder_problems(value, (*path, key))
        elif isinstance(value, str) and _is_folder(value):
            problem = user_folder_problem(value)
            if problem:
                yield f"{_key((*path, key))}: {problem}"


def _is_folder(value: str) -> bool:
    try:
        return bool(value) and Path(value).is_dir()
    except (OSError, ValueError):  # prose, not a path (a substitution's sentence is longer than a file name may be)
        return False


def fetched_settings(section: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every setting of a paper section (outside ``fetch:``) that names a folder of its ``fetch:`` list: its dotted
    key below the section and the folder. The one walk the fetched-input checks below share."""
    targets = {entry["into"] for entry in section.get("fetch", {}).values()}

    def walk(block: dict, keys: tuple[str, ...]) -> Iterator[tuple[str, str]]:
        for key, value in block.items():
            if isinstance(value, dict) and key != "fetch":
                yield from walk(value, (*keys, key))
            elif isinstance(value, str) and value in targets:
                yield ".".join((*keys, key)), value

    yield from walk(section, ())


def unfetched_problems(slug: str, section: dict[str, Any]) -> Iterator[str]:
    """A setting that names a folder of the section's ``fetch:`` list before ``make fetch`` brought it in: one line
    saying how to get it (:mod:`.fetch`), rather than a missing folder."""
    fetched = section.get("fetch", {})
    name = {entry["into"]: name for name, entry in fetched.items()}
    how = {  # a hub entry downloads; a source entry (data not on the hub) is copied in from the user's download
        entry["into"]: "needs the Hugging Face hub; offline: FROM=<folder>"
        if "hub" in entry
        else f"FROM=<folder holding {key}/>, downloaded from {entry['source']}"
        for key, entry in fetched.items()
    }
    for key, folder in fetched_settings(section):
        if not Path(folder).is_dir():
            yield (
                f"{slug}.{key}: {folder} ({name[folder]}) has not been fetched: run `make fetch PAPER={slug}` "
                f"({how[folder]}), set the key to a local copy, or run other papers alone (make run SCALE=paper "
                "PAPER=<paper>, or --config 'papers=[<paper>]')"
            )


def changed_fetched_problems(slug: str, section: dict[str, Any]) -> Iterator[str]:
    """A setting that names a folder of the section's ``fetch:`` list whose files no longer match the manifest
    ``make fetch`` wrote (:func:`.fetch.changed_since_fetch`, cached by size and modification time): never read a
    changed input as if it were the fetched one. A folder put there by hand, with no manifest, has nothing to be
    checked against (``make fetch`` refuses to overwrite it)."""
    from .fetch import MANIFEST, changed_since_fetch

    for key, folder in fetched_settings(section):
        if Path(folder + MANIFEST).is_file():
            problem = changed_since_fetch(folder, Path("."))
            if problem:
                yield f"{slug}.{key}: {problem}"


def settings_from(cls, block: dict[str, Any], key: str):
    """A settings dataclass from a config block; an unknown key is a ConfigError naming it (``key.name``)."""
    import dataclasses

    unknown = sorted(set(block) - {f.name for f in dataclasses.fields(cls)})
    if unknown:
        raise ConfigError(f"{key}.{unknown[0]}: unknown setting")
    return cls(**block)


def yaml_problem(path: str | os.PathLike) -> str | None:
    """Why a config file does not parse, with its file, line and column; None if it does. Snakemake's own message
    for a bad ``--configfile`` names neither, and it reads the files before the workflow can say more."""
    if not Path(path).exists():
        from .registry import SCALES

        scale = Path(path).parent.name == "config" and Path(path).stem not in SCALES
        return f"{path}: no such config file" + (f" (SCALE= takes {', '.join(SCALES)})" if scale else "")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"{path}: cannot read this config file ({error.__class__.__name__}: {error})"
    try:
        value = load_yaml(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        return f"{path}{where}: not valid YAML ({problem})"
    if value is not None and not isinstance(value, dict):
        return f"{path}: a config file must be a mapping of keys, got {type(value).__name__}"
    twice = repeated_key(text)
    if twice:
        key, line, first = twice
        return (
            f"{path}, line {line}: {key!r} is given twice in one mapping (also line {first}); YAML keeps the last "
            "without a word, so say it once"
        )
    return None


def repeated_key(text: str) -> tuple[str, int, int] | None:
    """The first key given twice in one mapping of a YAML text: (key, its second line, its first line)."""
    stack = [yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key, value in node.value:
                name, line = str(key.value), key.start_mark.line + 1
                if name in seen:
                    return name, line, seen[name]
                seen[name] = line
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return None


def main(argv: list[str] | None = None) -> int:
    """``python -m icml26.common.config FILE...``: check that config overlays parse (``make run`` does, before
    Snakemake reads them); one line per bad file, exit status 2."""
    import sys

    files = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--configfile"]
    problems = [p for p in map(yaml_problem, files) if p]
    for problem in problems:
        print(f"icml26: invalid config file: {problem}", file=sys.stderr)
    return 2 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
