"""The functions the Snakemake rules of ``workflow/rules/seizure_benchmark.smk`` call."""

from __future__ import annotations

import shutil
import time
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..common.io import (
    atomic_path,
    read_csv,
    read_csvs,
    read_npz,
    require,
    temporary_sibling,
    write_csv,
    write_json,
    write_npz,
)
from ..common.sources import checked

if TYPE_CHECKING:  # annotations only; each rule function imports what it runs
    from . import simulator
    from .detectors import Features

PROTOCOLS = ("heldout", "within")


def _subject_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """Restore the two-digit ``subject`` labels that CSV readers turn into integers."""
    frame["subject"] = frame["subject"].astype(str).str.zfill(2)
    return frame


def _read_by_subject(path: str) -> pd.DataFrame:
    return _subject_labels(read_csv(path))


# --- data --------------------------------------------------------------------------------------


def statistics(lists: list[str], table: str, *, max_duration_s: float) -> None:
    """Real seizure durations and intervals, parsed (every line checked) from the seizure lists (DVC-tracked)."""
    from . import seizure_lists

    stats = seizure_lists.statistics(list(lists), max_duration_s)
    print(
        f"{(stats['kind'] == 'duration').sum()} durations, {(stats['kind'] == 'interval').sum()} intervals", flush=True
    )
    write_csv(table, stats)


def challenge_data(source: str, copied: str) -> None:
    """Copy one published results file into the project after checking it parses."""
    from . import challenge

    checked(source)
    challenge.leaderboard(source) if Path(source).name == "challenge_results.json" else challenge.per_dataset(source)
    with atomic_path(copied) as tmp:
        shutil.copyfile(source, tmp)


def profiles(table: str, *, subjects: int, settings: dict, seed: int) -> None:
    """Draw every subject's profile (the corpus's hidden ground truth, kept for inspection)."""
    from . import simulator

    known = {f.name for f in fields(simulator.CorpusSettings)}
    corpus = simulator.CorpusSettings(**{k: v for k, v in settings.items() if k in known})
    drawn = simulator.draw_profiles(subjects, corpus, np.random.default_rng([seed, 0]))
    write_csv(table, pd.DataFrame([p.as_row() for p in drawn]))


def _profile(table: str, subject: str) -> simulator.SubjectProfile:
    from . import simulator

    frame = _read_by_subject(table)
    row = frame[frame["subject"] == subject]
    if row.empty:
        raise ValueError(f"{table}: no profile for subject {subject}")
    record = row.iloc[0].to_dict()
    record["has_seizures"] = bool(record["has_seizures"])
    return simulator.SubjectProfile(**record)


def subject_recordings(
    statistics: str, profiles: str, corpus: str, *, subject: str, runs: int, duration_s: list[float], fs: int, seed: int
) -> None:
    """Simulate one subject's recordings and write them as EDF + SzCORE TSV (BIDS layout)."""
    from . import bids, seizure_lists, simulator

    require(statistics, profiles)
    stats = read_csv(statistics)
    durations = seizure_lists.usable(stats, "duration").to_numpy()
    intervals = seizure_lists.usable(stats, "interval").to_numpy()
    profile = _profile(profiles, subject)
    rng = np.random.default_rng([seed, 1, int(subject)])
    out = Path(corpus)
    tmp = temporary_sibling(out)
    shutil.rmtree(tmp, ignore_errors=True)
    runs_with_seizures = rng.random(runs) < profile.p_seizure_run
    runs_with_seizures[0] = True  # a subject with seizures has them in at least one recording
    for run in range(1, runs + 1):
        length = float(round(rng.uniform(*duration_s)))
        events = simulator.seizure_times(profile, bool(runs_with_seizures[run - 1]), length, durations, intervals, rng)
        x = simulator.simulate_recording(profile, length, fs, events, rng)
        name = tmp / bids.stem(profile.subject, run)
        bids.write_edf(f"{name}_eeg.edf", x, fs)
        bids.write_annotations(f"{name}_events.tsv", events, length)
        print(f"sub-{subject} run-{run:02d}: {length / 60:.0f} min, {len(events)} seizure(s)", flush=True)
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)


