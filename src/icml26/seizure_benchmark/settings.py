"""Cross-key constraints on seizure_benchmark's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    if cfg["eeg"]:
        yield from _eeg_problems(cfg["eeg"])
    for name in cfg["algorithms"]:
        if name not in cfg["algorithm_settings"]:
            yield f"algorithms: {name!r} has no entry in seizure_benchmark.algorithm_settings"


def _eeg_problems(root: str) -> Iterator[str]:
    """A real-EEG root must hold recordings in the SzCORE BIDS layout, at least two per subject (the within-subject
    protocol leaves one out)."""
    from ..common.sources import SourceError
    from .bids import recordings

    try:
        found = recordings(root)
    except SourceError as error:
        yield f"eeg: {error}"
        return
    single = sorted(s for s, paths in found.items() if len(paths) < 2)
    if single:
        yield f"eeg: sub-{', sub-'.join(single)} of {root} hold one recording (the within-subject protocol needs two)"
    if len(found) < 2:
        yield f"eeg: {root} holds {len(found)} subject (the held-out protocol needs two)"
