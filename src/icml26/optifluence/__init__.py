"""OptiFluence: canaries optimised for privacy auditing, by IF-Init and unrolled optimisation, judged with
online LiRA (spec: ``shared/papers/optifluence.md``; no public code).

Modules:
    data       -- the images (substitution: scikit-learn digits / Fashion-MNIST / the user's npz for CIFAR-10)
    models     -- the audited architectures, many models trained at once with batched weights (vmap), hinge score
    lira       -- online LiRA, TPR at a fixed FPR, AUC, Clopper-Pearson intervals
    influence  -- self-influence with the exact last-layer Hessian (IF-Init)
    canaries   -- the canary types, their seeds, the membership draw
    unroll     -- unrolled canary optimisation (truncated backpropagation, checkpointing)
    audit      -- one audit: models of one architecture with the canaries inserted, scored
    tables, plots, verdict, rules, settings -- LiRA tables, figures, claims, rule functions, config checks
"""
