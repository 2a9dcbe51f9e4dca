"""Matplotlib set-up and byte-deterministic figure saving (PNG and PDF)."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from .io import atomic_path  # noqa: E402

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "svg.hashsalt": "icml26",
    "pdf.compression": 6,
}
plt.rcParams.update(STYLE)

# Metadata that would otherwise stamp a date or a software version into the file.
_METADATA = {
    ".png": {"Software": None},
    ".pdf": {"Creator": None, "Producer": None, "CreationDate": None},
}


def save_figure(fig: plt.Figure, *paths: str | os.PathLike) -> None:
    """Save ``fig`` to every path (format from the suffix) without timestamps, then close it."""
    for path in paths:
        suffix = Path(path).suffix.lower()
        if suffix not in _METADATA:
            raise ValueError(f"figures are saved as .png or .pdf, got {path}")
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], metadata=_METADATA[suffix], bbox_inches="tight")
    plt.close(fig)
