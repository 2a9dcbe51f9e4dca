"""The spec's two claims, judged from the leaderboard and the ablation table.

Evidence strength: the datasets are the benchmark's units, so every comparison is a 95 % percentile bootstrap
over the datasets, paired (two methods on the same datasets, AUROC averaged over the seeds first): DVM-AD's mean
AUROC minus the best baseline's and the best baseline's average rank minus DVM-AD's for the first claim, the
mean AUROC of both ends minus each end alone for the second. A claim holds when every interval lies above its
practical margin (``icml26.common.criteria``, rule 3): one AUROC point, and for the rank (K - 1) / 100 among the K
ranked methods.

The best baseline is the one DVM-AD leads least, each compared on the datasets both have an AUROC for
(:func:`_hardest`): a detector that fails on a dataset has none there, as ADBench records it.
"""

from __future__ import annotations

import pandas as pd

from ..common import intervals
from ..common.claims import Claim, decide, not_evaluated
from ..common.criteria import POINT, rank_point
from ..common.tolerance import Tolerance
from .tables import MAIN

PAPER_MEAN_AUROC = 89.65
PAPER_AVERAGE_RANK = 2.98
PAPER_BASELINES = 28
TYPES_PAPER_VALUE = "top-ranked across four anomaly types (local, global, dependency, cluster)"
PAPER_EMBEDDING_RANK = 1.60
PAPER_EMBEDDING_AUROC = 72.68
PAPER_EMBEDDING_BENCHMARKS = 10
EMBEDDING_EVIDENCE = ["tables/leaderboard_embedding.csv", "tables/auroc_per_benchmark.csv", "figures/embedding.png"]
TYPES_EVIDENCE = ["tables/leaderboard_by_type.csv", "tables/auroc_per_dataset_by_type.csv", "figures/anomaly_types.png"]
NO_PREMISE = "detectors on the benchmark's own datasets: nothing presupposed"


def _paired(statistic: str, a, b, margin: float) -> intervals.Interval:
    """Bootstrap over the datasets of mean(a - b), a and b per dataset in the same order."""
    return intervals.over_items(
        statistic, [a.to_numpy(float), b.to_numpy(float)], 0.0, ">",
        function=lambda x, y: float((x - y).mean()), margin=margin, unit="datasets",
    )  # fmt: skip


def _hardest(board: pd.DataFrame, wide: pd.DataFrame, statistic: str, margin: float, *, lower_is_better: bool):
    """The baseline DVM-AD leads least (its leaderboard row) and the paired bootstrap over datasets of that lead;
    ``wide`` holds a value per dataset (rows) and method (columns), a rank when ``lower_is_better``, else an AUROC.

    Each baseline is compared on the datasets where both have a value. ADBench records a detector that fails on
    a dataset as NaN and averages what is left, so a baseline's leaderboard mean may rest on fewer, easier
    datasets than DVM-AD's; leading it there would not be leading it. With every dataset scored this is the
    leaderboard's best baseline (the mean of a difference is the difference of the means); among equal leads
    the first in leaderboard order."""
    chosen = None
    for row in board[board["method"] != MAIN].itertuples(index=False):
        shared = wide[[MAIN, row.method]].dropna()
        if shared.empty:
            continue
        pair = (shared[row.method], shared[MAIN]) if lower_is_better else (shared[MAIN], shared[row.method])
        lead = pair[0].mean() - pair[1].mean()
        if chosen is None or lead < chosen[0]:
            chosen = (lead, row, pair)
    if chosen is None:
        raise ValueError(f"{statistic}: no baseline has a value on any dataset DVM-AD has one on")
    _, row, pair = chosen
    return row, _paired(statistic, *pair, margin)