def subject_import(recordings: list[str], annotations: list[str], corpus: str, *, subject: str, fs: int) -> None:
    """One subject's real recordings (paper scale), each read at the montage's 19 electrodes and resampled to ``fs``
    (:func:`.bids.read_recording`: one line naming a file that cannot be read, lacks an electrode or has no
    annotations), then written as the benchmark writes its own corpus (EDF + SzCORE TSV, runs 1, 2, ... in path
    order), so every later rule reads real and simulated EEG alike."""
    from . import bids

    out = Path(corpus)
    tmp = temporary_sibling(out)
    shutil.rmtree(tmp, ignore_errors=True)
    for run, path in enumerate(recordings, start=1):
        x, events, length = bids.read_recording(path, fs)
        name = tmp / bids.stem(subject, run)
        bids.write_edf(f"{name}_eeg.edf", x, fs)
        bids.write_annotations(f"{name}_events.tsv", events, length)
        print(f"sub-{subject} run-{run:02d} <- {path}: {length / 60:.0f} min, {len(events)} seizure(s)", flush=True)
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)


def subject_features(
    corpus: str, table: str, events: str, *, subject: str, runs: int, window_s: float, gotman: dict
) -> None:
    """Read one subject's EDF + TSV files back and describe every second (see :mod:`.features`)."""
    from . import bids, features

    parts, rows = [], []
    for run in range(1, runs + 1):
        name = Path(corpus) / bids.stem(subject, run)
        x, fs = bids.read_edf(f"{name}_eeg.edf")
        reference, length = bids.read_annotations(f"{name}_events.tsv")
        fs = int(round(fs))
        hand, ratio = features.handcrafted(x, fs, window_s)
        kernels = features.random_kernels(x, fs, window_s)
        score = features.gotman(x, fs, **gotman)
        seconds = len(ratio)
        parts.append(
            dict(
                run=np.full(seconds, run),
                second=np.arange(seconds),
                hand=hand,
                kernels=kernels,
                line_length=ratio,
                gotman=score,
                label=features.labels(reference, seconds),
            )
        )
        rows += [{"subject": subject, "run": run, "onset": s, "end": e, "recording_s": length} for s, e in reference]
        rows += (
            []
            if reference
            else [{"subject": subject, "run": run, "onset": np.nan, "end": np.nan, "recording_s": length}]
        )
        print(f"sub-{subject} run-{run:02d}: {seconds} s described, {len(reference)} seizure(s)", flush=True)
    write_npz(table, **{k: np.concatenate([p[k] for p in parts]) for k in parts[0]})
    write_csv(events, pd.DataFrame(rows))


# --- detection ---------------------------------------------------------------------------------


def _corpus(tables: list[str]) -> tuple[pd.DataFrame, Features, np.ndarray]:
    from .detectors import Features

    index, feats = [], []
    for path in tables:
        d = read_npz(path, "run", "second", "hand", "kernels", "line_length", "gotman", "label")
        subject = Path(path).stem.removeprefix("sub-")
        index.append(pd.DataFrame({"subject": subject, "run": d["run"], "second": d["second"]}))
        feats.append(d)
    cat = {k: np.concatenate([f[k] for f in feats]) for k in feats[0]}
    return (
        pd.concat(index, ignore_index=True),
        Features(cat["hand"], cat["kernels"], cat["line_length"], cat["gotman"]),
        cat["label"],
    )


def subject_folds(subjects: list[str], k: int, seed: int) -> dict[str, int]:
    """Held-out-subject folds: a seeded permutation of the subjects dealt round-robin into ``k`` folds."""
    order = np.random.default_rng([seed, 2]).permutation(sorted(subjects))
    return {s: i % k for i, s in enumerate(order)}


def detect(
    tables: list[str],
    predictions: str,
    timing: str,
    *,
    detector: str,
    folds: int,
    seed: int,
    background_fraction: float,
    threads: int,
) -> None:
    """Scores of one detector on every second, under both protocols.

    ``heldout``: trained on the other subjects (``folds`` subject-grouped folds) - the challenge's
    setting. ``within``: leave-one-run-out, every subject's other recordings in training - the
    "self-reported" setting where test subjects are seen in training.
    """
    from .detectors import LEARNED, Detector

    index, feats, y = _corpus(tables)
    out = {p: np.full(len(y), np.nan) for p in PROTOCOLS}
    cost = []
    if detector not in LEARNED:
        t0 = time.perf_counter()
        score = Detector(detector).score(feats)
        cost.append(
            {
                "detector": detector,
                "protocol": "both",
                "fold": 0,
                "fit_s": 0.0,
                "score_s_per_hour": (time.perf_counter() - t0) / (len(y) / 3600),
            }
        )
        out = {p: score for p in PROTOCOLS}
    else:
        fold_of = subject_folds(index["subject"].unique().tolist(), folds, seed)
        splits = {"heldout": index["subject"].map(fold_of).to_numpy(), "within": index["run"].to_numpy()}
        for protocol, group in splits.items():
            for g in np.unique(group):
                test = group == g
                t0 = time.perf_counter()
                model = Detector(detector, seed=seed, threads=threads, background_fraction=background_fraction)
                model.fit(feats.take(~test), y[~test])
                t1 = time.perf_counter()
                out[protocol][test] = model.score(feats.take(test))
                cost.append(
                    {
                        "detector": detector,
                        "protocol": protocol,
                        "fold": int(g),
                        "fit_s": t1 - t0,
                        "score_s_per_hour": (time.perf_counter() - t1) / (test.sum() / 3600),
                    }
                )
                print(f"{detector} {protocol} fold {g}: trained on {int((~test).sum())} s", flush=True)
    write_npz(
        predictions,
        subject=index["subject"].to_numpy().astype(str),
        run=index["run"].to_numpy(),
        second=index["second"].to_numpy(),
        **out,
    )
    write_csv(timing, pd.DataFrame(cost))


