"""Model folders a user brings at ``paper`` scale, loaded only when they are what they claim to be.

Every loader of a user's model goes through here, so that a folder is refused with one line naming it and
the file at fault -- never a raw ``SafetensorError`` or a size-mismatch report, and never a model whose
weights were silently initialised at random:

- the architecture is checked first (``model_type`` in ``config.json``, or the class the caller expects);
- a weights file that cannot be read (truncated, garbage) is named;
- the weights must cover the model exactly: no missing, unexpected or differently shaped tensor.

Hugging Face's ``from_pretrained`` reports coverage in its loading info rather than failing, and
``safetensors`` raises its own error type; both are turned into :class:`~.sources.SourceError` here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from pathlib import Path
from typing import Any

from .sources import fail

PICKLES = (".bin", ".pt", ".pth", ".pkl", ".ckpt")  # weights formats read by unpickling, refused


def read_errors() -> tuple[type[BaseException], ...]:
    """What reading a weights or config file raises when the file is damaged (safetensors has its own type)."""
    from safetensors import SafetensorError

    return (OSError, ValueError, RuntimeError, KeyError, json.JSONDecodeError, SafetensorError)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200]}" if text else type(error).__name__


def model_type(folder: str | os.PathLike, what: str) -> str:
    """``model_type`` from the folder's ``config.json``; a missing or unreadable one names the file."""
    path = Path(folder) / "config.json"
    if not Path(folder).is_dir():
        fail(folder, f"no such {what} folder")
    if not path.is_file():
        fail(folder, f"not a {what} folder (no config.json)")
    try:
        config = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(path, f"not readable JSON ({_first_line(error)})")
    if not isinstance(config, dict) or not isinstance(config.get("model_type"), str):
        fail(path, f"names no model_type: not a {what} folder")
    return config["model_type"]


def check_coverage(
    where: str | os.PathLike, missing: Collection[str], unexpected: Collection[str], mismatched: Collection[Any] = ()
) -> None:
    """Refuse weights that do not cover the model exactly (the part left out would be random)."""
    problems = []
    for name, keys in (("missing", missing), ("unexpected", unexpected), ("of another shape", mismatched)):
        keys = sorted(str(k[0] if isinstance(k, tuple) else k) for k in keys)
        if keys:
            problems.append(f"{len(keys)} tensor(s) {name} (e.g. {keys[0]})")
    if problems:
        fail(where, "weights do not match the model: " + "; ".join(problems))


def load_pretrained(
    model_class, folder: str | os.PathLike, *, model_types: Collection[str], what: str, part: bool = False
):
    """A Hugging Face model of ``model_class`` from a local folder, refused unless its ``model_type`` is one of
    ``model_types`` and its weights load completely (with ``part``, the model is one part of the checkpoint, such
    as CLIP's vision tower: the other parts' tensors are left unread). Nothing is downloaded."""
    from transformers.utils import logging as hf_logging

    kind = model_type(folder, what)
    pickles = sorted(p.name for p in Path(folder).iterdir() if p.suffix in PICKLES)
    if pickles and not any(Path(folder).glob("*.safetensors")):
        fail(
            folder,
            f"holds pickled weights ({', '.join(pickles[:2])}); only safetensors are read (unpickling can run "
            "code): save them again with save_pretrained(safe_serialization=True), or fetch the safetensors",
        )
    if kind not in model_types:
        expected = ", ".join(sorted(model_types)) if len(model_types) <= 4 else f"one of the {len(model_types)} known"
        fail(folder, f"not a {what} (config.json says model_type {kind!r}; expected {expected})")
    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()  # the mismatch report is turned into one line below
    hf_logging.disable_progress_bar()  # a bar per load in a job's log says nothing
    try:
        model, info = model_class.from_pretrained(
            str(folder), local_files_only=True, output_loading_info=True, ignore_mismatched_sizes=True
        )
    except read_errors() as error:
        files = ", ".join(sorted(p.name for p in Path(folder).glob("*.safetensors"))) or "no *.safetensors"
        fail(folder, f"cannot read the {what}'s weights ({files}): {_first_line(error)}")
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
    unexpected = () if part else info.get("unexpected_keys", ())
    check_coverage(folder, info.get("missing_keys", ()), unexpected, info.get("mismatched_keys", ()))
    check_finite(folder, model.state_dict())
    return model


def check_finite(where: str | os.PathLike, tensors) -> None:
    """One line naming the first floating-point tensor holding NaN or an infinity: such weights load without a word
    and turn every later number into NaN (a damaged or diverged checkpoint)."""
    import torch

    for name, tensor in tensors.items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            fail(where, f"weights hold NaN or infinite values ({name}): a damaged or diverged checkpoint")


def load_state(model, path: str | os.PathLike):
    """``model`` with the state in the safetensors file ``path``, which must cover it exactly; a damaged file or a
    state of another model is one line naming the file. Tied tensors (one storage under several names, stored
    once by safetensors) count as covered when any of their names is in the file."""
    tensors = read_safetensors(path)
    expected = model.state_dict()
    tied: dict[int, list[str]] = {}
    for name, tensor in expected.items():
        tied.setdefault(tensor.untyped_storage().data_ptr(), []).append(name)
    state, missing = {}, []
    for names in tied.values():
        present = [n for n in names if n in tensors]
        if not present:
            missing.append(names[0])
            continue
        state |= {n: tensors[present[0]] for n in names}
    mismatched = [k for k in state if tuple(expected[k].shape) != tuple(state[k].shape)]
    check_coverage(path, missing, tensors.keys() - expected.keys(), mismatched)
    check_finite(path, state)
    model.load_state_dict(state)
    return model


def read_safetensors(path: str | os.PathLike) -> dict:
    """Every tensor of a safetensors file; a missing, truncated or garbage file is one line naming it."""
    from safetensors.torch import load_file

    if not Path(path).is_file():
        fail(path, "no such weights file")
    try:
        return load_file(str(path))
    except read_errors() as error:
        fail(path, f"not a readable safetensors file ({_first_line(error)})")
