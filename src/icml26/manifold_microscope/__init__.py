"""The data manifold under the microscope (Koulakis & Seibold, arXiv 2606.15760).

Spec: ``shared/papers/manifold_microscope.md``. The paper's core is the
finite-difference estimator suite on grid-sampled maps, with its exact
toy-manifold oracles and the general-purpose baselines it is compared with;
around it, procedurally rendered datasets (dSprites-style shapes, a COIL-20
stand-in), the Hausdorff bound-scaling study and the beta-VAE layer study.

Modules:
    grid        -- grids, finite-difference derivatives (order 2 or 4), integration
    geometry    -- metric, volume, Christoffel, Ricci, scalar curvature, reach (chunked, memory-aware)
    toys        -- circle, n-spheres, torus with closed-form geometry, randomly embedded in R^D
    baselines   -- local-PCA tangents, quadratic-fit curvature, PCA-tangent reach on random samples
    dimension   -- intrinsic dimension: metric rank against scikit-dimension's estimators
    accuracy    -- estimator errors of both against the closed forms
    dsprites    -- dSprites-style images, procedurally rendered (a substitution)
    turntable   -- COIL-20 stand-in: ray-cast synthetic objects over pose x roll (a substitution)
    classes     -- per-class geometry of grid slices at unit total volume
    bounds      -- MMLS-style fits, Hausdorff error against n, rate envelopes
    vae         -- beta-VAE (torch) and the grid maps of its layers
    plots, verdict, rules
"""

# what the paper-scale replicas need (icml26.common.lm.replicas.sources / overlay): files in the real data sets'
# formats in place of the downloads a user copies in, and the paper section's convolutional beta-VAE
REPLICA_KEYS = ("architecture",)


def replica_data(origin: str, folder) -> None:
    from pathlib import Path

    from . import real
    from .settings import DSPRITES_FILE

    if "dsprites" in origin:
        real.write_dsprites_replica(Path(folder) / DSPRITES_FILE)
    else:
        real.write_coil_replica(folder)