def _reference(events: list[str]) -> dict[tuple[str, int], tuple[list[tuple[float, float]], float]]:
    frame = _subject_labels(read_csvs(events))
    ref = {}
    for (subject, run), part in frame.groupby(["subject", "run"], sort=True):
        seizures = part.dropna(subset=["onset"])
        ref[(subject, int(run))] = (
            [(float(a), float(b)) for a, b in zip(seizures["onset"], seizures["end"])],
            float(part["recording_s"].iloc[0]),
        )
    return ref


def score(predictions: list[str], events: list[str], table: str, *, algorithms: list[str], settings: dict) -> None:
    """SzCORE counts of every algorithm (detector + post-processing) on every recording and protocol."""
    from . import postprocess, scoring

    reference = _reference(events)
    by_detector = {Path(p).stem: p for p in predictions}
    rows = []
    for algorithm in algorithms:
        s = settings[algorithm]
        d = read_npz(by_detector[s["detector"]], "subject", "run", "heldout", "within")
        keys = pd.DataFrame({"subject": d["subject"].astype(str), "run": d["run"]})
        for (subject, run), idx in keys.groupby(["subject", "run"], sort=True).indices.items():
            ref, length = reference[(subject, int(run))]
            for protocol in PROTOCOLS:
                hyp = postprocess.events(
                    d[protocol][idx],
                    threshold=s["threshold"],
                    smooth_s=s["smooth_s"],
                    min_duration_s=s["min_duration_s"],
                )
                rows.append(
                    {
                        "algorithm": algorithm,
                        "detector": s["detector"],
                        "protocol": protocol,
                        "subject": subject,
                        "run": int(run),
                        "hypotheses": len(hyp),
                        **scoring.score_recording(ref, hyp, length),
                    }
                )
        print(f"{algorithm}: scored", flush=True)
    write_csv(table, pd.DataFrame(rows))


# --- tables ------------------------------------------------------------------------------------


def _f1_matrix(subjects: pd.DataFrame, seizure_subjects_only: bool = True) -> pd.DataFrame:
    """Held-out event F1, subjects (all, or those with seizures) x algorithms; NaN where undefined."""
    part = subjects[(subjects["protocol"] == "heldout") & (subjects["scoring"] == "event")]
    if seizure_subjects_only:
        part = part[part["ref_true"] > 0]
    return part.pivot(index="subject", columns="algorithm", values="f1")


def tables(
    recordings: str,
    subjects: str,
    leaderboard: str,
    gap: str,
    stability: str,
    bootstrap: str,
    concordance: str,
    *,
    n_boot: int,
    seed: int,
) -> None:
    """Per-subject scores, the leaderboard, the within/held-out gap and the ranking analysis."""
    from . import ranking, scoring
    from .detectors import LEARNED

    rec = _read_by_subject(recordings)
    per = scoring.per_subject(rec, ["algorithm", "detector", "protocol"])
    write_csv(subjects, per)
    agg = scoring.aggregate(per, ["algorithm", "detector", "protocol"])
    board = agg[agg["protocol"] == "heldout"].drop(columns="protocol")
    board = board.pivot(index=["algorithm", "detector"], columns="scoring").sort_index(axis=1)
    board.columns = [f"{kind}_{metric}" for metric, kind in board.columns]
    board = board.reset_index().sort_values(["event_f1", "algorithm"], ascending=[False, True])
    write_csv(leaderboard, board.reset_index(drop=True))
    event = agg[(agg["scoring"] == "event") & agg["detector"].isin(LEARNED)]
    wide = event.pivot(
        index=["algorithm", "detector"], columns="protocol", values=["f1", "sensitivity", "precision", "fp_per_day"]
    )
    wide.columns = [f"{p}_{m}" for m, p in wide.columns]
    wide = wide.reset_index()
    wide["f1_gap"] = wide["within_f1"] - wide["heldout_f1"]
    write_csv(gap, wide.sort_values("algorithm").reset_index(drop=True))
    f1, f1_all = _f1_matrix(per), _f1_matrix(per, seizure_subjects_only=False)
    aggregate = board.set_index("algorithm")["event_f1"]  # = f1_all.mean(): the leaderboard's F1
    write_csv(stability, ranking.stability(f1, aggregate))
    write_csv(bootstrap, ranking.bootstrap(f1_all, n_boot, seed))
    write_json(concordance, ranking.concordance(f1, aggregate))


