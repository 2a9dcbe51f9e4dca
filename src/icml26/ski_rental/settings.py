"""Cross-key constraints on ski_rental's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    if cfg["figures"]["lam"] not in cfg["lambdas"]:
        yield "figures.lam must be one of ski_rental.lambdas"
    if cfg["figures"]["R"] not in cfg["R_grid"]:
        yield "figures.R must be one of ski_rental.R_grid"
