"""The project's figure style and byte-deterministic figure saving (PNG and PDF).

The style (:data:`STYLE`) applies inside :func:`figure_set`, where every figure job draws, so importing this
module changes nothing for anyone else's figures. Jobs draw with the non-interactive Agg backend
(``MPLBACKEND`` set by the job runner and the fork server, never by this module).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from .io import atomic_path

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


@contextmanager
def figure_set(outputs: dict[str, str]) -> Iterator[Callable[[str], tuple[str, str]]]:
    """A paper's figures are drawn by one job (starting a job costs ~2 s of imports, more than drawing a
    figure). Its outputs are ``<name>_png`` and ``<name>_pdf`` per figure (``figure_outputs`` in
    workflow/rules/common.smk); ``with figure_set(outputs) as paths:`` hands out ``paths(name) -> (png, pdf)``
    and, at the end, names any declared figure that was not drawn. The figures are drawn and saved in the
    project's :data:`STYLE`."""
    declared = {key.removesuffix("_png") for key in outputs if key.endswith("_png")}
    drawn: list[str] = []

    def paths(name: str) -> tuple[str, str]:
        if name not in declared:
            raise ValueError(f"figure {name!r} is not an output of this job (declared: {', '.join(sorted(declared))})")
        drawn.append(name)
        print(f"figure {name}", flush=True)
        return outputs[f"{name}_png"], outputs[f"{name}_pdf"]

    with matplotlib.rc_context(STYLE):
        yield paths
    missing = sorted(declared - set(drawn))
    if missing:
        raise ValueError(f"figures declared but not drawn: {', '.join(missing)}")
