"""Cross-key constraints on annealed_langevin's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator


def problems(cfg: dict) -> Iterator[str]:
    spectrum, particles = cfg["spectrum"], cfg["particles"]
    for key, name, table in [
        ("reference_smoothing", cfg["reference_smoothing"], "smoothing"),
        ("particles.smoothing", particles["smoothing"], "smoothing"),
        ("fast_preconditioner", cfg["fast_preconditioner"], "preconditioner"),
        ("particles.preconditioner", particles["preconditioner"], "preconditioner"),
    ]:
        if name not in spectrum[table]:
            yield f"{key}: {name!r} is not one of spectrum.{table} {sorted(spectrum[table])}"
    weights = particles["weights"]
    if not len(weights) == len(particles["centres"]) == len(particles["covariance_spread"]):
        yield "particles: weights, centres and covariance_spread need one entry per component"
    if abs(sum(weights) - 1) > 1e-9:
        yield f"particles.weights must sum to 1, got {sum(weights)}"
    if particles["plain_init_mode"] >= len(weights):
        yield "particles.plain_init_mode must name a component (0-based)"
