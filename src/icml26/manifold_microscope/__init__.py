"""The data manifold under the microscope (Koulakis & Seibold, arXiv 2606.15760).

Spec: ``shared/papers/manifold_microscope.md``. This version builds the
paper's core, the finite-difference estimator suite on grid-sampled maps, with
its exact toy-manifold oracles and the general-purpose baselines it is
compared with, the dSprites-style renderer with per-class measures, and the
Hausdorff bound-scaling study on the toys. Not built yet: the COIL-20
stand-in and the beta-VAE layer study.

Modules:
    grid        -- grids, finite-difference derivatives (order 2 or 4), integration
    geometry    -- metric, volume, Christoffel, Ricci, scalar curvature, reach (chunked, memory-aware)
    toys        -- circle, n-spheres, torus with closed-form geometry, randomly embedded in R^D
    baselines   -- local-PCA tangents, quadratic-fit curvature, PCA-tangent reach on random samples
    accuracy    -- estimator errors of both against the closed forms
    dsprites    -- dSprites-style images, procedurally rendered (a substitution)
    classes     -- per-shape geometry of rotation x position slices
    bounds      -- MMLS-style fits, Hausdorff error against n, rate envelopes
    plots, verdict, rules
"""
