# seizure_benchmark: SzCORE-scored seizure detection on a simulated multi-subject EEG corpus
# (spec: shared/papers/seizure_benchmark.md).
# statistics, profiles -> subject_{s} (EDF + TSV) -> features_{s} -> detect_{detector} -> score -> tables
# -> figures, verdict; the published challenge JSON -> published tables -> figures, verdict.
# Each rule calls one function of icml26.seizure_benchmark.rules (see docs/ARCHITECTURE.md).

from icml26.seizure_benchmark.seizure_lists import LIST_PATTERNS as SEIZURE_LIST_PATTERNS
from icml26.seizure_benchmark.seizure_lists import list_files as seizure_list_files

SB = register("seizure_benchmark")
SB_CORPUS = SB.cfg["corpus"]
SB_EEG = SB.cfg["eeg"]  # a BIDS root of real EEG (paper scale), else the simulated corpus
if SB_EEG:
    from icml26.seizure_benchmark.bids import events_file, has_seizure, recordings

    SB_RECORDINGS = {s: [str(p) for p in paths] for s, paths in recordings(SB_EEG).items()}
    SB_SUBJECTS = sorted(SB_RECORDINGS)
    SB_RUNS = {s: len(paths) for s, paths in SB_RECORDINGS.items()}
    # the EEG figure's subject: the first with a seizure
    SB_EXAMPLE = next((s for s in SB_SUBJECTS if has_seizure(SB_RECORDINGS[s])), SB_SUBJECTS[0])
else:
    SB_SUBJECTS = [f"{i:02d}" for i in range(1, SB_CORPUS["subjects"] + 1)]
    SB_RUNS = {s: SB_CORPUS["runs"] for s in SB_SUBJECTS}
    SB_EXAMPLE = "01"  # subject 01 always has seizures
SB_ALGORITHMS = SB.cfg["algorithms"]
SB_DETECTORS = sorted({SB.cfg["algorithm_settings"][a]["detector"] for a in SB_ALGORITHMS})
SB_ANNOTATIONS = f"{SB.cfg['source_dir']}/eeg_annotations"
# EDF folders are temporary unless corpus.keep_edf (they are large; features are what is kept)
SB_KEEP_EDF = directory if SB_CORPUS["keep_edf"] else (lambda path: temp(directory(path)))
SB_FIGURES = ["leaderboard", "sensitivity_vs_fp", "subject_f1", "ranks", "gap", "eeg_example", "published_datasets"]


rule seizure_benchmark:
    """Target: every seizure_benchmark output at the configured scale."""
    input:
        paper_outputs(SB),
        expand(f"{SB.results}/figures/{{name}}.png", name=SB_FIGURES),
        f"{SB.timing}/fit_seconds.csv",


rule seizure_benchmark_statistics:
    input:  # the lists themselves, so an edit to any of them reruns this rule (a missing folder: the patterns)
        lists=lambda w: [str(p) for p in seizure_list_files(SB_ANNOTATIONS)]
        or [f"{SB_ANNOTATIONS}/{pattern}" for pattern in SEIZURE_LIST_PATTERNS],
    output:
        table=f"{SB.data}/seizure_statistics.csv",
    params:
        func="icml26.seizure_benchmark.rules:statistics",
        max_duration_s=SB_CORPUS["max_seizure_s"],
    script:
        CALL


rule seizure_benchmark_challenge_data:
    input:
        source=f"{SB.cfg['source_dir']}/szcore/{{name}}.json",
    output:
        copied=f"{SB.data}/szcore/{{name}}.json",
    wildcard_constraints:
        name="challenge_results|results",
    params:
        func="icml26.seizure_benchmark.rules:challenge_data",
    script:
        CALL


rule seizure_benchmark_profiles:
    output:
        table=f"{SB.data}/profiles.csv",
    params:
        func="icml26.seizure_benchmark.rules:profiles",
        subjects=SB_CORPUS["subjects"],
        settings=SB_CORPUS,
        seed=SB.cfg["seed"],
    script:
        CALL


if SB_EEG:

    rule seizure_benchmark_subject:
        """A subject's real recordings at the montage's 19 electrodes and the corpus's sampling rate."""
        input:
            recordings=lambda w: SB_RECORDINGS[w.subject],
            annotations=lambda w: [str(events_file(p)) for p in SB_RECORDINGS[w.subject]],
        output:
            corpus=SB_KEEP_EDF(f"{SB.data}/corpus/sub-{{subject}}"),
        wildcard_constraints:
            subject="|".join(SB_SUBJECTS),
        params:
            func="icml26.seizure_benchmark.rules:subject_import",
            subject=lambda w: w.subject,
            fs=SB_CORPUS["fs"],
        script:
            CALL

else:

    rule seizure_benchmark_subject:
        input:
            statistics=rules.seizure_benchmark_statistics.output.table,
            profiles=rules.seizure_benchmark_profiles.output.table,
        output:
            corpus=SB_KEEP_EDF(f"{SB.data}/corpus/sub-{{subject}}"),
        wildcard_constraints:
            subject="|".join(SB_SUBJECTS),
        params:
            func="icml26.seizure_benchmark.rules:subject_recordings",
            subject=lambda w: w.subject,
            runs=SB_CORPUS["runs"],
            duration_s=SB_CORPUS["duration_s"],
            fs=SB_CORPUS["fs"],
            seed=SB.cfg["seed"],
        script:
            CALL


rule seizure_benchmark_features:
    input:
        corpus=f"{SB.data}/corpus/sub-{{subject}}",
    output:
        table=f"{SB.data}/features/sub-{{subject}}.npz",
        events=f"{SB.data}/events/sub-{{subject}}.csv",
    wildcard_constraints:
        subject="|".join(SB_SUBJECTS),
    params:
        func="icml26.seizure_benchmark.rules:subject_features",
        subject=lambda w: w.subject,
        runs=lambda w: SB_RUNS[w.subject],
        window_s=SB.cfg["features"]["window_s"],
        gotman=SB.cfg["features"]["gotman"],
    script:
        CALL