def published_tables(challenge_results: str, per_dataset: str, leaderboard: str, datasets: str) -> None:
    from . import challenge

    write_csv(leaderboard, challenge.leaderboard(challenge_results))
    write_csv(datasets, challenge.per_dataset(per_dataset))


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Fit seconds per fold and scoring seconds per hour of EEG, per detector (varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    frame = read_csvs(timings)
    write_csv(
        summary, frame.groupby(["detector", "protocol"], sort=True)[["fit_s", "score_s_per_hour"]].mean().reset_index()
    )


# --- figures and verdict -----------------------------------------------------------------------


def figures(
    leaderboard: str,
    published: str,
    subjects: str,
    bootstrap: str,
    gap: str,
    corpus: str,
    datasets: str,
    *,
    subject: str,
    seconds: float,
    gap_min: float,
    **outputs: str,
) -> None:
    """Our leaderboards beside the published ones (leaderboard, sensitivity_vs_fp), F1 per subject
    (subject_f1), bootstrap ranks (ranks), the within-subject vs held-out gap (gap), one subject's first
    seizure onset as read back from its EDF file (eeg_example) and the published datasets
    (published_datasets)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    board, published_board, per_subject = read_csv(leaderboard), read_csv(published), _read_by_subject(subjects)
    with figure_set(outputs) as paths:
        save_figure(plots.leaderboards(board, published_board), *paths("leaderboard"))
        save_figure(plots.sensitivity_vs_fp(board, published_board), *paths("sensitivity_vs_fp"))
        save_figure(plots.subject_f1(per_subject), *paths("subject_f1"))
        save_figure(plots.ranks(_f1_matrix(per_subject), read_csv(bootstrap)), *paths("ranks"))
        save_figure(plots.gap(read_csv(gap), gap_min), *paths("gap"))
        save_figure(_eeg_example(corpus, subject, seconds), *paths("eeg_example"))
        save_figure(plots.published_datasets(read_csv(datasets)), *paths("published_datasets"))


def _eeg_example(corpus: str, subject: str, seconds: float):
    """The first seizure onset of one subject's recordings, as read back from its EDF file."""
    from . import bids, plots

    for run in range(1, 100):
        name = Path(corpus) / bids.stem(subject, run)
        if not Path(f"{name}_events.tsv").exists():
            break
        reference, _ = bids.read_annotations(f"{name}_events.tsv")
        if reference:
            x, fs = bids.read_edf(f"{name}_eeg.edf")
            return plots.eeg_excerpt(x, fs, reference[0], seconds, f"sub-{subject} run-{run:02d}")
    raise ValueError(f"sub-{subject} has no seizure to show")


def verdict(
    subjects: str,
    leaderboard: str,
    gap: str,
    stability: str,
    concordance: str,
    published: str,
    claims: str,
    metrics: str,
    *,
    gap_min: float,
    runs: int,
    folds: int,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from ..common.io import read_json
    from . import verdict as verdicts

    board, gaps, stab, conc, pub = (
        read_csv(leaderboard),
        read_csv(gap),
        read_csv(stability),
        read_json(concordance),
        read_csv(published),
    )
    write_claims(
        claims,
        [
            verdicts.heldout_below_within(gaps, gap_min, runs, folds, per_subject=read_csv(subjects)),
            verdicts.best_not_most_consistent(stab, conc, _f1_matrix(read_csv(subjects))),
            verdicts.published_top_f1(pub),
            verdicts.published_entries_vary(pub),
        ],
        substitution=substitution,
    )
    write_json(metrics, verdicts.metrics(board, gaps, conc, pub))
