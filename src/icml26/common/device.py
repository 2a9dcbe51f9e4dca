"""The ``device`` setting: ``auto`` picks a GPU when torch sees one, else the CPU."""

from __future__ import annotations

DEVICES = ("auto", "cpu", "cuda")


def resolve_device(setting: str = "auto") -> str:
    """Map the config's ``device`` value to a concrete torch device name.

    ``cuda`` without a visible GPU is an error rather than a silent CPU run,
    so a cluster job that lost its GPU fails loudly.
    """
    if setting not in DEVICES:
        raise ValueError(f"device must be one of {DEVICES}, got {setting!r}")
    if setting == "cpu":
        return "cpu"
    try:
        import torch
    except ImportError:
        has_cuda = False
    else:
        has_cuda = torch.cuda.is_available()
    if setting == "cuda" and not has_cuda:
        raise RuntimeError("device: cuda was requested but no CUDA GPU is visible")
    return "cuda" if has_cuda else "cpu"
