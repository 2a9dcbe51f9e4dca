"""Cross-key constraints on coins' settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

from .problems import catalogue


def problems(cfg: dict) -> Iterator[str]:
    missing = [n for n in cfg["problems"] if n not in catalogue()]
    if missing:
        yield (
            f"problems: HumanEval/{missing[0]} has no gold spec (have {', '.join(map(str, sorted(catalogue())))}; "
            "add src/icml26/coins/gold/HumanEval_<n>.v and its line in problems.yaml)"
        )
    if cfg["source"] is not None and not Path(cfg["source"]).is_file():
        yield f"source: {cfg['source']} is not a file (a HumanEval .jsonl or .jsonl.gz)"
    folder = cfg["candidates_dir"]
    if folder is not None and not Path(folder).is_dir():
        yield f"candidates_dir: {folder} is not a folder (<dir>/HumanEval_<n>/<name>.v)"
    elif folder is not None:
        from ..common.sources import user_folder_problem

        unsafe = user_folder_problem(folder)
        if unsafe:
            yield f"candidates_dir: {unsafe}"
        elif not any(Path(folder).glob("HumanEval_*/*.v")):
            yield f"candidates_dir: {folder} holds no specs (<dir>/HumanEval_<n>/<name>.v)"
        else:
            yield from _unread(Path(folder), cfg["problems"])
    if cfg["limits"]["file_timeout_s"] <= 2 * cfg["limits"]["tactic_timeout_s"]:
        yield "limits.file_timeout_s must exceed twice limits.tactic_timeout_s (one obligation's two searches)"


def _unread(folder: Path, numbers: list[int]) -> Iterator[str]:
    """Specs the run would not read are an error, never skipped: a folder not named ``HumanEval_<n>``, a ``.v``
    file outside one, or a problem that is not in ``problems`` (one without a gold spec cannot be judged)."""
    import re

    for entry in sorted(folder.iterdir()):
        match = re.fullmatch(r"HumanEval_(\d+)", entry.name)
        if entry.suffix == ".v" or (entry.is_dir() and not match):
            yield f"candidates_dir: {entry} is not read (specs go in <dir>/HumanEval_<n>/<name>.v)"
        elif match and int(match.group(1)) not in numbers and any(entry.glob("*.v")):
            number = int(match.group(1))
            known = "add it to problems" if number in catalogue() else "it has no gold spec to judge against"
            yield f"candidates_dir: {entry} is HumanEval/{number}, not among problems ({known})"
