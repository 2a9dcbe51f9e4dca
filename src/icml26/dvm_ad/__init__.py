"""DVM-AD: closed-form discriminant-vector anomaly detection (spec: ``shared/papers/dvm_ad.md``).

Modules:
    estimator  -- the ``DVMAD`` detector (scikit-learn style: fit / decision_function / predict)
    data       -- ADBench ``.npz`` loading, validation, stratified subsampling and splits
    embeddings -- which files make up each of ADBench's CV / NLP embedding benchmarks
    synthetic  -- ADBench's four realistic synthetic anomaly types, generated from a set's normal rows
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


# what the paper-scale replica needs (icml26.common.lm.replicas.sources / overlay): the 47 sets and the 10 embedding
# benchmarks in ADBench's format in place of the folders a user downloads, read as the overlay that reads those folders
# says, with the paper section's row cap (none) and ADBench's per-seed rows
FETCH_OVERLAY = "config/overlays/dvm_ad_fetched.yaml"  # the paper section reads the 43 offline sets; this, the fetched
REPLICA_KEYS = ("max_rows", "adbench_rows", "embedding_source_dir", "embedding_benchmarks")


def replica_data(origin: str, folder) -> None:
    """A replica of one fetched folder: the 47 Classical sets, or the embedding benchmarks of ``CV_by_ResNet18`` /
    ``NLP_by_BERT`` (the entry's name)."""
    from pathlib import Path

    from . import data, embeddings

    if Path(folder).name in set(embeddings.BENCHMARKS.values()):
        embeddings.write_replica(folder)
    else:
        data.write_replica(folder)
