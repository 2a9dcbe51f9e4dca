"""The 19 scalp electrodes of the 10-20 system (old T3/T4/T5/T6 names, as in CHB-MIT and Siena).

Positions come from mne's template montage, so spatial mixing of the background and the spread of a
focal seizure follow real inter-electrode distances.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

CHANNELS = (
    "Fp1",
    "Fp2",
    "F3",
    "F4",
    "C3",
    "C4",
    "P3",
    "P4",
    "O1",
    "O2",
    "F7",
    "F8",
    "T3",
    "T4",
    "T5",
    "T6",
    "Fz",
    "Cz",
    "Pz",
)
FRONTOPOLAR = ("Fp1", "Fp2")
OCCIPITAL = ("O1", "O2", "P3", "P4", "Pz")
TEMPORAL = ("F7", "F8", "T3", "T4", "T5", "T6")


@lru_cache(maxsize=1)
def positions() -> np.ndarray:
    """(19, 3) electrode positions in metres (mne's colin27 10-20 template)."""
    import mne

    pos = mne.channels.make_standard_montage("colin27_1020").get_positions()["ch_pos"]
    return np.array([pos[name] for name in CHANNELS])


@lru_cache(maxsize=1)
def distances() -> np.ndarray:
    """(19, 19) Euclidean inter-electrode distances in metres."""
    p = positions()
    return np.linalg.norm(p[:, None, :] - p[None, :, :], axis=-1)


def indices(names: tuple[str, ...]) -> np.ndarray:
    return np.array([CHANNELS.index(n) for n in names])
