"""The evaluation protocol on one dataset: DVM-AD, its ablations and pyod baselines.

Per seed: (at paper scale, ADBench's rows for that seed: small sets drawn up to 1,000 rows with replacement,
large ones subsampled to 10,000, :func:`data.adbench_rows`), a stratified split (``test_size`` of the rows for
testing), every
method fitted on the *normal* training rows only, AUROC on the whole test split.
Baselines see the features standardised with the normal training rows'
statistics (DVM-AD standardises internally the same way), with pyod's default
hyper-parameters and ``random_state`` set to the seed where they take one (the global numpy and torch generators
seeded too, for those that draw from them).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

from ..common.determinism import seed_everything
from . import data
from .estimator import KEEP_MODES, REFERENCES, PyODStyle

# name -> (pyod.models module, class, whether it takes random_state); imported on use: pyod's import is slow and
# its deep detectors import torch
DETECTORS = {
    "IForest": ("iforest", "IForest", True),
    "KNN": ("knn", "KNN", False),
    "LOF": ("lof", "LOF", False),
    "OCSVM": ("ocsvm", "OCSVM", False),
    "ECOD": ("ecod", "ECOD", False),
    "COPOD": ("copod", "COPOD", False),
    "HBOS": ("hbos", "HBOS", False),
    "PCA": ("pca", "PCA", True),
    "LODA": ("loda", "LODA", False),
    "INNE": ("inne", "INNE", True),
    "GMM": ("gmm", "GMM", True),
    "MCD": ("mcd", "MCD", True),
    "KDE": ("kde", "KDE", False),
    "COF": ("cof", "COF", False),
    "CBLOF": ("cblof", "CBLOF", True),
    "SOD": ("sod", "SOD", False),
    "ABOD": ("abod", "ABOD", False),
    "KPCA": ("kpca", "KPCA", True),
    "LMDD": ("lmdd", "LMDD", True),
    "Sampling": ("sampling", "Sampling", True),
    "QMCD": ("qmcd", "QMCD", False),
    "ROD": ("rod", "ROD", False),
    "SOS": ("sos", "SOS", False),
    "DeepSVDD": ("deep_svdd", "DeepSVDD", True),
    "AutoEncoder": ("auto_encoder", "AutoEncoder", True),
    "VAE": ("vae", "VAE", True),
    "DIF": ("dif", "DIF", True),
    "LUNAR": ("lunar", "LUNAR", True),
}
# The paper compares with 28 baselines without naming them; ours are 28 of pyod's unsupervised tabular detectors:
# 13 of ADBench's 14 unsupervised methods (DAGMM is not in pyod) and the others pyod ships that fit an unlabelled
# training set (FeatureBagging needs the unpinned `combo` package; the GAN detectors print every epoch and are
# left out). The first 14 are the ones the quick scale chooses from.
BASELINES = tuple(DETECTORS)
QUIET = {"DeepSVDD", "AutoEncoder", "VAE"}  # these print a progress bar per epoch unless told not to


def _pyod(name: str, seed: int, features: int):
    """A pyod detector by name for rows of ``features`` columns, with pyod's defaults."""
    import importlib

    if name not in DETECTORS:
        raise ValueError(f"unknown baseline {name!r}; expected one of {sorted(DETECTORS)}")
    module, cls, seeded = DETECTORS[name]
    kwargs = {"random_state": seed} if seeded else {}
    if name == "DeepSVDD":
        kwargs["n_features"] = features
    if name in QUIET:
        kwargs["verbose"] = 0
    return getattr(importlib.import_module(f"pyod.models.{module}"), cls)(**kwargs)


def auroc(y: np.ndarray, scores: np.ndarray) -> float:
    """AUROC of anomaly scores; infinite scores rank beyond every finite one, NaN scores give NaN.

    Some density baselines return ``+inf`` for points of zero estimated density: AUROC only uses
    the order of the scores, so ``+inf`` is ranked above every finite score (ties kept) rather than
    failing. A NaN score has no order; the method then has no AUROC on that split (reported as NaN,
    left out of that dataset's ranking).
    """
    scores = np.asarray(scores, dtype=float)
    if np.isnan(scores).any():
        return float("nan")
    finite = scores[np.isfinite(scores)]
    if len(finite) < len(scores):
        top = finite.max() + 1 if len(finite) else 1.0
        bottom = finite.min() - 1 if len(finite) else -1.0
        scores = np.where(scores == np.inf, top, np.where(scores == -np.inf, bottom, scores))
    return float(roc_auc_score(y, scores))


def _on_split(
    normal: np.ndarray, X_test: np.ndarray, y_test: np.ndarray, seed: int, *, baselines: list[str], epsilon: float
) -> tuple[list[dict], list[dict]]:
    """Every DVM-AD variant and baseline fitted on ``normal`` and scored on the test rows: AUROC and timing rows."""
    rows, timings = [], []
    mean, scale = normal.mean(axis=0), normal.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    for keep in KEEP_MODES:
        for reference in REFERENCES:
            start = time.perf_counter()
            scores = PyODStyle(reference=reference, keep=keep, epsilon=epsilon).fit(normal).decision_function(X_test)
            method = "DVM-AD" if (keep, reference) == ("both", "max") else "DVM-AD ablation"
            rows.append({"seed": seed, "method": method, "keep": keep, "reference": reference,
                         "auroc": auroc(y_test, scores), "error": ""})  # fmt: skip
            timings.append(
                {"seed": seed, "method": f"DVM-AD[{keep},{reference}]", "seconds": time.perf_counter() - start}
            )
    for name in baselines:
        start = time.perf_counter()
        scores, error = _baseline_scores(name, seed, (normal - mean) / scale, (X_test - mean) / scale)
        if error:
            print(f"seed {seed}: {name} failed ({error}); its AUROC on this split is NaN, as ADBench records it",
                  flush=True)  # fmt: skip
        rows.append({"seed": seed, "method": name, "keep": "", "reference": "",
                     "auroc": float("nan") if error else auroc(y_test, scores), "error": error})  # fmt: skip
        timings.append({"seed": seed, "method": name, "seconds": time.perf_counter() - start})
    return rows, timings


