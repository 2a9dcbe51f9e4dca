"""The DVM-AD detector: one closed-form fit, no iterations, no tuning.

Fit on normal rows ``X`` (standardised with their own mean and standard
deviation; constant columns keep scale 1):

1. a deterministic reference point ``x_ref`` (``max``: column-wise maximum,
   ``min``: minimum, ``farthest``: the training row farthest from the mean);
2. ``X_aug = [X; x_ref]``; within-class scatter ``S_W`` of the normals
   (``sum (x - mu)(x - mu)^T``), total scatter ``S_T`` of ``X_aug``;
3. ``S_T = Q Lambda Q^T`` with eigenvalues below ``eps_machine * d * lambda_max``
   dropped (Moore-Penrose), ``M = Lambda^{-1/2} Q^T S_W Q Lambda^{-1/2}`` and its
   eigenpairs ``(l, U)``: ``l = v^T S_W v / v^T S_T v`` lies in ``[0, 1]``;
4. keep the compressive (``l < epsilon``) and the structure-preserving
   (``l > 1 - epsilon``) directions (``keep="both"``, the default), or one end,
   or all; if none pass, all are kept; ``W = Q Lambda^{-1/2} U[:, keep]``;
5. the anomaly score of ``x`` is the distance of ``x W`` to its nearest
   neighbour among the projected ``X_aug``, divided by the ``quantile`` of the
   training rows' leave-one-out nearest-neighbour distances, so a score above 1
   flags an anomaly.

Conventions: scikit-learn's, like ``LocalOutlierFactor``. With ``novelty=True`` (the default: fit on
normal rows, score new ones) ``score_samples`` is minus the anomaly score (higher is more normal),
``decision_function = score_samples - offset_`` with ``offset_ = -1`` (negative for outliers) and
``predict`` gives -1 (outlier) / +1. Scoring the training rows themselves that way would match each row to
itself (distance 0), so with ``novelty=False`` only ``fit_predict`` is offered, and it scores each training
row against the others (leave-one-out). ``anomaly_score`` (higher is more anomalous, > 1 flags) is pyod's
direction, which the benchmark's AUROC uses; :class:`PyODStyle` wraps the detector in pyod's conventions.

Optional Ledoit-Wolf shrinkage (``shrinkage=True``) shrinks both scatter
matrices towards a scaled identity with scikit-learn's estimate of the
intensity; then ``l`` is no longer confined to ``[0, 1]``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.covariance import ledoit_wolf_shrinkage
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

REFERENCES = ("max", "min", "farthest")
KEEP_MODES = ("both", "compressive", "structure", "all")


class DVMAD(OutlierMixin, BaseEstimator):
    """Discriminant Vector Machine for anomaly detection.

    >>> detector = DVMAD().fit(X_normal)
    >>> detector.predict(X)            # -1 outlier, +1 inlier
    >>> detector.anomaly_score(X)      # > 1 means anomalous
    >>> DVMAD(novelty=False).fit_predict(X)   # outliers among the training rows themselves
    """

    def __init__(
        self,
        reference: str = "max",
        epsilon: float = 0.1,
        keep: str = "both",
        shrinkage: bool = False,
        quantile: float = 0.95,
        novelty: bool = True,
    ):
        self.reference = reference
        self.epsilon = epsilon
        self.keep = keep
        self.shrinkage = shrinkage
        self.quantile = quantile
        self.novelty = novelty

    def _validate_params(self) -> None:
        if self.reference not in REFERENCES:
            raise ValueError(f"reference must be one of {REFERENCES}, got {self.reference!r}")
        if not 0.0 < self.epsilon < 0.5:
            raise ValueError(f"epsilon must lie in (0, 0.5), got {self.epsilon!r}")
        if self.keep not in KEEP_MODES:
            raise ValueError(f"keep must be one of {KEEP_MODES}, got {self.keep!r}")
        if not 0.0 < self.quantile <= 1.0:
            raise ValueError(f"quantile must lie in (0, 1], got {self.quantile!r}")

    def fit(self, X, y=None) -> DVMAD:
        self._validate_params()
        X = validate_data(self, X, dtype=float, ensure_min_samples=2)
        self.mean_ = X.mean(axis=0)
        scale = X.std(axis=0)
        self.scale_ = np.where(scale > 0, scale, 1.0)
        Z = (X - self.mean_) / self.scale_
        self.reference_point_ = self._reference(Z)
        Z_aug = np.vstack([Z, self.reference_point_])
        S_W = _scatter(Z)
        S_T = _scatter(Z_aug)
        if self.shrinkage:
            S_W, S_T = _shrink(S_W, Z), _shrink(S_T, Z_aug)
        lam, Q = np.linalg.eigh(S_T)
        kept = lam > np.finfo(float).eps * Z.shape[1] * lam.max()
        whiten = Q[:, kept] / np.sqrt(lam[kept])
        ratios, U = np.linalg.eigh(whiten.T @ S_W @ whiten)
        self.ratios_ = ratios
        self.components_ = whiten @ U[:, self._keep_mask(ratios)]
        self.embedding_ = Z_aug @ self.components_
        self._neighbours = NearestNeighbors(n_neighbors=2).fit(self.embedding_)
        loo = self._neighbours.kneighbors(self.embedding_[:-1], n_neighbors=2)[0][:, 1]
        threshold = float(np.quantile(loo, self.quantile))
        self.threshold_ = threshold if threshold > 0 else 1.0
        self.training_anomaly_scores_ = loo / self.threshold_  # leave-one-out: each row against the others
        self.offset_ = -1.0
        return self

    def _reference(self, Z: np.ndarray) -> np.ndarray:
        if self.reference == "max":
            return Z.max(axis=0)
        if self.reference == "min":
            return Z.min(axis=0)
        return Z[np.argmax(np.linalg.norm(Z, axis=1))]  # Z is centred: farthest from the mean

    def _keep_mask(self, ratios: np.ndarray) -> np.ndarray:
        low, high = ratios < self.epsilon, ratios > 1 - self.epsilon
        mask = {"both": low | high, "compressive": low, "structure": high, "all": np.ones_like(low)}[self.keep]
        return mask if mask.any() else np.ones_like(mask)

    def anomaly_score(self, X) -> np.ndarray:
        """Nearest-neighbour distance in the discriminant space over the training threshold (> 1: anomaly)."""
        check_is_fitted(self, "components_")
        X = validate_data(self, X, dtype=float, reset=False)
        projected = ((X - self.mean_) / self.scale_) @ self.components_
        distance = self._neighbours.kneighbors(projected, n_neighbors=1)[0][:, 0]
        return distance / self.threshold_

    def _novelty(self) -> bool:
        if not self.novelty:
            raise AttributeError(
                "scoring new rows needs novelty=True; for the training rows use fit_predict with novelty=False"
            )
        return True

    @available_if(_novelty)
    def score_samples(self, X) -> np.ndarray:
        """Minus the anomaly score: higher is more normal."""
        return -self.anomaly_score(X)

    @available_if(_novelty)
    def decision_function(self, X) -> np.ndarray:
        """``score_samples - offset_`` = 1 - anomaly score: negative for outliers."""
        return self.score_samples(X) - self.offset_

    @available_if(_novelty)
    def predict(self, X) -> np.ndarray:
        """-1 for outliers (anomaly score above 1), +1 for inliers."""
        return np.where(self.decision_function(X) >= 0, 1, -1)

    def _outlier_detection(self) -> bool:
        if self.novelty:
            raise AttributeError(
                "fit_predict scores the training rows themselves: use novelty=False "
                "(with novelty=True, fit then predict new rows)"
            )
        return True

    @available_if(_outlier_detection)
    def fit_predict(self, X, y=None) -> np.ndarray:
        """Fit, then -1 / +1 for each training row scored against the other rows (leave-one-out)."""
        return np.where(self.fit(X).training_anomaly_scores_ > 1.0, -1, 1)


class PyODStyle:
    """DVM-AD in pyod's conventions, for benchmarks written against pyod detectors: ``decision_function``
    higher is more anomalous, ``predict`` gives 1 for anomalies and 0 for normal rows, ``decision_scores_``
    are the training rows' (leave-one-out) scores."""

    def __init__(self, **params):
        self.detector = DVMAD(**params)

    def fit(self, X, y=None) -> PyODStyle:
        self.detector.fit(X)
        self.decision_scores_ = self.detector.training_anomaly_scores_
        return self

    def decision_function(self, X) -> np.ndarray:
        return self.detector.anomaly_score(X)

    def predict(self, X) -> np.ndarray:
        return (self.decision_function(X) > 1.0).astype(int)


def _scatter(Z: np.ndarray) -> np.ndarray:
    centred = Z - Z.mean(axis=0)
    return centred.T @ centred


def _shrink(S: np.ndarray, Z: np.ndarray) -> np.ndarray:
    alpha = ledoit_wolf_shrinkage(Z)
    mu = np.trace(S) / S.shape[0]
    return (1 - alpha) * S + alpha * mu * np.eye(S.shape[0])
