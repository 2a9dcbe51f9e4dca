"""Per-second descriptions of a recording: what every detector reads.

Every second ``t`` of a recording is described by the window of ``window_s`` seconds centred on
``t + 0.5`` (edges reflected), so detector outputs are 1 Hz series aligned with SzCORE's sample scoring.

- :func:`handcrafted` - per channel line length, log band powers (delta 0.5-4, theta 4-8, alpha 8-13,
  beta 13-30, gamma 30-45 Hz, Hann-windowed periodogram) and log total power; each summarised across
  channels by mean, max and standard deviation (21 features). Absolute microvolt scales on purpose:
  no per-subject normalisation, as in the feature pipelines the paper's entrants used.
- :func:`line_length_ratio` - line length over the recording's median line length, per channel, then
  averaged over channels (the classical line-length detector's statistic; ours).
- :func:`gotman` - a simplified Gotman (1982) detector: half-waves of the 1-20 Hz signal in 2 s epochs;
  a channel fires when the mean half-wave amplitude exceeds ``amplitude_ratio`` times its background
  (median epoch amplitude 12-28 s earlier), the half-wave rhythm is 3-20 Hz and the coefficient of
  variation of half-wave durations is below ``max_cv``. The score is the fraction of channels firing.
  Simplification: no merging of small half-waves and no sleep/alert state handling.
- :func:`random_kernels` - MiniRocket-style features: the 84 length-9 kernels with weights in {-1, 2}
  (three 2s) at dilations cycling 1, 2, 4, 8 on the 32 Hz signal (per-channel robust z-score), biases
  at low-discrepancy quantiles (golden-ratio sequence) of the recording's own output, proportion of
  positive values (PPV) per window, averaged and maximised over channels (168 features).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from numpy.lib.stride_tricks import sliding_window_view
from scipy import signal

BANDS = {"delta": (0.5, 4.0), "theta": (4.0, 8.0), "alpha": (8.0, 13.0), "beta": (13.0, 30.0), "gamma": (30.0, 45.0)}
PER_CHANNEL = ["line_length", *[f"log_{b}" for b in BANDS], "log_power"]
HANDCRAFTED = [f"{name}_{stat}" for name in PER_CHANNEL for stat in ("mean", "max", "std")]
KERNELS = np.array([[2.0 if j in triple else -1.0 for j in range(9)] for triple in combinations(range(9), 3)])
DILATIONS = (1, 2, 4, 8)
ROCKET_FS = 32
CHUNK_S = 240


def n_seconds(x: np.ndarray, fs: float) -> int:
    return int(x.shape[1] // fs)


def _windows(x: np.ndarray, fs: int, window_s: float) -> np.ndarray:
    """(channels, seconds, window samples) view: the window of second t is centred on t + 0.5 s."""
    width = int(round(window_s * fs))
    left = (width - fs) // 2
    padded = np.pad(x, ((0, 0), (left, width - fs - left)), mode="reflect")
    return sliding_window_view(padded, width, axis=1)[:, ::fs][:, : n_seconds(x, fs)]


def _per_channel(x: np.ndarray, fs: int, window_s: float) -> np.ndarray:
    """(seconds, channels, len(PER_CHANNEL)) per-channel window features."""
    view = _windows(x, fs, window_s)
    width = view.shape[-1]
    taper = np.hanning(width)
    freqs = np.fft.rfftfreq(width, 1.0 / fs)
    masks = [(freqs >= lo) & (freqs < hi) for lo, hi in BANDS.values()]
    total = (freqs >= 0.5) & (freqs < 45.0)
    out = np.empty((view.shape[1], view.shape[0], len(PER_CHANNEL)))
    for t0 in range(0, view.shape[1], CHUNK_S):
        w = np.asarray(view[:, t0 : t0 + CHUNK_S, :])
        power = np.abs(np.fft.rfft((w - w.mean(axis=-1, keepdims=True)) * taper, axis=-1)) ** 2 / width
        feats = [np.abs(np.diff(w, axis=-1)).mean(axis=-1)]
        feats += [np.log10(power[..., m].sum(axis=-1) + 1e-3) for m in masks]
        feats.append(np.log10(power[..., total].sum(axis=-1) + 1e-3))
        out[t0 : t0 + w.shape[1]] = np.stack(feats, axis=-1).transpose(1, 0, 2)
    return out


def handcrafted(x: np.ndarray, fs: int, window_s: float) -> tuple[np.ndarray, np.ndarray]:
    """(seconds, 21) features named :data:`HANDCRAFTED`, and the (seconds,) line-length ratio score."""
    per = _per_channel(x, fs, window_s)
    summary = np.stack([per.mean(axis=1), per.max(axis=1), per.std(axis=1)], axis=-1)
    ll = per[..., 0]
    ratio = (ll / np.median(ll, axis=0, keepdims=True)).mean(axis=1)
    return summary.reshape(len(per), -1), ratio


def half_waves(y: np.ndarray, hysteresis: float) -> np.ndarray:
    """Indices of the turning points of ``y`` that move at least ``hysteresis`` from the previous one.

    Gotman's detector merges the small wiggles riding on a wave into the wave; here a reversal counts
    only once the signal has moved ``hysteresis`` away from the last accepted extremum.
    """
    d = np.diff(y)
    raw = np.flatnonzero(np.sign(d[1:]) != np.sign(d[:-1])) + 1
    kept: list[int] = []
    for i in raw:
        if not kept:
            kept.append(int(i))
        elif len(kept) >= 2 and (y[i] - y[kept[-1]]) * (y[kept[-1]] - y[kept[-2]]) > 0:
            kept[-1] = int(i)  # the same excursion continues: move the extremum
        elif len(kept) == 1 or abs(y[i] - y[kept[-1]]) >= hysteresis:
            if len(kept) == 1 or (y[i] - y[kept[-1]]) * (y[kept[-1]] - y[kept[-2]]) < 0:
                kept.append(int(i))
        elif (
            len(kept) >= 2
            and (y[i] - y[kept[-2]]) * (y[kept[-1]] - y[kept[-2]]) > 0
            and abs(y[i] - y[kept[-2]]) > abs(y[kept[-1]] - y[kept[-2]])
        ):
            kept[-1] = int(i)  # a small reversal, then a new extreme in the old direction
    return np.asarray(kept, dtype=np.int64)


def gotman(
    x: np.ndarray,
    fs: int,
    amplitude_ratio: float = 3.0,
    max_cv: float = 0.6,
    rhythm_hz: tuple[float, float] = (3.0, 20.0),
    hysteresis_sd: float = 0.5,
) -> np.ndarray:
    """(seconds,) fraction of channels meeting the half-wave criteria in the 2 s epoch centred on t + 0.5."""
    sos = signal.butter(4, [1.0, 20.0], btype="band", fs=fs, output="sos")
    y = signal.sosfiltfilt(sos, x, axis=1)
    seconds = n_seconds(x, fs)
    half = fs // 2
    n_bins = 2 * seconds
    fired = np.zeros((x.shape[0], seconds), dtype=bool)
    for c in range(x.shape[0]):
        sd = 1.4826 * np.median(np.abs(y[c] - np.median(y[c])))
        extrema = half_waves(y[c], hysteresis_sd * sd)
        amp = np.abs(np.diff(y[c, extrema]))
        dur = np.diff(extrema) / fs
        where = np.minimum(extrema[:-1] // half, n_bins - 1)
        sums = [np.bincount(where, weights=w, minlength=n_bins) for w in (np.ones_like(amp), amp, dur, dur**2)]
        # epoch of second t = half-second bins 2t-1 .. 2t+2
        epoch = [np.convolve(s, np.ones(4), mode="full")[2 : 2 + n_bins : 2][:seconds] for s in sums]
        count, a_sum, d_sum, d2_sum = epoch
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_amp = a_sum / count
            mean_dur = d_sum / count
            cv = np.sqrt(np.maximum(d2_sum / count - mean_dur**2, 0.0)) / mean_dur
        background = pd.Series(mean_amp).rolling(16, min_periods=4).median().shift(12).to_numpy()
        rhythm = 1.0 / (2.0 * mean_dur)
        fired[c] = (
            (mean_amp > amplitude_ratio * background)
            & (rhythm >= rhythm_hz[0])
            & (rhythm <= rhythm_hz[1])
            & (cv < max_cv)
        )
    return fired.mean(axis=0)


def _quantiles() -> np.ndarray:
    return np.mod((np.arange(len(KERNELS)) + 1) * (np.sqrt(5.0) - 1.0) / 2.0, 1.0)


def random_kernels(x: np.ndarray, fs: int, window_s: float) -> np.ndarray:
    """(seconds, 2 * 84) PPV features (channel mean, then channel max) of the MiniRocket-style kernels."""
    if fs % ROCKET_FS:
        raise ValueError(f"sampling rate {fs} Hz is not a multiple of {ROCKET_FS} Hz")
    z = signal.resample_poly(x, 1, fs // ROCKET_FS, axis=1)
    med = np.median(z, axis=1, keepdims=True)
    mad = np.median(np.abs(z - med), axis=1, keepdims=True) + 1e-9
    z = (z - med) / (1.4826 * mad)
    seconds = n_seconds(x, fs)
    quantile = _quantiles()
    mean_ppv = np.empty((seconds, len(KERNELS)))
    max_ppv = np.empty((seconds, len(KERNELS)))
    for k, weights in enumerate(KERNELS):
        dilation = DILATIONS[k % len(DILATIONS)]
        padded = np.pad(z, ((0, 0), (4 * dilation, 4 * dilation)))
        n = z.shape[1]
        total = sum(padded[:, j * dilation : j * dilation + n] for j in range(9))
        out = 3.0 * sum(padded[:, j * dilation : j * dilation + n] for j in np.flatnonzero(weights > 0)) - total
        bias = np.quantile(out[:, ::8], quantile[k])
        ppv = _windows((out > bias).astype(np.float64), ROCKET_FS, window_s).mean(axis=-1)
        mean_ppv[:, k] = ppv.mean(axis=0)
        max_ppv[:, k] = ppv.max(axis=0)
    return np.concatenate([mean_ppv, max_ppv], axis=1)


def labels(events: list[tuple[float, float]], seconds: int) -> np.ndarray:
    """(seconds,) 1 where second t overlaps a seizure (the 1 Hz mask timescoring builds)."""
    y = np.zeros(seconds, dtype=np.int8)
    for start, end in events:
        y[int(round(start)) : int(round(end))] = 1
    return y
