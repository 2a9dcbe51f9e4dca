"""From per-seed AUROC rows to the tables the paper reports: mean AUROC, average rank, ablation."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

MAIN = "DVM-AD"
LEADERBOARD_COLUMNS = ("method", "mean_auroc", "average_rank", "datasets")  # what :func:`leaderboard` writes
# the columns of the per-type tables (per dataset, leaderboard, ablation), also when no set ran them
TYPE_COLUMNS = (
    ("type", "dataset", "method", "keep", "reference", "auroc", "auroc_std", "seeds"),
    ("type", *LEADERBOARD_COLUMNS),
    ("type", "keep", "reference", "mean_auroc", "average_rank"),
)
BENCHMARK_COLUMNS = ("dataset", "method", "keep", "reference", "auroc", "versions")  # dataset: the benchmark


def per_dataset(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean and spread over seeds of every (dataset, method, keep, reference); ``seeds`` counts the seeds with an
    AUROC (a baseline that failed on a seed's split has none there: :func:`benchmark._baseline_scores`)."""
    keys = ["dataset", "method", "keep", "reference"]
    rows = rows.fillna({"keep": "", "reference": ""})
    out = rows.groupby(keys, sort=True)["auroc"].agg(auroc="mean", auroc_std="std", seeds="count").reset_index()
    return out.fillna({"auroc_std": 0.0})


def leaderboard(table: pd.DataFrame) -> pd.DataFrame:
    """DVM-AD and the baselines: mean AUROC over datasets and average rank (1 = best, ties averaged)."""
    main = table[table["method"] != f"{MAIN} ablation"]
    wide = main.pivot(index="dataset", columns="method", values="auroc")
    ranks = wide.rank(axis=1, ascending=False, method="average")
    out = pd.DataFrame({"mean_auroc": wide.mean(), "average_rank": ranks.mean(), "datasets": wide.count()})
    return out.sort_values(["average_rank", "mean_auroc"], ascending=[True, False]).rename_axis("method").reset_index()


def rank_per_seed(rows: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard of each seed on its own: the spread behind the seed-averaged ranks."""
    frames = [leaderboard(per_dataset(seed_rows)).assign(seed=seed) for seed, seed_rows in rows.groupby("seed")]
    return pd.concat(frames, ignore_index=True)[["seed", "method", "mean_auroc", "average_rank", "datasets"]]


def ablation(table: pd.DataFrame) -> pd.DataFrame:
    """Every DVM-AD variant (keep mode x reference point): mean AUROC and average rank among the variants."""
    variants = table[table["method"].str.startswith(MAIN)].copy()
    variants["variant"] = variants["keep"] + "/" + variants["reference"]
    wide = variants.pivot(index="dataset", columns="variant", values="auroc")
    ranks = wide.rank(axis=1, ascending=False, method="average")
    out = pd.DataFrame({"mean_auroc": wide.mean(), "average_rank": ranks.mean()}).rename_axis("variant").reset_index()
    out[["keep", "reference"]] = out["variant"].str.split("/", expand=True)
    return (
        out[["keep", "reference", "mean_auroc", "average_rank"]]
        .sort_values(["keep", "reference"])
        .reset_index(drop=True)
    )


def by_type(frame: pd.DataFrame, table: Callable[[pd.DataFrame], pd.DataFrame]) -> pd.DataFrame:
    """``table`` computed on each anomaly type's rows alone (the ``type`` column), stacked with that column first."""
    parts = [table(rows.drop(columns="type")).assign(type=kind) for kind, rows in frame.groupby("type", sort=False)]
    out = pd.concat(parts, ignore_index=True)
    return out[["type", *[c for c in out.columns if c != "type"]]]


def per_benchmark(rows: pd.DataFrame) -> pd.DataFrame:
    """Embedding benchmarks: each version's mean over seeds (:func:`per_dataset`), then the mean over a benchmark's
    versions, as ADBench reports CIFAR10 over its ten one-class versions; ``dataset`` then names the benchmark."""
    versions = per_dataset(rows.drop(columns="benchmark")).merge(
        rows[["dataset", "benchmark"]].drop_duplicates(), on="dataset"
    )
    keys = ["benchmark", "method", "keep", "reference"]
    out = versions.groupby(keys, sort=True)["auroc"].agg(auroc="mean", versions="size").reset_index()
    return out.rename(columns={"benchmark": "dataset"})[list(BENCHMARK_COLUMNS)]
