"""Cross-key constraints on manifold_microscope's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    if max(cfg["vae"]["checkpoints"]) > cfg["vae"]["iterations"]:
        yield "vae.checkpoints: every checkpoint must be <= vae.iterations"
    for toy in cfg["accuracy"]["toys"]:
        if toy not in cfg["accuracy"]["grid_sizes"]:
            yield f"accuracy.grid_sizes has no entry for toy {toy!r}"
