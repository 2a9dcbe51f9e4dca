"""A simulated multi-subject scalp-EEG corpus with seizures: the benchmark's controlled stand-in.

SUBSTITUTION: the paper scores algorithms on 4,360 h of private clinical EEG. That cannot be obtained
here, so every recording is generated. The generator is ours; its ingredients follow the spec:

- background: 1/f^beta noise per channel, mixed across channels with a correlation that decays with
  electrode distance (``exp(-d / BACKGROUND_LENGTH_M)``), plus occipital alpha and frontal slow
  (delta) activity with wandering envelopes; common-average referenced at the end;
- artifacts: eye blinks (frontopolar), muscle bursts (temporal, 20-70 Hz), electrode pops (one
  channel, step with exponential decay) and rhythmic chewing (1-2 Hz muscle bursts: a seizure mimic);
- seizures: a rhythmic discharge whose frequency falls exponentially from ``f_start`` to ``f_end``, in
  one of three per-subject morphologies - spike-and-wave (7-10 Hz -> 2.5-4 Hz, the spec's pattern),
  rhythmic theta/delta (4-7 Hz -> 2-3.5 Hz, sinusoidal) or low-voltage fast activity (15-25 Hz ->
  5-8 Hz, amplitude halved) - with an amplitude ramp, focal onset at one electrode spreading to the
  others with a delay proportional to distance, then post-ictal slowing (delta activity, attenuated
  background);
- timing: durations and inter-seizure intervals are drawn from real seizure lists
  (:mod:`.seizure_lists`), scaled per subject (``duration_scale``: some subjects have seizures longer
  than 300 s; ``interval_scale``: clustered seizures).

Subjects differ strongly (seizure morphology and amplitude, background level and slow-wave content,
artifact rates, focus, seizure-free subjects) so that patient-level generalisation is genuinely hard.
``SubjectProfile`` holds one subject's draw; ``simulate_recording`` is a pure function of (profile,
duration, fs, rng), so a user can generate a corpus with other parameters through
:func:`draw_profiles` and :func:`simulate_recording`. Amplitudes are in microvolts.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import signal

from . import montage

N_CHANNELS = len(montage.CHANNELS)
BACKGROUND_LENGTH_M = 0.05  # correlation length of the background across the scalp
MORPHOLOGIES = {  # name: (f_start range, f_end range, amplitude factor)
    "spike_wave": ((7.0, 10.0), (2.5, 4.0), 1.0),
    "rhythmic": ((4.0, 7.0), (2.0, 3.5), 1.0),
    "fast": ((15.0, 25.0), (5.0, 8.0), 0.5),
}


@dataclass(frozen=True)
class CorpusSettings:
    """What a corpus draw may vary; the config's ``corpus`` section."""

    seizure_free_fraction: float = 0.15
    long_seizure_fraction: float = 0.15
    background_uv: float = 20.0
    background_spread: float = 0.5  # log-normal sigma of the background level across subjects
    seizure_amplitude_ratio: float = 2.5  # median seizure peak / background sd
    seizure_amplitude_spread: float = 0.6  # log-normal sigma across subjects
    min_interval_scale: float = 0.02


@dataclass(frozen=True)
class SubjectProfile:
    """One subject's fixed characteristics (drawn once, used for all its recordings)."""

    subject: str
    has_seizures: bool
    p_seizure_run: float
    background_uv: float
    beta: float
    alpha_hz: float
    alpha_uv: float
    delta_uv: float
    morphology: str
    seizure_uv: float
    f_start: float
    f_end: float
    focus: str
    spread_s_per_cm: float
    spatial_length_cm: float
    duration_scale: float
    interval_scale: float
    postictal_s: float
    blinks_per_min: float
    muscle_per_h: float
    pops_per_h: float
    chewing_per_h: float

    def as_row(self) -> dict:
        return asdict(self)


