"""DVM-AD: closed-form discriminant-vector anomaly detection (spec: ``shared/papers/dvm_ad.md``).

Modules:
    estimator  -- the ``DVMAD`` detector (scikit-learn style: fit / decision_function / predict)
    data       -- ADBench ``.npz`` loading, validation, stratified subsampling and splits
    benchmark  -- the evaluation protocol: DVM-AD, its ablations and pyod baselines on one dataset
    rules      -- the functions the Snakemake rules call
"""

from .estimator import DVMAD

__all__ = ["DVMAD"]
