"""The detectors, behind one interface: ``fit(features, labels)`` then ``score(features) -> (seconds,)``.

``features`` is the per-second table a subject's feature rule writes (see :mod:`.features`).
Unsupervised detectors ignore ``fit``. Learned detectors are scikit-learn pipelines; background
seconds are subsampled for training (``background_fraction``, seeded) because seizures are ~1-3 % of
the time. A learned detector whose training folds hold no seizure second cannot be fitted: that raises
(the corpus config must give every fold seizures), it never silently predicts nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression, RidgeClassifierCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

LEARNED = ("logistic_regression", "random_forest", "gradient_boosting", "random_kernel_ridge")
UNSUPERVISED = ("never", "always", "line_length", "gotman")
DETECTORS = UNSUPERVISED + LEARNED


@dataclass
class Features:
    """Per-second inputs of the detectors for a set of recordings, concatenated in time."""

    handcrafted: np.ndarray
    kernels: np.ndarray
    line_length: np.ndarray
    gotman: np.ndarray

    def take(self, mask: np.ndarray) -> Features:
        return Features(self.handcrafted[mask], self.kernels[mask], self.line_length[mask], self.gotman[mask])


def _model(name: str, seed: int, threads: int):
    if name == "logistic_regression":
        return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    if name == "random_forest":
        return RandomForestClassifier(n_estimators=100, min_samples_leaf=5, n_jobs=threads, random_state=seed)
    if name == "gradient_boosting":
        return HistGradientBoostingClassifier(max_iter=150, learning_rate=0.1, random_state=seed)
    if name == "random_kernel_ridge":
        return make_pipeline(StandardScaler(), RidgeClassifierCV(alphas=np.logspace(-1, 4, 6)))
    raise ValueError(f"unknown detector {name!r}; choose from {DETECTORS}")


class Detector:
    """One detector; ``score`` returns a per-second score whose threshold the post-processing sets."""

    def __init__(self, name: str, *, seed: int = 0, threads: int = 1, background_fraction: float = 0.25):
        if name not in DETECTORS:
            raise ValueError(f"unknown detector {name!r}; choose from {DETECTORS}")
        self.name, self.seed, self.threads = name, seed, threads
        self.background_fraction = background_fraction
        self.model = None

    @property
    def learned(self) -> bool:
        return self.name in LEARNED

    def _inputs(self, f: Features) -> np.ndarray:
        return f.kernels if self.name == "random_kernel_ridge" else f.handcrafted

    def fit(self, f: Features, y: np.ndarray) -> Detector:
        if not self.learned:
            return self
        if not y.any():
            raise ValueError(f"{self.name}: the training recordings contain no seizure second")
        rng = np.random.default_rng(self.seed)
        keep = (y == 1) | (rng.random(len(y)) < self.background_fraction)
        self.model = _model(self.name, self.seed, self.threads).fit(self._inputs(f)[keep], y[keep])
        return self

    def score(self, f: Features) -> np.ndarray:
        n = len(f.line_length)
        if self.name == "never":
            return np.zeros(n)
        if self.name == "always":
            return np.ones(n)
        if self.name == "line_length":
            return f.line_length.astype(float)
        if self.name == "gotman":
            return f.gotman.astype(float)
        if self.model is None:
            raise RuntimeError(f"{self.name}: score() before fit()")
        x = self._inputs(f)
        if hasattr(self.model, "n_jobs"):  # a forest sums its trees' votes across threads in any order:
            self.model.n_jobs = 1  # predict on one thread so the scores are the same bytes every run
        if self.name == "random_kernel_ridge":  # decision value -> (0, 1), 0.5 at the ridge's own boundary
            return 1.0 / (1.0 + np.exp(-4.0 * self.model.decision_function(x)))
        return self.model.predict_proba(x)[:, 1]