def draw_profiles(n_subjects: int, settings: CorpusSettings, rng: np.random.Generator) -> list[SubjectProfile]:
    """``n_subjects`` subjects; ``round(seizure_free_fraction * n)`` of them never seize.

    Subject 01 always has seizures: it is the one the example figure shows.
    """
    n_free = min(int(round(settings.seizure_free_fraction * n_subjects)), n_subjects - 1)
    free = set((1 + rng.choice(n_subjects - 1, size=n_free, replace=False)).tolist()) if n_free else set()
    n_long = int(round(settings.long_seizure_fraction * n_subjects))
    long = set(rng.choice(n_subjects, size=n_long, replace=False).tolist()) if n_long else set()
    profiles = []
    for i in range(n_subjects):
        background = settings.background_uv * float(np.exp(rng.normal(0, settings.background_spread)))
        morphology = str(rng.choice(list(MORPHOLOGIES)))
        f_start, f_end, gain = MORPHOLOGIES[morphology]
        ratio = settings.seizure_amplitude_ratio * float(np.exp(rng.normal(0, settings.seizure_amplitude_spread)))
        profiles.append(
            SubjectProfile(
                subject=f"{i + 1:02d}",
                has_seizures=i not in free,
                p_seizure_run=float(rng.uniform(0.5, 1.0)),
                background_uv=background,
                beta=float(rng.uniform(1.4, 2.2)),
                alpha_hz=float(rng.uniform(8.5, 11.5)),
                alpha_uv=background * float(rng.uniform(0.3, 1.5)),
                delta_uv=background * float(rng.uniform(0.0, 1.5)),
                morphology=morphology,
                seizure_uv=background * ratio * gain,
                f_start=float(rng.uniform(*f_start)),
                f_end=float(rng.uniform(*f_end)),
                focus=str(rng.choice(montage.CHANNELS)),
                spread_s_per_cm=float(rng.uniform(0.2, 2.0)),
                spatial_length_cm=float(rng.uniform(3.0, 12.0)),
                duration_scale=float(rng.uniform(2.5, 4.0)) if i in long else float(np.exp(rng.normal(0, 0.25))),
                interval_scale=float(np.exp(rng.uniform(np.log(settings.min_interval_scale), 0.0))),
                postictal_s=float(rng.uniform(30, 120)),
                blinks_per_min=float(rng.uniform(0.5, 12)),
                muscle_per_h=float(np.exp(rng.uniform(np.log(2), np.log(120)))),
                pops_per_h=float(np.exp(rng.uniform(np.log(0.5), np.log(20)))),
                chewing_per_h=float(np.exp(rng.uniform(np.log(0.2), np.log(30)))),
            )
        )
    return profiles


def seizure_times(
    profile: SubjectProfile,
    run_has_seizure: bool,
    duration_s: float,
    durations: np.ndarray,
    intervals: np.ndarray,
    rng: np.random.Generator,
) -> list[tuple[float, float]]:
    """Onsets and ends (s) of the seizures of one recording; at least 30 s of margin at both ends."""
    if not (profile.has_seizures and run_has_seizure):
        return []
    events: list[tuple[float, float]] = []
    limit = duration_s - 30.0
    length = min(float(rng.choice(durations)) * profile.duration_scale, limit - 30.0 - 1.0)
    onset = float(rng.uniform(30.0, limit - length))
    while True:
        events.append((round(onset, 1), round(onset + length, 1)))
        onset = onset + float(rng.choice(intervals)) * profile.interval_scale
        length = float(rng.choice(durations)) * profile.duration_scale
        if onset <= events[-1][1] + 10.0 or onset + length > limit:
            return events