def _rank_lead(board: pd.DataFrame, per_dataset: pd.DataFrame, statistic: str):
    """DVM-AD's row of a leaderboard, the best-ranked baseline's (:func:`_hardest`), and the paired bootstrap over
    the datasets of that baseline's rank minus DVM-AD's (each dataset ranking the methods with an AUROC there,
    ties averaged), above rule 3's margin for a rank among the board's methods."""
    ours = board[board["method"] == MAIN].iloc[0]
    main = per_dataset[per_dataset["method"].isin(board["method"])]
    ranks = main.pivot(index="dataset", columns="method", values="auroc").rank(
        axis=1, ascending=False, method="average"
    )
    best, lead = _hardest(board, ranks, statistic, rank_point(len(ranks.columns)), lower_is_better=True)
    return ours, best, lead


# make verify (icml26.common.verify): on another machine these means over seeds may move by up to one
# standard error over the quick seeds -- less than the seed noise each already carries (DVM-AD, 3 seeds,
# 2026-12-02: mean AUROC sd 0.0133 -> SE 0.0077; average rank sd 0.25 -> SE 0.145). Seen across two AMD
# machines (issue 22): mean AUROC 0.000036, compressive-only ablation 0.0016. Verdict flips fail regardless.
AUROC_TOLERANCE = 0.0077
RANK_TOLERANCE = 0.145
_WHY = "one standard error over seeds of DVM-AD's quick mean"
TOLERANCES = [
    ("metrics/*/mean_auroc", Tolerance(abs=AUROC_TOLERANCE, why=_WHY)),
    ("metrics/ablation/*", Tolerance(abs=AUROC_TOLERANCE, why=_WHY)),
    ("claims/*/measured/*mean_auroc_pct", Tolerance(abs=100 * AUROC_TOLERANCE, why=_WHY)),
    ("claims/both_ends_beat_either_end/measured/*", Tolerance(abs=100 * AUROC_TOLERANCE, why=_WHY)),
    ("claims/*/measured/*average_rank", Tolerance(abs=RANK_TOLERANCE, why=_WHY)),
    ("metrics/leaderboard/*/average_rank", Tolerance(abs=RANK_TOLERANCE, why=_WHY)),
]


ROW_CAP = "datasets subsampled to the configured row cap"
ADBENCH_ROWS = "each seed's rows drawn as ADBench draws them (over {high:,} rows subsampled, under {low:,} duplicated)"


def rows_note(adbench_rows: dict | None) -> str:
    """How each dataset's rows were drawn, for the claim's note: ADBench's protocol (paper scale) or the row cap."""
    return ADBENCH_ROWS.format(**adbench_rows) if adbench_rows else ROW_CAP


def best_on_adbench(board: pd.DataFrame, per_dataset: pd.DataFrame, rows: str = ROW_CAP) -> Claim:
    ours, best_rank, rank_lead = _rank_lead(board, per_dataset, "rank_lead_over_best")
    others = board[board["method"] != MAIN]
    wide = per_dataset[per_dataset["method"].isin(board["method"])].pivot(
        index="dataset", columns="method", values="auroc"
    )
    best_auroc, auroc_lead = _hardest(board, wide, "auroc_lead_over_best", POINT, lower_is_better=False)
    found = [auroc_lead, rank_lead]
    partial = others[others["datasets"] < ours.datasets]
    failed = ""
    if len(partial):
        failed = (
            f"; {len(partial)} baselines have no AUROC on some datasets (they failed there, recorded as NaN as "
            f"ADBench does: {', '.join(partial.method)}), each compared with DVM-AD on the datasets it scored"
        )
    return Claim(
        id="best_average_auroc_and_rank",
        statement="DVM-AD has the best mean AUROC and the best average rank across the ADBench tabular datasets "
        f"(95 % intervals of its leads over the best baseline above the practical margins: {POINT:g} AUROC, "
        f"{rank_lead.margin:g} rank)",
        paper_value={
            "mean_auroc_pct": PAPER_MEAN_AUROC,
            "average_rank": PAPER_AVERAGE_RANK,
            "baselines": PAPER_BASELINES,
        },
        measured={
            "mean_auroc_pct": 100 * float(ours.mean_auroc),
            "average_rank": float(ours.average_rank),
            "best_baseline_by_auroc": {
                "method": best_auroc.method,
                "mean_auroc_pct": 100 * float(best_auroc.mean_auroc),
            },
            "best_baseline_by_rank": {"method": best_rank.method, "average_rank": float(best_rank.average_rank)},
            "baselines": len(others),
            "datasets": int(ours.datasets),
            "auroc_lead_over_best": found[0].estimate,
            "rank_lead_over_best": found[1].estimate,
        },
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"ranks among {len(board)} methods (ours + {len(others)} pyod baselines, not the paper's "
        f"{PAPER_BASELINES}); {rows}{failed}",
        headline=f"DVM-AD {100 * ours.mean_auroc:.1f} % mean AUROC, rank {ours.average_rank:.2f}; best baseline "
        f"{best_auroc.method} {100 * best_auroc.mean_auroc:.1f} %, "
        f"best rank {best_rank.method} {best_rank.average_rank:.2f} "
        f"(paper: {PAPER_MEAN_AUROC} %, rank {PAPER_AVERAGE_RANK} among {PAPER_BASELINES} baselines)",
        evidence=[
            "tables/leaderboard.csv",
            "tables/rank_per_seed.csv",
            "tables/auroc_per_dataset.csv",
            "figures/average_rank.png",
        ],
    )


