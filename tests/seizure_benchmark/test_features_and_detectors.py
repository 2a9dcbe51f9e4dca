"""Feature windows, the Gotman and line-length statistics, post-processing and the detector interface."""

import numpy as np
import pytest

from icml26.seizure_benchmark import features, postprocess, simulator
from icml26.seizure_benchmark.detectors import Detector, Features

FS = 128


def test_labels_mark_the_seconds_a_seizure_overlaps():
    y = features.labels([(10.0, 15.0), (30.4, 31.6)], 40)
    assert y.sum() == 5 + 2 and y[10] == 1 and y[14] == 1 and y[15] == 0 and y[30] == 1 and y[31] == 1


def test_band_powers_and_line_length_of_a_pure_sinusoid():
    t = np.arange(60 * FS) / FS
    x = np.tile(10.0 * np.sin(2 * np.pi * 10.0 * t), (19, 1))
    table, ratio = features.handcrafted(x, FS, 4.0)
    assert table.shape == (60, len(features.HANDCRAFTED))
    names = features.HANDCRAFTED
    inner = slice(2, -2)  # the first and last windows are reflected at the edges
    alpha = table[inner, names.index("log_alpha_mean")]
    for other in ("delta", "theta", "beta", "gamma"):
        assert (alpha > table[inner, names.index(f"log_{other}_mean")] + 2).all()  # 100x more power
    # line length of A sin(2 pi f t) per sample = 4 A f / fs on average
    ll = table[:, names.index("line_length_mean")]
    np.testing.assert_allclose(ll[5:-5], 4 * 10 * 10 / FS, rtol=0.02)
    np.testing.assert_allclose(ratio, 1.0, rtol=0.02)


def test_half_waves_of_a_sine_are_its_extrema_and_ignore_small_wiggles():
    t = np.arange(10 * FS) / FS
    y = np.sin(2 * np.pi * 2.0 * t) + 0.05 * np.sin(2 * np.pi * 40.0 * t)
    assert len(features.half_waves(y, hysteresis=0.5)) == pytest.approx(2 * 2 * 10, abs=1)
    assert len(features.half_waves(y, hysteresis=0.0)) > 100


def test_gotman_fires_on_a_rhythmic_discharge_and_not_on_background():
    profile = simulator.draw_profiles(1, simulator.CorpusSettings(seizure_free_fraction=0.0), np.random.default_rng(0))[
        0
    ]
    profile = simulator.SubjectProfile(
        **{
            **profile.as_row(),
            "seizure_uv": 8 * profile.background_uv,
            "spatial_length_cm": 20.0,
            "spread_s_per_cm": 0.1,
            "blinks_per_min": 0.0,
            "muscle_per_h": 0.0,
            "pops_per_h": 0.0,
            "chewing_per_h": 0.0,
        }
    )
    x = simulator.simulate_recording(profile, 240.0, FS, [(150.0, 200.0)], np.random.default_rng(1))
    score = features.gotman(x, FS, amplitude_ratio=2.0)
    assert score[150:165].max() > 0.3
    assert score[40:140].max() < 0.1


def test_postprocessing_threshold_smoothing_and_minimum_duration():
    score = np.zeros(100)
    score[10:20] = 1.0
    score[50:53] = 1.0
    assert postprocess.events(score, threshold=0.5) == [(10.0, 20.0), (50.0, 53.0)]
    assert postprocess.events(score, threshold=0.5, min_duration_s=5) == [(10.0, 20.0)]
    # a 5 s moving average: the 3 s run peaks at 3/5, the 10 s run is 4/5 one second inside its edges
    assert postprocess.events(score, threshold=0.5, smooth_s=5) == [(10.0, 20.0), (50.0, 53.0)]
    assert postprocess.events(score, threshold=0.7, smooth_s=5) == [(11.0, 19.0)]
    assert postprocess.events(np.ones(30), threshold=0.5) == [(0.0, 30.0)]


def _features(n, rng):
    return Features(rng.normal(size=(n, 21)), rng.normal(size=(n, 21)), rng.random(n), rng.random(n))


def test_learned_detector_needs_seizures_and_trivial_ones_are_constant():
    rng = np.random.default_rng(0)
    f = _features(200, rng)
    with pytest.raises(ValueError, match="no seizure second"):
        Detector("random_forest").fit(f, np.zeros(200, dtype=int))
    assert Detector("never").score(f).max() == 0 and Detector("always").score(f).min() == 1
    with pytest.raises(ValueError, match="unknown detector"):
        Detector("oracle")


@pytest.mark.parametrize("name", ["logistic_regression", "random_forest", "gradient_boosting", "random_kernel_ridge"])
def test_learned_detectors_separate_a_separable_problem(name):
    rng = np.random.default_rng(1)
    f = _features(600, rng)
    y = (rng.random(600) < 0.2).astype(int)
    f.handcrafted[:, 0] += 4 * y
    f.kernels[:, 0] += 4 * y
    score = Detector(name, seed=0).fit(f, y).score(f)
    assert score.shape == (600,) and ((score >= 0.5) == (y == 1)).mean() > 0.95
