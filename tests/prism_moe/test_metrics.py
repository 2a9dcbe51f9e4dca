"""Per-task metrics against scikit-learn and by hand, Delta_m's sign conventions, the bootstrap."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.prism_moe import metrics as m
from icml26.prism_moe.tasks import SCENES


def _targets(n=6, size=8, seed=0):
    rng = np.random.default_rng(seed)
    normals = rng.normal(size=(n, 3, size, size))
    return {
        "seg": rng.integers(0, 5, (n, size, size)),
        "depth": rng.random((n, size, size)),
        "edges": rng.integers(0, 2, (n, size, size)),
        "normals": normals / np.linalg.norm(normals, axis=1, keepdims=True),
    }


def _scores(prediction, target):
    stats = m.image_stats(prediction, target, SCENES)
    return m.scores(m.weighted(stats, np.ones(len(target["seg"]))))


def test_a_perfect_prediction_scores_perfectly():
    t = _targets()
    s = _scores(t | {"edges": t["edges"].astype(float)}, t)
    assert s["miou"] == 1 and s["depth_rmse"] == 0 and s["edge_f1"] == 1
    assert s["normal_angle"] == pytest.approx(0, abs=1e-5)


def test_metrics_match_scikit_learn_and_hand_formulas():
    from sklearn.metrics import f1_score, jaccard_score

    t, p = _targets(seed=0), _targets(seed=1)
    probabilities = np.random.default_rng(2).random(t["edges"].shape)
    s = _scores(p | {"edges": probabilities}, t)
    assert s["miou"] == pytest.approx(jaccard_score(t["seg"].ravel(), p["seg"].ravel(), average="macro"))
    assert s["depth_rmse"] == pytest.approx(np.sqrt(np.mean((p["depth"] - t["depth"]) ** 2)))
    best = max(f1_score(t["edges"].ravel(), probabilities.ravel() >= th) for th in m.EDGE_THRESHOLDS)
    assert s["edge_f1"] == pytest.approx(best)
    angle = np.degrees(np.arccos(np.clip((p["normals"] * t["normals"]).sum(1), -1, 1))).mean()
    assert s["normal_angle"] == pytest.approx(angle)


def test_weighted_sums_equal_the_stats_of_the_chosen_images():
    t, p = _targets(seed=0), _targets(seed=1)
    stats = m.image_stats(p | {"edges": p["edges"].astype(float)}, t, SCENES)
    weights = np.array([2, 0, 1, 0, 0, 1.0])
    subset = [0, 0, 2, 5]
    direct = m.image_stats(
        {k: v[subset] for k, v in (p | {"edges": p["edges"].astype(float)}).items()},
        {k: v[subset] for k, v in t.items()},
        SCENES,
    )
    for key, value in m.scores(m.weighted(stats, weights)).items():
        assert value == pytest.approx(m.scores(m.weighted(direct, np.ones(4)))[key])


def test_delta_m_signs_follow_which_direction_is_better():
    reference = {"miou": 0.5, "depth_rmse": 0.2, "edge_f1": 0.5, "normal_angle": 20.0}
    better = {"miou": 0.55, "depth_rmse": 0.18, "edge_f1": 0.55, "normal_angle": 18.0}  # +10 % on each
    assert m.delta_m(better, reference) == pytest.approx(10.0)
    worse = {"miou": 0.45, "depth_rmse": 0.22, "edge_f1": 0.45, "normal_angle": 22.0}
    assert m.delta_m(worse, reference) == pytest.approx(-10.0)
    assert m.delta_m(reference, reference) == 0


def test_the_bootstrap_is_repeatable_and_centred_on_the_difference():
    t = _targets(n=40)
    good = m.image_stats(t | {"edges": t["edges"].astype(float)}, t, SCENES)
    noisy = _targets(n=40, seed=3)
    bad = m.image_stats(noisy | {"edges": noisy["edges"].astype(float)}, t, SCENES)
    a = m.bootstrap_delta_m({"ref": [bad], "good": [good, good]}, "ref", resamples=200, seed=0)
    b = m.bootstrap_delta_m({"ref": [bad], "good": [good, good]}, "ref", resamples=200, seed=0)
    assert np.array_equal(a["good"], b["good"]) and (a["ref"] == 0).all()
    assert (a["good"] > 0).all()
