"""Cross-key constraints on manifold_microscope's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path

DSPRITES_FILE = "dsprites_ndarray_co1sh3sc6or40x32y32_64x64.npz"  # DeepMind's dSprites, as released


def problems(cfg: dict) -> Iterator[str]:
    if max(cfg["vae"]["checkpoints"]) > cfg["vae"]["iterations"]:
        yield "vae.checkpoints: every checkpoint must be <= vae.iterations"
    for toy in cfg["accuracy"]["toys"]:
        if toy not in cfg["accuracy"]["grid_sizes"]:
            yield f"accuracy.grid_sizes has no entry for toy {toy!r}"

    yield from _real_data(cfg)


def _real_data(cfg: dict) -> Iterator[str]:
    """The real data sets' folders hold what the run reads: DeepMind's file, and every object's 72 poses."""
    folder = cfg["dsprites"]["folder"]
    if folder and not (Path(folder) / DSPRITES_FILE).is_file():
        yield f"dsprites.folder: {folder} lacks {DSPRITES_FILE} (DeepMind's dSprites file)"
    folder, objects = cfg["turntable"]["folder"], cfg["turntable"]["objects"]
    if folder:
        missing = [i for i in range(1, objects + 1) if not (Path(folder) / f"obj{i}__0.png").is_file()]
        if missing:
            yield (
                f"turntable.folder: {folder} lacks object {missing[0]} (obj{missing[0]}__<pose>.png) of the "
                f"{objects} turntable.objects asks for (COIL-20 has 20)"
            )
