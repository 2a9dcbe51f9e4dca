"""Config validation with messages that name the offending key.

The workflow validates the merged config (``config/config.yaml`` plus any
``--configfile`` overlays) against ``workflow/schemas/*.schema.yaml``
(JSON Schema draft 2020-12) before any job runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator


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


def validate(config: Any, schema: str | os.PathLike, *, prefix: str = "") -> None:
    """Raise :class:`ConfigError` listing every violation, each as ``key: problem``.

    The schemas themselves are checked against the JSON Schema meta-schema by the tests, not here:
    every Snakemake start (and every SLURM job) validates the config.
    """
    spec = load_yaml(Path(schema).read_text(encoding="utf-8"))
    errors = sorted(Draft202012Validator(spec).iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        lines = []
        for e in errors:
            key = _key([*([prefix] if prefix else []), *e.absolute_path])
            lines.append(f"  {key}: {e.message}")
        raise ConfigError(f"invalid config ({Path(schema).name}):\n" + "\n".join(lines))


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
    scales = load_yaml(Path(path).read_text(encoding="utf-8")) or {}
    unknown = sorted(set(scales) - {"smoke", "quick", "paper"})
    if unknown or "quick" not in scales:
        raise ConfigError(f"invalid config: {path} must have a 'quick' section and only smoke/quick/paper"
                          + (f" (found {', '.join(unknown)})" if unknown else ""))
    return merged(merged(scales["quick"], scales.get(scale) if scale != "quick" else None), overrides)
