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


class ConfigError(ValueError):
    """The config does not match its schema; the message names every bad key."""


def _key(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<top level>"


def validate(config: Any, schema: str | os.PathLike, *, prefix: str = "") -> None:
    """Raise :class:`ConfigError` listing every violation, each as ``key: problem``."""
    spec = yaml.safe_load(Path(schema).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(spec)
    errors = sorted(Draft202012Validator(spec).iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        lines = []
        for e in errors:
            key = _key([*([prefix] if prefix else []), *e.absolute_path])
            lines.append(f"  {key}: {e.message}")
        raise ConfigError(f"invalid config ({Path(schema).name}):\n" + "\n".join(lines))
