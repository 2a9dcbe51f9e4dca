"""Learning a drifting halfspace under Massart noise (arXiv 2606.11149).

A theory paper without code: the pipeline is a numerical study of its rates.
Spec: ``shared/papers/massart_drift.md``. Definitions that are ours are stated
in the module docstrings and the README.

Modules:
    geometry   -- angles, disagreement of halfspaces, the exact 2-D error formulas
    streams    -- drifting-target sample streams (2-D circle; d-dimensional Massart)
    learners   -- windowed learners: averaging, Perspectron-style, perceptron, exact 2-D ERM
    scaling    -- window sweeps, the best window per drift rate, log-log slope fits
    rules      -- the functions the Snakemake rules call
"""
