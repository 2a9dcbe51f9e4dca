"""Rule functions of the dvm_ad pipeline: paths and plain parameters in, files out.

DAG: dataset_{name} -> evaluate_{name}, evaluate_types_{name} -> tables, tables_by_type -> figures, verdict;
timing beside.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..common.io import read_csv, read_csvs, write_csv, write_json, write_npz


def dataset(source: str, dataset: str, *, max_rows: int, seed: int) -> None:
    """Copy one ADBench dataset into the project, validated and (if large) stratified-subsampled."""
    from ..common.sources import checked
    from . import data

    X, y = data.load(checked(source))
    X_kept, y_kept = data.subsample(X, y, max_rows, seed)
    print(
        f"{Path(source).name}: {X.shape[0]} rows x {X.shape[1]} features, {int(y.sum())} anomalies"
        f" -> kept {len(y_kept)} rows",
        flush=True,
    )
    write_npz(dataset, X=X_kept, y=y_kept)


def evaluate(
    dataset: str,
    auroc: str,
    timing: str,
    *,
    seeds: list[int],
    test_size: float,
    baselines: list[str],
    epsilon: float,
    adbench_rows: dict | None,
) -> None:
    """AUROC of DVM-AD, its ablations and the baselines on one dataset, per seed; fit times aside."""
    from . import benchmark, data

    X, y = data.load(dataset)
    rows, timings = benchmark.evaluate(
        X, y, seeds=seeds, test_size=test_size, baselines=baselines, epsilon=epsilon, adbench_rows=adbench_rows
    )
    name = Path(dataset).stem
    write_csv(auroc, pd.DataFrame(rows).assign(dataset=name))
    write_csv(timing, pd.DataFrame(timings).assign(dataset=name, rows=len(y), features=X.shape[1]))
    scored = [r for r in rows if r["method"] != "DVM-AD ablation" and pd.notna(r["auroc"])]
    best = max(scored, key=lambda r: r["auroc"])
    print(f"{name}: best {best['method']} AUROC {best['auroc']:.3f}", flush=True)


def join_seeds(aurocs: list[str], timings: list[str], auroc: str, timing: str) -> None:
    """One set's per-seed tables (a ``seedwise`` set: one job per seed, so each fits a session) joined as
    :func:`evaluate` writes them for all its seeds at once: the first file's header, then every file's rows in the
    config's seed order, byte for byte (each seed's rows depend on that seed alone)."""
    from ..common.io import atomic_path

    for parts, joined in ((aurocs, auroc), (timings, timing)):
        tables = [Path(part).read_text(encoding="utf-8").split("\n", 1) for part in parts]  # [header, rows]
        headers = {header for header, _ in tables}
        if len(headers) != 1:
            raise ValueError(f"{joined}: the per-seed tables have different columns: {sorted(headers)}")
        with atomic_path(joined) as tmp:
            Path(tmp).write_text(f"{headers.pop()}\n" + "".join(rows for _, rows in tables), encoding="utf-8")


def evaluate_types(
    dataset: str,
    auroc: str,
    timing: str,
    *,
    types: list[str],
    seeds: list[int],
    test_size: float,
    baselines: list[str],
    epsilon: float,
    adbench_rows: dict | None,
) -> None:
    """The same methods on ADBench's realistic synthetic anomalies of each type, generated from this dataset's
    normal rows (:mod:`.synthetic`): AUROC rows with a ``type`` column, generation and fit times aside."""
    from . import benchmark, data

    X, y = data.load(dataset)
    rows, timings = benchmark.evaluate_types(
        X, y, types=types, seeds=seeds, test_size=test_size, baselines=baselines, epsilon=epsilon,
        adbench_rows=adbench_rows,
    )  # fmt: skip
    name = Path(dataset).stem
    write_csv(auroc, pd.DataFrame(rows).assign(dataset=name))
    write_csv(timing, pd.DataFrame(timings).assign(dataset=name, rows=len(y), features=X.shape[1]))


def evaluate_embedding(
    datasets: list[str],
    auroc: str,
    timing: str,
    *,
    benchmark: str,
    seeds: list[int],
    test_size: float,
    baselines: list[str],
    epsilon: float,
    adbench_rows: dict | None,
) -> None:
    """The same protocol on every version of one of ADBench's embedding benchmarks (``CIFAR10_0`` ... ``CIFAR10_9``):
    AUROC rows per version (``dataset``) with their ``benchmark``, fit times aside."""
    from . import benchmark as protocol
    from . import data

    aurocs, timings = [], []
    for path in datasets:
        X, y = data.load(path)
        rows, times = protocol.evaluate(
            X, y, seeds=seeds, test_size=test_size, baselines=baselines, epsilon=epsilon, adbench_rows=adbench_rows
        )
        name = Path(path).stem
        aurocs.append(pd.DataFrame(rows).assign(dataset=name, benchmark=benchmark))
        timings.append(pd.DataFrame(times).assign(dataset=name, rows=len(y), features=X.shape[1]))
        print(f"{benchmark}: {name} ({len(y)} rows x {X.shape[1]} features) done", flush=True)
    write_csv(auroc, pd.concat(aurocs, ignore_index=True))
    write_csv(timing, pd.concat(timings, ignore_index=True))


def summarise(aurocs: list[str], per_dataset: str, leaderboard: str, ablation: str, rank_per_seed: str) -> None:
    """Per-dataset means, the leaderboard (mean AUROC, average rank), each seed's ranks and the ablation table."""
    from . import tables

    rows = read_csvs(aurocs)
    table = tables.per_dataset(rows)
    write_csv(per_dataset, table)
    write_csv(leaderboard, tables.leaderboard(table))
    write_csv(rank_per_seed, tables.rank_per_seed(rows))
    write_csv(ablation, tables.ablation(table))


