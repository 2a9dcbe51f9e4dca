"""Preconditioned annealed Langevin dynamics for Gaussian mixtures (arXiv 2602.01449).

A theory paper without public code: the pipeline is a numerical study of its
uniform-in-dimension claims on discretised function-space mixtures. Spec:
``shared/papers/annealed_langevin.md``. Definitions that are ours are stated in
the module docstrings and the README.

Modules:
    spectra     -- power-law spectra of the covariances, smoothing and preconditioner
    mixture     -- diagonal Gaussian mixtures: density, exact score, smoothing path, sampling
    integrators -- exponential integrator and Euler-Maruyama steps; the annealed / plain run loop
    factorised  -- the exactly solvable case: per-coordinate variance in closed form and recursions, KL
    particles   -- particle experiment: problem construction, mode weights, per-mode errors
    plots       -- the figures
    verdict     -- the spec's claims, judged from the result tables
    rules       -- the functions the Snakemake rules call
"""