def _baseline_scores(name: str, seed: int, normal: np.ndarray, test: np.ndarray) -> tuple[np.ndarray | None, str]:
    """A baseline fitted on the (standardised) normal rows and its scores on the test rows, or ``None`` and the
    one-line reason it raised. ADBench records a detector that raises on a split as a NaN AUROC and goes on with
    the others (``model_fit`` in its ``run.py``); so does this protocol, and it says so: one detector's failure
    (CBLOF cannot always separate large from small clusters) does not cost its seed's 38 other fits. Running out
    of memory is the machine's failure, not the detector's, and is raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        detector = _pyod(name, seed, normal.shape[1])  # an unknown name is the config's error: raised
        seed_everything(seed)  # LODA and friends draw from numpy's global state, the deep ones from torch's
        try:
            detector.fit(normal)
            return detector.decision_function(test), ""
        except MemoryError:
            raise
        except Exception as error:  # noqa: BLE001 -- ADBench's rule: any failure of the detector is recorded
            return None, f"{type(error).__name__}: {' '.join(str(error).split())}"


def _seed_rows(X: np.ndarray, y: np.ndarray, seed: int, adbench_rows: dict | None):
    """The rows one seed sees and what its split draws from: ADBench's per-seed rows and generator
    (:func:`data.adbench_rows`) when ``adbench_rows`` (``{low, high}``) is set, else every row and the seed."""
    if not adbench_rows:
        return X, y, seed
    X_seed, y_seed, state = data.adbench_rows(X, y, seed, adbench_rows["low"], adbench_rows["high"])
    print(f"seed {seed}: {len(y_seed)} rows (ADBench's protocol)", flush=True)
    return X_seed, y_seed, state


def evaluate(
    X: np.ndarray,
    y: np.ndarray,
    *,
    seeds: list[int],
    test_size: float,
    baselines: list[str],
    epsilon: float,
    adbench_rows: dict | None = None,
) -> tuple[list[dict], list[dict]]:
    """AUROC rows ``(seed, method, keep, reference, auroc)`` and timing rows for one dataset; ``adbench_rows``
    (``{low, high}``) draws each seed's rows and split as ADBench does."""
    rows, timings = [], []
    for seed in seeds:
        X_seed, y_seed, state = _seed_rows(X, y, seed, adbench_rows)
        normal, X_test, y_test = data.split(X_seed, y_seed, state, test_size)
        found = _on_split(normal, X_test, y_test, seed, baselines=baselines, epsilon=epsilon)
        rows += found[0]
        timings += found[1]
        seconds = sum(row["seconds"] for row in found[1])
        print(f"seed {seed}: {len(found[0])} methods fitted on {len(normal)} normal rows in {seconds:.0f} s",
              flush=True)  # fmt: skip
    return rows, timings


def evaluate_types(
    X: np.ndarray,
    y: np.ndarray,
    *,
    types: list[str],
    seeds: list[int],
    test_size: float,
    baselines: list[str],
    epsilon: float,
    adbench_rows: dict | None = None,
) -> tuple[list[dict], list[dict]]:
    """:func:`evaluate` on ADBench's realistic synthetic anomalies of each type in ``types``, generated per seed
    from the seed's rows as ADBench does (after its row draw, before its split; :mod:`.synthetic`). Rows carry a
    ``type`` column; timing rows add each generation (method ``generate <type>``). The three mixture types of one
    seed share one fitted mixture (:func:`synthetic.fit_mixture`, the costly step). Each type's split draws from
    the seed alone, so one type's rows do not depend on which others run."""
    from . import synthetic

    rows, timings = [], []
    for seed in seeds:
        X_seed, y_seed, _ = _seed_rows(X, y, seed, adbench_rows)
        mixture = None
        for kind in types:
            start = time.perf_counter()
            if kind != "dependency" and mixture is None:
                mixture = synthetic.fit_mixture(X_seed, y_seed, seed)
            X_kind, y_kind = synthetic.generate(X_seed, y_seed, kind, seed, mixture=mixture)
            timings.append({"seed": seed, "method": f"generate {kind}", "seconds": time.perf_counter() - start,
                            "type": kind})  # fmt: skip
            normal, X_test, y_test = data.split(X_kind, y_kind, seed, test_size)
            found = _on_split(normal, X_test, y_test, seed, baselines=baselines, epsilon=epsilon)
            rows += [row | {"type": kind} for row in found[0]]
            timings += [row | {"type": kind} for row in found[1]]
            print(f"seed {seed}, {kind} anomalies: {len(normal)} normal rows to fit", flush=True)
    return rows, timings
