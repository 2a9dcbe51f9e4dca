"""The functions the Snakemake rules of ``workflow/rules/cox_subgroups.smk`` call."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, require, write_csv, write_json


def _write_run(table: str, timing: str, rows: pd.DataFrame, seconds: pd.DataFrame, *, dataset: str, seed: int) -> None:
    """One run's result rows (tagged with dataset and seed) and, apart, its timing record."""
    rows.insert(0, "seed", seed)
    rows.insert(0, "dataset", dataset)
    write_csv(table, rows)
    seconds.insert(0, "dataset", dataset)
    write_csv(timing, seconds)


def dataset(table: str, *, name: str, metabric: str | None = None) -> None:
    """Copy one real dataset into the project as ``time, event, adjust, subgroup`` (DVC-tracked); METABRIC
    is read from the ``metabric`` input file, checked."""
    from . import realdata

    frame = realdata.load(name, metabric)
    print(f"{name}: {len(frame)} rows, {frame['event'].mean():.2f} events", flush=True)
    write_csv(table, frame)


def synthetic_run(
    table: str, timing: str, *, dataset: str, seed: int, n_train: int, n_test: int, methods: list[str], settings: dict
) -> None:
    from . import experiments, selection, synthetic

    rng = np.random.default_rng([seed, synthetic.DATASETS.index(dataset)])
    x, t, e = synthetic.sample(dataset, n_train + n_test, rng)
    train = selection.Rows.build(x[:n_train], x[:n_train], t[:n_train], e[:n_train])
    test = selection.Rows.build(x[n_train:], x[n_train:], t[n_train:], e[n_train:])
    print(f"{dataset} seed {seed}: n = {n_train}/{n_test}", flush=True)
    rows, seconds = experiments.run(
        train,
        test,
        synthetic.domain(dataset),
        synthetic.planted_box(dataset),
        methods=methods,
        settings=settings,
        seed=seed,
    )
    _write_run(table, timing, rows, seconds, dataset=dataset, seed=seed)


def real_run(
    data: str, table: str, timing: str, *, name: str, seed: int, test_size: float, methods: list[str], settings: dict
) -> None:
    from . import boxes, experiments, realdata, selection, splits

    require(data)
    frame = read_csv(data)
    is_test = splits.real_test_rows(len(frame), realdata.DATASETS.index(name), seed, test_size)

    def rows(mask):
        part = frame[mask]
        return selection.Rows.build(part["adjust"], part["subgroup"], part["time"], part["event"].astype(bool))

    train, test = rows(~is_test), rows(is_test)
    print(f"{name} seed {seed}: n = {len(train)}/{len(test)}", flush=True)
    out, seconds = experiments.run(
        train, test, boxes.bounding_box(train.Z), None, methods=methods, settings=settings, seed=seed
    )
    _write_run(table, timing, out, seconds, dataset=name, seed=seed)


def cmapss_dataset(
    train: list[str],
    test: list[str],
    rul: list[str],
    table: str,
    *,
    subsets: list[str],
    snapshot_every: int,
    test_engines: str,
) -> None:
    """Copy the C-MAPSS ``subsets`` (files in their order) into the project as survival snapshot rows, after
    checking every file."""
    from . import cmapss

    frame = cmapss.load(train, test, rul, subsets, snapshot_every, test_engines)
    conditions = frame["op_setting_1"].round().nunique()
    print(
        f"C-MAPSS {'+'.join(subsets)}: {frame['engine'].nunique()} engines, {len(frame)} rows, "
        f"{conditions} operating altitudes",
        flush=True,
    )
    write_csv(table, frame)


def case_study_run(
    data: str,
    table: str,
    timing: str,
    *,
    case: str,
    adjust: list[str],
    subgroup: list[str],
    seed: int,
    test_size: float,
    methods: list[str],
    settings: dict,
) -> None:
    """One split of the jet-engine case study: engines split into train/test, features standardised on train."""
    from . import boxes, experiments, selection, splits

    require(data)
    frame = read_csv(data)
    missing = sorted(set(adjust + subgroup) - set(frame.columns))
    if missing:
        raise ValueError(f"case {case}: unknown columns {missing}")
    is_test = splits.case_test_rows(frame["engine"], seed, test_size)
    stats = splits.standardiser(frame, adjust + subgroup, ~is_test)

    def standard(cols, mask):
        return np.column_stack([(frame.loc[mask, c] - stats[c][0]) / stats[c][1] for c in cols])

    def rows(mask):
        return selection.Rows.build(
            standard(adjust, mask),
            standard(subgroup, mask),
            frame.loc[mask, "time"],
            frame.loc[mask, "event"].astype(bool),
        )

    train, test = rows(~is_test), rows(is_test)
    print(f"{case} seed {seed}: {len(train)}/{len(test)} rows", flush=True)
    scale = (np.array([stats[c][0] for c in subgroup]), np.array([stats[c][1] for c in subgroup]))
    out, seconds = experiments.run(
        train, test, boxes.bounding_box(train.Z), None, methods=methods, settings=settings, seed=seed, z_scale=scale
    )
    _write_run(table, timing, out, seconds, dataset=case, seed=seed)