def both_ends_beat_one_end(ablation: pd.DataFrame, per_dataset: pd.DataFrame, reference: str = "max") -> Claim:
    rows = ablation[ablation["reference"] == reference].set_index("keep")["mean_auroc"]
    variants = per_dataset[per_dataset["method"].str.startswith(MAIN) & (per_dataset["reference"] == reference)]
    wide = variants.pivot_table(index="dataset", columns="keep", values="auroc")
    found = [
        _paired("both_minus_compressive", wide["both"], wide["compressive"], POINT),
        _paired("both_minus_structure", wide["both"], wide["structure"], POINT),
    ]
    return Claim(
        id="both_ends_beat_either_end",
        statement="Keeping directions from both ends of the spectrum beats keeping either end alone "
        f"(mean AUROC, reference point '{reference}'; 95 % intervals of the gains above the practical margin "
        f"{POINT:g})",
        paper_value="both ends > compressive only, structure-preserving only",
        measured={k: 100 * float(v) for k, v in rows.items()} | {i.statistic: i.estimate for i in found},
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note="mean AUROC (%) over datasets and seeds per keep mode; all reference points in tables/ablation.csv",
        headline=f"mean AUROC with both ends {100 * rows['both']:.2f} % vs compressive only "
        f"{100 * rows['compressive']:.2f} % and structure-preserving only {100 * rows['structure']:.2f} % "
        "(paper: both ends beat either end)",
        evidence=["tables/ablation.csv", "figures/ablation.png"],
    )


