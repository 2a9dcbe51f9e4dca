"""seizure_benchmark: the generalisation gap in EEG seizure detection, scored the SzCORE way.

Paper: Dan et al., "Quantifying the Generalization Gap in Seizure Detection: A Large-Scale Empirical
Benchmark via the SzCORE Challenge" (arXiv 2505.18191); spec: ``shared/papers/seizure_benchmark.md``.

Real long-term EEG cannot be obtained here, so the benchmark runs on a **simulated** multi-subject
corpus (a labelled substitution) written and read as real EDF files through mne:

- ``montage``      the 19 channels of the 10-20 system and their scalp distances
- ``seizure_lists`` real seizure durations / intervals parsed from CHB-MIT and Siena seizure lists
- ``simulator``    subject profiles and recordings: 1/f background, alpha, artifacts, seizures
- ``bids``         EDF + SzCORE TSV files in a BIDS-style layout (mne / edfio)
- ``features``     per-second windows: line length, band powers, random-kernel PPV, Gotman half-waves
- ``detectors``    classical, learned and trivial detectors behind one interface
- ``postprocess``  scores at 1 Hz -> events (smoothing, threshold, minimum duration)
- ``scoring``      SzCORE event/sample scoring through ``timescoring`` and the per-subject aggregation
- ``ranking``      per-subject ranks, Kendall's W and tau, bootstrap rank intervals
- ``challenge``    the published 2025 challenge results (leaderboard, both aggregation variants)
"""

# what the paper-scale replica needs (icml26.common.lm.replicas.sources): EDF recordings in the SzCORE BIDS layout
# in place of the real EEG a user copies in


def replica_data(origin: str, folder) -> None:
    from .bids import write_replica

    write_replica(folder)