def _summary(runs: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    grouped = runs.groupby(["dataset", "method"], sort=True)
    out = grouped[columns].agg(["mean", "std"])
    out.columns = [f"{c}_{s}" for c, s in out.columns]
    out["seeds"] = grouped.size()
    out["qualified_runs"] = grouped["qualified"].sum()
    return out.reset_index()


def _rejection_summary(paths: list[str]) -> pd.DataFrame:
    from . import verdict as verdicts

    runs = read_csvs(paths)
    runs["rejection"] = 1 - runs["test_support"]
    summary = _summary(runs, ["test_epe", "test_c_index", "rejection"])
    summary["pareto"] = verdicts.pareto_front(summary)
    first = runs[runs["seed"] == runs["seed"].min()].set_index(["dataset", "method"])[["box_low", "box_high"]]
    return summary.join(first.add_suffix("_first_seed"), on=["dataset", "method"])


def tables(synthetic_runs: list[str], real_runs: list[str], synthetic_summary: str, real_summary: str) -> None:
    syn = read_csvs(synthetic_runs)
    write_csv(synthetic_summary, _summary(syn, ["f1", "best_f1", "test_epe", "test_c_index", "test_support"]))
    write_csv(real_summary, _rejection_summary(real_runs))


def case_study_table(runs: list[str], summary: str) -> None:
    """Per case and method: test EPE, C-index, rejected fraction, Pareto flag, the first seed's box."""
    write_csv(summary, _rejection_summary(runs))


def subgroup_survival(
    real_data: list[str],
    real_runs: list[str],
    case_data: str,
    case_runs: list[str],
    kaplan_meier: str,
    logrank: str,
    hazard_ratios: str,
    *,
    method: str,
    real_test_size: float,
    case_test_size: float,
    cases: dict,
    cox_alpha: float,
) -> None:
    """Kaplan-Meier curves, log-rank tests and Cox summaries (lifelines) of ``method``'s subgroup in one run
    (``real_runs`` and ``case_runs``: one seed's run tables) of every real dataset and case."""
    from . import subgroup_survival as views

    require(*real_data, case_data, *real_runs, *case_runs)
    studies = [
        views.real_study(read_csv(data), read_csv(run), method=method, test_size=real_test_size)
        for data, run in zip(real_data, real_runs, strict=True)
    ]
    engines = read_csv(case_data)
    for path in case_runs:
        run = read_csv(path)
        case = cases[str(run["dataset"].iloc[0])]
        studies.append(views.case_study(engines, run, **case, method=method, test_size=case_test_size))
    curves, tests, summaries = [], [], []
    for study in studies:
        curves.append(views.kaplan_meier(study))
        tests.append(views.logrank(study))
        summaries.append(views.cox_summary(study, cox_alpha))
        t, hr = tests[-1], summaries[-1].iloc[0]
        print(
            f"{study.name}: {method} subgroup {t['n_subgroup']}/{t['n_subgroup'] + t['n_complement']} held-out rows, "
            f"log-rank p {t['logrank_p']:.3g}; {hr.covariate} HR {hr.hazard_ratio:.3g} "
            f"[{hr.hazard_ratio_lower_95:.3g}, {hr.hazard_ratio_upper_95:.3g}]",
            flush=True,
        )
    write_csv(kaplan_meier, pd.concat(curves, ignore_index=True))
    write_csv(logrank, pd.DataFrame(tests))
    write_csv(hazard_ratios, pd.concat(summaries, ignore_index=True))


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Seconds per method (a benchmark record: it varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    frame = read_csvs(timings)
    write_csv(summary, frame.groupby("method")["seconds"].agg(mean_seconds="mean", runs="size").reset_index())


def figures(
    synthetic_summary: str, real_summary: str, case_summary: str, kaplan_meier: str, logrank: str, **outputs: str
) -> None:
    """F1 and test EPE per method on the synthetic datasets (synthetic), test EPE against rejected fraction
    per method on the real datasets (pareto) and on the case study's cases (case_study), and the selected
    subgroup's Kaplan-Meier curves against its complement (kaplan_meier)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.synthetic(read_csv(synthetic_summary)), *paths("synthetic"))
        save_figure(plots.pareto(read_csv(real_summary)), *paths("pareto"))
        save_figure(plots.pareto(read_csv(case_summary)), *paths("case_study"))
        save_figure(plots.kaplan_meier(read_csv(kaplan_meier), read_csv(logrank)), *paths("kaplan_meier"))


def verdict(
    synthetic_summary: str, real_summary: str, case_summary: str, claims: str, metrics: str, *, substitution: str
) -> None:
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    syn, real, case = read_csv(synthetic_summary), read_csv(real_summary), read_csv(case_summary)
    judged = [
        verdicts.recovers_planted_subgroup(syn),
        verdicts.beats_variants_on_counter(syn),
        verdicts.beats_variants_on_counter_as_a_user_selects(syn),
        verdicts.on_pareto_front(real),
    ]
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    write_json(
        metrics,
        {
            "synthetic": {
                f"{r.dataset}/{r.method}": {
                    "f1": r.f1_mean,
                    "best_f1": r.best_f1_mean,
                    "test_epe": r.test_epe_mean,
                    "c_index": r.test_c_index_mean,
                }
                for r in syn.itertuples()
            },
            "real": {
                f"{r.dataset}/{r.method}": {
                    "test_epe": r.test_epe_mean,
                    "rejection": r.rejection_mean,
                    "c_index": r.test_c_index_mean,
                    "pareto": bool(r.pareto),
                }
                for r in real.itertuples()
            },
            "case_study_fd001": {
                f"{r.dataset}/{r.method}": {
                    "test_epe": r.test_epe_mean,
                    "rejection": r.rejection_mean,
                    "c_index": r.test_c_index_mean,
                    "pareto": bool(r.pareto),
                }
                for r in case.itertuples()
            },
        },
    )