def _coloured_noise(n: int, fs: float, beta: float, rng: np.random.Generator) -> np.ndarray:
    """(19, n) unit-variance noise with a 1/f^beta spectrum above 0.5 Hz (high-passed below)."""
    spectrum = np.fft.rfft(rng.standard_normal((N_CHANNELS, n)), axis=1)
    f = np.fft.rfftfreq(n, 1.0 / fs)
    shape = np.where(f >= 0.5, np.maximum(f, 0.5) ** (-beta / 2.0), 0.0)
    noise = np.fft.irfft(spectrum * shape, n=n, axis=1)
    return noise / noise.std(axis=1, keepdims=True)


def _smooth_envelope(n: int, fs: float, cutoff_hz: float, rng: np.random.Generator) -> np.ndarray:
    """A positive, slowly wandering envelope with mean about 1."""
    sos = signal.butter(2, cutoff_hz, fs=fs, output="sos")
    raw = signal.sosfiltfilt(sos, rng.standard_normal(n))
    raw = raw / (raw.std() + 1e-12)
    return np.clip(1.0 + 0.5 * raw, 0.0, None)


def _band_noise(n: int, fs: float, low: float, high: float, rng: np.random.Generator) -> np.ndarray:
    sos = signal.butter(4, [low, high], btype="band", fs=fs, output="sos")
    x = signal.sosfilt(sos, rng.standard_normal(n + int(fs)))[int(fs) :]
    return x / (x.std() + 1e-12)


def spike_wave(phase: np.ndarray) -> np.ndarray:
    """Spike-and-wave cycle as a function of phase (radians): a sharp spike, then a slow wave."""
    u = np.mod(phase, 2 * np.pi)
    return np.exp(-(((u - 1.2) / 0.6) ** 2)) - 0.6 * np.exp(-(((u - 3.8) / 1.0) ** 2))


def _add_seizure(
    x: np.ndarray,
    background: np.ndarray,
    start: float,
    end: float,
    fs: float,
    p: SubjectProfile,
    rng: np.random.Generator,
) -> None:
    n = x.shape[1]
    d = end - start
    t = np.arange(int(round(d * fs))) / fs
    freq = p.f_start * (p.f_end / p.f_start) ** (t / d)
    phase = 2 * np.pi * np.cumsum(freq) / fs + rng.uniform(0, 2 * np.pi)
    ramp = np.clip(t / min(10.0, 0.2 * d), 0.3, 1.0) * np.clip((d - t) / (0.1 * d), 0.0, 1.0) ** 0.5
    wave = (spike_wave(phase) if p.morphology == "spike_wave" else np.sin(phase)) * ramp
    dist_cm = montage.distances()[montage.CHANNELS.index(p.focus)] * 100.0
    for c in range(N_CHANNELS):
        delay = int(round(p.spread_s_per_cm * dist_cm[c] * fs))
        gain = p.seizure_uv * np.exp(-dist_cm[c] / p.spatial_length_cm)
        i0 = int(round(start * fs)) + delay
        m = min(len(wave) - delay, n - i0)
        if m > 0:
            x[c, i0 : i0 + m] += gain * wave[:m]
    # post-ictal slowing: attenuated background and decaying delta activity
    i_end = int(round(end * fs))
    m = min(int(round(p.postictal_s * fs)), n - i_end)
    if m > 0:
        decay = np.exp(-np.arange(m) / (0.4 * p.postictal_s * fs))
        background[:, i_end : i_end + m] *= 1.0 - 0.5 * decay
        for c in range(N_CHANNELS):
            x[c, i_end : i_end + m] += 1.5 * p.background_uv * decay * _band_noise(m, fs, 0.5, 2.0, rng)


def _poisson_times(rate_per_s: float, duration_s: float, rng: np.random.Generator) -> np.ndarray:
    return np.sort(rng.uniform(0, duration_s, size=rng.poisson(rate_per_s * duration_s)))


