"""What `make pull` needs before it calls `dvc pull`, checked first so a fresh clone gets one line instead of DVC's
"Checkout failed ... Is your cache up to date?" for every output.

A stage can be pulled only when ``dvc.lock`` records a run of it (``dvc repro <stage>`` writes that; `make run`
does not) and the remote holds what that run pushed. The default remote is a folder beside the clone
(``.dvc/config``), which does not exist until some ``dvc push`` fills it.

    python -m icml26.common.dvc_pull [STAGE ...]    # exit 0 when `dvc pull` can go ahead, 2 with the reason
"""

from __future__ import annotations

import configparser
import sys
from pathlib import Path

import yaml

LOCK = Path("dvc.lock")
CONFIG = Path(".dvc", "config")


def default_remote(config: Path = CONFIG) -> tuple[str, str]:
    """The default remote's name and url as ``.dvc/config`` gives them ("" when none is set)."""
    parser = configparser.ConfigParser()
    parser.read(config, encoding="utf-8")
    name = parser.get("core", "remote", fallback="")
    sections = {section.strip("'"): section for section in parser.sections()}  # DVC writes ['remote "x"']
    section = sections.get(f'remote "{name}"')
    return name, parser.get(section, "url", fallback="") if name and section else ""


def locked_stages(lock: Path = LOCK) -> set[str]:
    """The stages ``dvc.lock`` records a run of (``paper@scale`` for the registry's foreach stages)."""
    if not lock.is_file():
        return set()
    return set((yaml.safe_load(lock.read_text(encoding="utf-8")) or {}).get("stages") or {})


def problem(stages: list[str], config: Path = CONFIG, lock: Path = LOCK) -> str | None:
    """Why `dvc pull` of ``stages`` (all of them when empty) cannot succeed here, or None."""
    name, url = default_remote(config)
    if not url:
        return f"{config} names no default remote: add one with `dvc remote add -d <name> <url>`"
    where = (config.parent / url).resolve()  # a local remote, relative to .dvc/ as DVC reads it
    if "://" not in url and not where.is_dir():
        return (
            f"the default DVC remote '{name}' is the folder {where}, which does not exist: `make push` on the "
            "machine that ran the stage fills it, or point to a shared one with `dvc remote add -d -f "
            f"{name} <url>`"
        )
    locked = locked_stages(lock)
    missing = [s for s in stages if s not in locked] if stages else ([] if locked else ["any stage"])
    if missing:
        return (
            f"{lock} records no run of {', '.join(missing)}: nothing of it was pushed; run it with "
            f"`dvc repro {missing[0] if stages else '<paper>@<scale>'}` (which records dvc.lock) and `make push` "
            "on that machine, or rebuild it here with `make run`"
        )
    return None


def main(argv: list[str]) -> int:
    reason = problem(argv)
    if reason:
        print(f"make pull: {reason}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