def summarise_types(aurocs: list[str], per_dataset: str, leaderboard: str, ablation: str) -> None:
    """Per anomaly type: per-dataset means, the leaderboard and the ablation table (a ``type`` column each); with
    no sets (``type_datasets: []``), the three tables with their columns and no rows."""
    from . import tables

    if not aurocs:
        for path, columns in zip((per_dataset, leaderboard, ablation), tables.TYPE_COLUMNS, strict=True):
            write_csv(path, pd.DataFrame(columns=columns))
        return
    rows = read_csvs(aurocs)
    table = tables.by_type(rows, tables.per_dataset)
    write_csv(per_dataset, table)
    write_csv(leaderboard, tables.by_type(table, tables.leaderboard))
    write_csv(ablation, tables.by_type(table, tables.ablation))


def summarise_embedding(aurocs: list[str], per_benchmark: str, leaderboard: str) -> None:
    """Each method's AUROC per embedding benchmark (the mean over its versions of their seed means) and the
    leaderboard over the benchmarks; with none (``embedding_benchmarks: []``), both tables with no rows."""
    from . import tables

    if not aurocs:
        write_csv(per_benchmark, pd.DataFrame(columns=tables.BENCHMARK_COLUMNS))
        write_csv(leaderboard, pd.DataFrame(columns=tables.LEADERBOARD_COLUMNS))
        return
    table = tables.per_benchmark(read_csvs(aurocs))
    write_csv(per_benchmark, table)
    write_csv(leaderboard, tables.leaderboard(table))


def timing(timings: list[str], summary: str, machine: str) -> None:
    """Mean fit+score seconds per method (a benchmark record: it varies run to run)."""
    from ..common.timing import write_machine

    write_machine(machine)
    frame = read_csvs(timings)
    out = frame.groupby("method")["seconds"].agg(mean_seconds="mean", total_seconds="sum", fits="size")
    write_csv(summary, out.sort_values("mean_seconds").reset_index())


def figures(
    leaderboard: str,
    rank_per_seed: str,
    ablation: str,
    leaderboard_by_type: str,
    leaderboard_embedding: str,
    **outputs: str,
) -> None:
    """Average rank per method over the datasets (average_rank), mean AUROC of every keep mode x
    reference point (ablation), each method's average rank per anomaly type (anomaly_types) and over the embedding
    benchmarks (embedding)."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.average_rank(read_csv(leaderboard), read_csv(rank_per_seed)), *paths("average_rank"))
        save_figure(plots.ablation(read_csv(ablation)), *paths("ablation"))
        save_figure(plots.anomaly_types(read_csv(leaderboard_by_type)), *paths("anomaly_types"))
        save_figure(plots.embedding(read_csv(leaderboard_embedding)), *paths("embedding"))


def verdict(
    per_dataset: str,
    leaderboard: str,
    ablation: str,
    per_dataset_by_type: str,
    leaderboard_by_type: str,
    per_benchmark: str,
    leaderboard_embedding: str,
    claims: str,
    metrics: str,
    *,
    substitution: str,
    adbench_rows: dict | None = None,
) -> None:
    """Judge the spec's claims and collect the headline numbers; ``adbench_rows`` is how the rows were drawn."""
    from ..common.claims import verdict_word, write_claims
    from . import verdict as verdicts

    table, board, ablation_table = read_csv(per_dataset), read_csv(leaderboard), read_csv(ablation)
    type_board = read_csv(leaderboard_by_type)
    judged = [
        verdicts.best_on_adbench(board, table, verdicts.rows_note(adbench_rows)),
        verdicts.both_ends_beat_one_end(ablation_table, table),
        verdicts.top_ranked_across_types(type_board, read_csv(per_dataset_by_type)),
        verdicts.top_ranked_on_embeddings(read_csv(leaderboard_embedding), read_csv(per_benchmark)),
    ]
    for claim in judged:
        print(f"{claim.id}: {verdict_word(claim)} -- {claim.measured}", flush=True)
    write_claims(claims, judged, substitution=substitution)
    write_json(
        metrics,
        {
            "leaderboard": {
                r.method: {"mean_auroc": r.mean_auroc, "average_rank": r.average_rank} for r in board.itertuples()
            },
            "ablation": {f"{r.keep}/{r.reference}": r.mean_auroc for r in ablation_table.itertuples()},
            "by_type": {
                kind: {
                    r.method: {"mean_auroc": r.mean_auroc, "average_rank": r.average_rank} for r in rows.itertuples()
                }
                for kind, rows in type_board.groupby("type", sort=False)
            },
        },
    )