def _add_artifacts(x: np.ndarray, fs: float, p: SubjectProfile, rng: np.random.Generator) -> None:
    n = x.shape[1]
    duration = n / fs
    front = montage.indices(montage.FRONTOPOLAR)
    near_front = montage.indices(("F3", "F4", "F7", "F8", "Fz"))
    for t0 in _poisson_times(p.blinks_per_min / 60.0, duration, rng):
        width = int(rng.uniform(0.25, 0.4) * fs)
        i0 = int(t0 * fs)
        m = min(width, n - i0)
        bump = rng.uniform(80, 150) * np.hanning(width)[:m]
        x[front, i0 : i0 + m] += bump
        x[near_front, i0 : i0 + m] += 0.3 * bump
    sides = (montage.indices(("F7", "T3", "T5")), montage.indices(("F8", "T4", "T6")))
    for t0 in _poisson_times(p.muscle_per_h / 3600.0, duration, rng):
        m = min(int(rng.uniform(1, 10) * fs), n - int(t0 * fs))
        if m < 8:
            continue
        i0, amp = int(t0 * fs), rng.uniform(15, 50)
        for c in sides[int(rng.integers(2))]:
            x[c, i0 : i0 + m] += amp * np.hanning(m) * _band_noise(m, fs, 20.0, min(70.0, fs / 2.2), rng)
    for t0 in _poisson_times(p.pops_per_h / 3600.0, duration, rng):
        c, i0 = int(rng.integers(N_CHANNELS)), int(t0 * fs)
        m = n - i0
        tau = rng.uniform(0.3, 1.0) * fs
        x[c, i0:] += rng.choice([-1, 1]) * rng.uniform(100, 300) * np.exp(-np.arange(m) / tau)
    both = np.concatenate(sides)
    for t0 in _poisson_times(p.chewing_per_h / 3600.0, duration, rng):
        length, rate = rng.uniform(5, 30), rng.uniform(1.0, 2.0)
        amp = rng.uniform(30, 80)
        for k in range(int(length * rate)):
            i0 = int((t0 + k / rate) * fs)
            m = min(int(rng.uniform(0.15, 0.25) * fs), n - i0)
            if m < 8:
                break
            burst = amp * np.hanning(m) * _band_noise(m, fs, 20.0, min(70.0, fs / 2.2), rng)
            x[both, i0 : i0 + m] += burst


def simulate_recording(
    profile: SubjectProfile, duration_s: float, fs: float, events: list[tuple[float, float]], rng: np.random.Generator
) -> np.ndarray:
    """(19, duration_s * fs) common-average-referenced EEG in microvolts with the given seizures."""
    n = int(round(duration_s * fs))
    mixing = np.linalg.cholesky(np.exp(-montage.distances() / BACKGROUND_LENGTH_M) + 1e-9 * np.eye(N_CHANNELS))
    background = profile.background_uv * (mixing @ _coloured_noise(n, fs, profile.beta, rng))
    background /= np.sqrt((mixing**2).sum(axis=1))[:, None]
    t = np.arange(n) / fs
    occipital = montage.positions()[montage.indices(("O1", "O2"))].mean(axis=0)
    alpha_gain = np.exp(-np.linalg.norm(montage.positions() - occipital, axis=1) / 0.05)
    alpha = (
        profile.alpha_uv
        * _smooth_envelope(n, fs, 0.1, rng)
        * np.sin(2 * np.pi * profile.alpha_hz * t + np.cumsum(rng.normal(0, 0.02, n)))
    )
    x = alpha_gain[:, None] * alpha[None, :]
    frontal = montage.positions()[montage.CHANNELS.index("Fz")]
    delta_gain = np.exp(-np.linalg.norm(montage.positions() - frontal, axis=1) / 0.08)
    delta = profile.delta_uv * _smooth_envelope(n, fs, 0.02, rng) * _band_noise(n, fs, 0.5, 3.0, rng)
    x += delta_gain[:, None] * delta[None, :]
    for start, end in events:
        _add_seizure(x, background, start, end, fs, profile, rng)
    _add_artifacts(x, fs, profile, rng)
    x += background
    return x - x.mean(axis=0, keepdims=True)