def top_ranked_across_types(board: pd.DataFrame, per_dataset: pd.DataFrame) -> Claim:
    """Per anomaly type (``type`` column of both tables, :func:`tables.by_type`): DVM-AD's average rank ahead of
    the best-ranked baseline's, a paired bootstrap over the datasets of their rank difference per type. Empty
    tables (``type_datasets: []``: the types not run at this scale) leave the claim not evaluated, saying so."""
    if board.empty:
        return not_evaluated(
            "top_ranked_across_anomaly_types",
            "On each of ADBench's realistic synthetic anomaly types, DVM-AD has the best average rank",
            TYPES_PAPER_VALUE,
            "the anomaly types were not run at this scale (type_datasets is empty in this config)",
            TYPES_EVIDENCE,
        )
    found, measured, parts = [], {}, []
    for kind, type_board in board.groupby("type", sort=False):
        ours, best, lead = _rank_lead(type_board, per_dataset[per_dataset["type"] == kind], f"rank_lead_{kind}")
        found.append(lead)
        place = 1 + int((type_board["average_rank"] < ours.average_rank).sum())
        measured[kind] = {
            "average_rank": float(ours.average_rank),
            "place": place,
            "mean_auroc_pct": 100 * float(ours.mean_auroc),
            "best_baseline": {"method": best.method, "average_rank": float(best.average_rank)},
            "datasets": int(ours.datasets),
            "rank_lead_over_best": found[-1].estimate,
        }
        parts.append(f"{kind} {ours.average_rank:.2f} (place {place}; best baseline {best.method} "
                     f"{best.average_rank:.2f})")  # fmt: skip
    methods = board.groupby("type")["method"].nunique().max()
    return Claim(
        id="top_ranked_across_anomaly_types",
        statement=f"On each of ADBench's realistic synthetic anomaly types ({', '.join(measured)}), DVM-AD has the "
        "best average rank (95 % interval of its lead over the best-ranked baseline of that type above the practical "
        f"margin, (K - 1) / 100 among the K ranked methods: {rank_point(methods):g})",
        paper_value=TYPES_PAPER_VALUE,
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"ranks among {methods} methods (ours + pyod baselines) on synthetic anomalies generated from each "
        "dataset's normal rows (icml26.dvm_ad.synthetic: ADBench's generator, its vine copula fitted with "
        "pyvinecopulib)",
        headline="DVM-AD's average rank per anomaly type: " + "; ".join(parts) + " (paper: top-ranked on all four)",
        evidence=TYPES_EVIDENCE,
    )


def top_ranked_on_embeddings(board: pd.DataFrame, per_benchmark: pd.DataFrame) -> Claim:
    """DVM-AD's average rank over ADBench's embedding benchmarks ahead of the best-ranked baseline's: a paired
    bootstrap over the benchmarks of their rank difference. With no benchmark run (``embedding_benchmarks: []``, the
    data not offline), not evaluated, saying so."""
    statement = "DVM-AD has the best average rank over ADBench's CV / NLP embedding benchmarks"
    paper = {"average_rank": PAPER_EMBEDDING_RANK, "mean_auroc_pct": PAPER_EMBEDDING_AUROC,
             "benchmarks": PAPER_EMBEDDING_BENCHMARKS}  # fmt: skip
    if board.empty:
        return not_evaluated(
            "top_ranked_on_embeddings", statement, paper,
            "no embedding benchmark was run (embedding_benchmarks is empty in this config): ADBench's CV_by_ResNet18 "
            "and NLP_by_BERT sets are public but not offline here; paper scale reads them once fetched (make fetch "
            "PAPER=dvm_ad FROM=..., OVERLAYS=config/overlays/dvm_ad_fetched.yaml)",
            EMBEDDING_EVIDENCE,
        )  # fmt: skip
    ours, best, lead = _rank_lead(board, per_benchmark, "rank_lead_over_best")
    found, margin = [lead], lead.margin
    return Claim(
        id="top_ranked_on_embeddings",
        statement=f"{statement} (95 % interval of its lead over the best-ranked baseline above the practical margin, "
        f"(K - 1) / 100 among the K ranked methods: {margin:g})",
        paper_value=paper,
        measured={
            "average_rank": float(ours.average_rank),
            "mean_auroc_pct": 100 * float(ours.mean_auroc),
            "best_baseline_by_rank": {"method": best.method, "average_rank": float(best.average_rank)},
            "benchmarks": int(ours.datasets),
            "rank_lead_over_best": found[0].estimate,
        },
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=f"ranks among {len(board)} methods (ours + pyod baselines); a benchmark's AUROC is the mean over its "
        "versions (CIFAR10_0 ... CIFAR10_9) of their means over seeds",
        headline=f"DVM-AD rank {ours.average_rank:.2f}, AUROC {100 * ours.mean_auroc:.1f} % over {int(ours.datasets)} "
        f"embedding benchmarks; best baseline {best.method} rank {best.average_rank:.2f} (paper: rank "
        f"{PAPER_EMBEDDING_RANK}, AUROC {PAPER_EMBEDDING_AUROC} % over {PAPER_EMBEDDING_BENCHMARKS})",
        evidence=EMBEDDING_EVIDENCE,
    )
