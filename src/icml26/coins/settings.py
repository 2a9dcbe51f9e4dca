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
    if cfg["limits"]["file_timeout_s"] <= 2 * cfg["limits"]["tactic_timeout_s"]:
        yield "limits.file_timeout_s must exceed twice limits.tactic_timeout_s (one obligation's two searches)"
