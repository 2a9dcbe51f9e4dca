"""External source files, checked before a pipeline uses them.

A source is a file the workflow reads from outside the project: the offline data in ``../shared/data/``
or the user's own files at ``paper`` scale. The first rule that reads one calls :func:`checked`,
which fails with one line naming the file when it is missing, or when it lies under
``../shared/data/`` and its bytes differ from the copy this project was built on
(``sources.sha256`` beside this module, the format of ``sha256sum``). Each paper's loader then
checks what it parsed (counts, columns, shapes, finite values) and reports problems through
:func:`fail`, so a truncated or garbled file stops the run instead of changing its results.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import NoReturn

MANIFEST = Path(__file__).with_name("sources.sha256")
SHARED_DATA = Path("..") / "shared" / "data"  # relative to the repository root (the working directory of jobs)


class SourceError(ValueError):
    """A source file is missing, changed or not what its loader needs; the message names the file."""


def fail(path: str | os.PathLike, problem: str) -> NoReturn:
    raise SourceError(f"{path}: {problem}")


SYSTEM_FOLDERS = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/proc", "/sbin", "/sys", "/usr")  # never inputs


def user_folder_problem(folder: str | os.PathLike) -> str | None:
    """Why a folder of the user's own inputs cannot be read, or None: a system folder (resolved, links followed),
    or an entry in it that is a link leading out of it (copied in as if it were the user's, it would let a config
    read any file on the machine), a link that leads nowhere or in a loop, or a named pipe, socket or device (a
    read would hang or never end)."""
    root = Path(folder).resolve()
    if any(root == Path(s) or root.is_relative_to(s) for s in SYSTEM_FOLDERS) or root == Path("/"):
        return f"{folder} is a system folder ({root}), not a folder of your own inputs"
    for path in sorted(Path(folder).rglob("*")):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return f"{path} is a link that leads nowhere or in a loop: refused"
        if not target.is_relative_to(root):
            return f"{path} leads out of {folder} (to {target}): links out of an input folder are refused"
        if not (target.is_file() or target.is_dir()):
            return f"{path} is a named pipe, socket or device, not a file: refused"
    return None


def within(folder: str | os.PathLike, path: str | os.PathLike) -> Path:
    """``path``, which must lie inside ``folder`` once links are followed (else one line naming it)."""
    if not Path(path).resolve().is_relative_to(Path(folder).resolve()):
        fail(path, f"leads out of {folder} (to {Path(path).resolve()}): links out of an input folder are refused")
    return Path(path)


def arrays(path: str | os.PathLike) -> dict:
    """Every array of an ``.npz`` input (ours or the user's); a missing or unreadable file fails naming it."""
    from .io import read_npz

    try:
        return read_npz(path)
    except ValueError as error:
        fail(path, str(error).removeprefix(f"{path}: "))


@functools.cache
def recorded() -> dict[str, str]:
    """``{path under ../shared/data: sha256}`` from :data:`MANIFEST`."""
    entries = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split(maxsplit=1)
            entries[name.strip()] = digest
    return entries


def sha256(path: str | os.PathLike) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def shared_name(path: str | os.PathLike) -> str | None:
    """The path relative to ``../shared/data`` if the file lies there, else None (the user's own file)."""
    try:
        return Path(path).resolve().relative_to(SHARED_DATA.resolve()).as_posix()
    except ValueError:
        return None


def checked(path: str | os.PathLike) -> Path:
    """``path``, after checking it exists and, if it is a file of ``../shared/data``, that it is recorded there
    with this checksum (an extra file beside the recorded ones, e.g. one more seizure list matching a glob, is
    refused rather than read)."""
    path = Path(path)
    if not path.is_file():
        fail(path, "source file not found (the offline data: ../shared/data/README.md)")
    name = shared_name(path)
    expected = recorded().get(name) if name else None
    if name and expected is None:  # a recorded folder is a closed set: nothing beside its recorded files is read
        fail(
            path,
            f"not one of the source files this project was built on (no entry in {MANIFEST.name}); remove it from "
            "../shared/data, or copy the folder outside ../shared/data and point the config at your own set",
        )
    if expected is not None and (actual := sha256(path)) != expected:
        fail(
            path,
            f"contents differ from the file this project was built on (sha256 {actual[:12]}..., "
            f"recorded {expected[:12]}... in {MANIFEST.name}); restore it, or point the config at "
            "your own copy outside ../shared/data",
        )
    return path
