"""DVM-AD: closed-form discriminant-vector anomaly detection (spec: ``shared/papers/dvm_ad.md``).

Modules:
    estimator  -- the ``DVMAD`` detector (scikit-learn style: fit / decision_function / predict)
    data       -- ADBench ``.npz`` loading, validation, stratified subsampling and splits
    benchmark  -- the evaluation protocol: DVM-AD, its ablations and pyod baselines on one dataset
    rules      -- the functions the Snakemake rules call
"""

__all__ = ["DVMAD"]


def __getattr__(name: str):
    """``DVMAD`` on first use, so the jobs that only read tables (figures, verdict) never import scikit-learn."""
    if name == "DVMAD":
        from .estimator import DVMAD

        return DVMAD
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
