"""The evaluation protocol on one dataset: DVM-AD, its ablations and pyod baselines.

Per seed: a stratified split (``test_size`` of the rows for testing), every
method fitted on the *normal* training rows only, AUROC on the whole test split.
Baselines see the features standardised with the normal training rows'
statistics (DVM-AD standardises internally the same way), with pyod's default
hyper-parameters and ``random_state`` set to the seed where they take one.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

from ..common.determinism import seed_everything
from . import data
from .estimator import KEEP_MODES, REFERENCES, PyODStyle


def _pyod(name: str, seed: int):
    """A pyod detector by name (imported lazily: pyod's import is slow)."""
    from pyod.models import cof, copod, ecod, gmm, hbos, iforest, inne, kde, knn, loda, lof, mcd, ocsvm, pca

    makers = {
        "IForest": lambda: iforest.IForest(random_state=seed),
        "KNN": knn.KNN,
        "LOF": lof.LOF,
        "OCSVM": ocsvm.OCSVM,
        "ECOD": ecod.ECOD,
        "COPOD": copod.COPOD,
        "HBOS": hbos.HBOS,
        "PCA": lambda: pca.PCA(random_state=seed),
        "LODA": loda.LODA,
        "INNE": lambda: inne.INNE(random_state=seed),
        "GMM": lambda: gmm.GMM(random_state=seed),
        "MCD": lambda: mcd.MCD(random_state=seed),
        "KDE": kde.KDE,
        "COF": cof.COF,
    }
    if name not in makers:
        raise ValueError(f"unknown baseline {name!r}; expected one of {sorted(makers)}")
    return makers[name]()


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


BASELINES = (
    "IForest",
    "KNN",
    "LOF",
    "OCSVM",
    "ECOD",
    "COPOD",
    "HBOS",
    "PCA",
    "LODA",
    "INNE",
    "GMM",
    "MCD",
    "KDE",
    "COF",
)


def evaluate(
    X: np.ndarray, y: np.ndarray, *, seeds: list[int], test_size: float, baselines: list[str], epsilon: float
) -> tuple[list[dict], list[dict]]:
    """AUROC rows ``(seed, method, keep, reference, auroc)`` and timing rows for one dataset."""
    rows, timings = [], []
    for seed in seeds:
        normal, X_test, y_test = data.split(X, y, seed, test_size)
        mean, scale = normal.mean(axis=0), normal.std(axis=0)
        scale = np.where(scale > 0, scale, 1.0)
        for keep in KEEP_MODES:
            for reference in REFERENCES:
                start = time.perf_counter()
                scores = (
                    PyODStyle(reference=reference, keep=keep, epsilon=epsilon).fit(normal).decision_function(X_test)
                )
                method = "DVM-AD" if (keep, reference) == ("both", "max") else "DVM-AD ablation"
                rows.append(
                    {
                        "seed": seed,
                        "method": method,
                        "keep": keep,
                        "reference": reference,
                        "auroc": auroc(y_test, scores),
                    }
                )
                timings.append(
                    {"seed": seed, "method": f"DVM-AD[{keep},{reference}]", "seconds": time.perf_counter() - start}
                )
        for name in baselines:
            seed_everything(seed)  # LODA and friends draw from numpy's global state
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                detector = _pyod(name, seed).fit((normal - mean) / scale)
                scores = detector.decision_function((X_test - mean) / scale)
            rows.append({"seed": seed, "method": name, "keep": "", "reference": "", "auroc": auroc(y_test, scores)})
            timings.append({"seed": seed, "method": name, "seconds": time.perf_counter() - start})
    return rows, timings
