"""Ski rental with distributional predictions (arXiv 2603.29233).

The paper's code is not public; the definitions below follow our spec
(``shared/papers/ski_rental.md``) and are stated in each docstring.

Modules:
    model          -- costs, ratios and expected competitive ratio (ECR)
    deterministic  -- optimal threshold under a distribution, Clamp Policy
    randomized     -- Karlin's distribution, the robust stopping-distribution LP
    baselines      -- point-prediction baselines (Purohit et al. 2018)
    distributions  -- predicted distributions and their perturbations
    rules          -- the functions the Snakemake rules call
"""