rule seizure_benchmark_detect:
    input:
        tables=expand(f"{SB.data}/features/sub-{{subject}}.npz", subject=SB_SUBJECTS),
    output:
        predictions=f"{SB.data}/predictions/{{detector}}.npz",
        timing=f"{SB.timing}/fit_seconds/{{detector}}.csv",
    wildcard_constraints:
        detector="|".join(SB_DETECTORS),
    threads: paper_threads(SB)
    resources:
        **job_resources(SB),
    params:
        func="icml26.seizure_benchmark.rules:detect",
        detector=lambda w: w.detector,
        folds=SB.cfg["training"]["folds"],
        background_fraction=SB.cfg["training"]["background_fraction"],
        seed=SB.cfg["seed"],
        threads=paper_threads(SB),
    script:
        CALL


rule seizure_benchmark_score:
    input:
        predictions=expand(f"{SB.data}/predictions/{{detector}}.npz", detector=SB_DETECTORS),
        events=expand(f"{SB.data}/events/sub-{{subject}}.csv", subject=SB_SUBJECTS),
    output:
        table=f"{SB.data}/recording_scores.csv",
    params:
        func="icml26.seizure_benchmark.rules:score",
        algorithms=SB_ALGORITHMS,
        settings=SB.cfg["algorithm_settings"],
    script:
        CALL


rule seizure_benchmark_tables:
    input:
        recordings=rules.seizure_benchmark_score.output.table,
    output:
        subjects=report(
            f"{SB.results}/tables/per_subject.csv",
            caption="../report/seizure_benchmark/per_subject.rst",
            category="seizure_benchmark",
            subcategory="tables",
        ),
        leaderboard=report(
            f"{SB.results}/tables/leaderboard.csv",
            caption="../report/seizure_benchmark/leaderboard_table.rst",
            category="seizure_benchmark",
            subcategory="tables",
        ),
        gap=report(
            f"{SB.results}/tables/gap.csv",
            caption="../report/seizure_benchmark/gap_table.rst",
            category="seizure_benchmark",
            subcategory="tables",
        ),
        stability=report(
            f"{SB.results}/tables/rank_stability.csv",
            caption="../report/seizure_benchmark/stability_table.rst",
            category="seizure_benchmark",
            subcategory="tables",
        ),
        bootstrap=f"{SB.results}/tables/bootstrap_positions.csv",
        concordance=f"{SB.results}/tables/concordance.json",
    params:
        func="icml26.seizure_benchmark.rules:tables",
        n_boot=SB.cfg["ranking"]["n_boot"],
        seed=SB.cfg["seed"],
    script:
        CALL


rule seizure_benchmark_published:
    input:
        challenge_results=f"{SB.data}/szcore/challenge_results.json",
        per_dataset=f"{SB.data}/szcore/results.json",
    output:
        leaderboard=report(
            f"{SB.results}/tables/published_leaderboard.csv",
            caption="../report/seizure_benchmark/published_table.rst",
            category="seizure_benchmark",
            subcategory="tables",
        ),
        datasets=f"{SB.results}/tables/published_per_dataset.csv",
    params:
        func="icml26.seizure_benchmark.rules:published_tables",
    script:
        CALL


rule seizure_benchmark_timing:
    input:
        timings=expand(f"{SB.timing}/fit_seconds/{{detector}}.csv", detector=SB_DETECTORS),
    output:
        summary=f"{SB.timing}/fit_seconds.csv",
        machine=f"{SB.timing}/machine.json",
    params:
        func="icml26.seizure_benchmark.rules:timing",
    script:
        CALL


rule seizure_benchmark_figures:
    input:
        leaderboard=rules.seizure_benchmark_tables.output.leaderboard,
        published=rules.seizure_benchmark_published.output.leaderboard,
        subjects=rules.seizure_benchmark_tables.output.subjects,
        bootstrap=rules.seizure_benchmark_tables.output.bootstrap,
        gap=rules.seizure_benchmark_tables.output.gap,
        corpus=f"{SB.data}/corpus/sub-{SB_EXAMPLE}",
        datasets=rules.seizure_benchmark_published.output.datasets,
    output:
        **figure_outputs(SB, *SB_FIGURES),
    params:
        func="icml26.seizure_benchmark.rules:figures",
        subject=SB_EXAMPLE,
        seconds=SB.cfg["example_seconds"],
        gap_min=SB.cfg["verdict"]["gap_min"],
    script:
        CALL


rule seizure_benchmark_verdict:
    input:
        subjects=rules.seizure_benchmark_tables.output.subjects,
        leaderboard=rules.seizure_benchmark_tables.output.leaderboard,
        gap=rules.seizure_benchmark_tables.output.gap,
        stability=rules.seizure_benchmark_tables.output.stability,
        concordance=rules.seizure_benchmark_tables.output.concordance,
        published=rules.seizure_benchmark_published.output.leaderboard,
    output:
        claims=report(
            f"{SB.results}/claims.json",
            caption="../report/seizure_benchmark/claims.rst",
            category="seizure_benchmark",
            subcategory="verdict",
        ),
        metrics=f"{SB.results}/metrics.json",
    params:
        func="icml26.seizure_benchmark.rules:verdict",
        substitution=substitution(SB),
        gap_min=SB.cfg["verdict"]["gap_min"],
        runs=min(SB_RUNS.values()),
        folds=SB.cfg["training"]["folds"],
    script:
        CALL
