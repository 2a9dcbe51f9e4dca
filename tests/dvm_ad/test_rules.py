"""Data handling and the rule functions end to end on synthetic datasets."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE
from icml26.common.io import read_npz, write_npz
from icml26.dvm_ad import data, embeddings, rules, tables, verdict
from icml26.dvm_ad.synthetic import TYPES
from tests.conftest import ROOT


def synthetic(path, seed, n=300, d=5, anomalies=30, shift=4.0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.standard_normal((n, d)), rng.standard_normal((anomalies, d)) + shift])
    y = np.r_[np.zeros(n, int), np.ones(anomalies, int)]
    write_npz(path, X=X, y=y)


def test_npz_writing_is_byte_deterministic_and_round_trips(tmp_path):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    synthetic(a, 0)
    synthetic(b, 0)
    assert a.read_bytes() == b.read_bytes()
    assert read_npz(a, "X", "y")["X"].shape == (330, 5)


def test_bad_files_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.npz"):
        data.load(str(tmp_path / "missing.npz"))
    (tmp_path / "junk.npz").write_text("not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        data.load(str(tmp_path / "junk.npz"))
    write_npz(tmp_path / "one_class.npz", X=np.zeros((4, 2)), y=np.zeros(4))
    with pytest.raises(ValueError, match="both classes"):
        data.load(str(tmp_path / "one_class.npz"))
    write_npz(tmp_path / "no_y.npz", X=np.zeros((4, 2)))
    with pytest.raises(ValueError, match="missing array"):
        data.load(str(tmp_path / "no_y.npz"))


def test_the_paper_scale_reads_the_43_offline_classical_sets_and_the_overlay_all_47():
    import yaml

    X, y = np.arange(40.0).reshape(20, 2), np.array([0] * 18 + [1] * 2)
    kept_X, kept_y = data.subsample(X, y, None, seed=0)
    assert kept_X is X and kept_y is y  # max_rows null: no cap
    paper = yaml.safe_load((ROOT / "config/papers/dvm_ad.yaml").read_text())["paper"]
    offline = {p.stem for folder in paper["source_dir"] for p in (ROOT / folder).glob("*.npz")}
    assert len(data.CLASSICAL) == 47 and offline < set(data.CLASSICAL) and len(offline) == 43
    assert sorted(paper["datasets"]) == sorted(offline)  # every offline set, and only those
    absent = set(data.CLASSICAL) - offline
    assert absent == {"3_backdoor", "9_census", "13_fraud", "36_speech"}
    assert all(name in paper["substitution"] for name in absent)  # named wherever the verdict goes
    overlay = yaml.safe_load((ROOT / "config/overlays/dvm_ad_fetched.yaml").read_text())["dvm_ad"]
    assert overlay["datasets"] == list(data.CLASSICAL)


def test_adbench_rows_duplicate_small_sets_up_to_1000_and_subsample_large_ones_to_10000():
    small_y = np.r_[np.zeros(200, int), np.ones(23, int)]  # 42_WBC's size: 223 rows
    Xs, ys, _ = data.adbench_rows(np.arange(223.0)[:, None], small_y, seed=1, low=1000, high=10000)
    assert len(ys) == 1000 and set(Xs[:, 0]) <= set(range(223))  # drawn with replacement from its own rows
    assert ys.tolist() == small_y[Xs[:, 0].astype(int)].tolist()  # rows keep their labels
    large_y = (np.arange(19020) % 7 == 0).astype(int)  # 22_magic.gamma's size: 19,020 rows
    Xl, yl, _ = data.adbench_rows(np.arange(19020.0)[:, None], large_y, seed=1, low=1000, high=10000)
    assert len(yl) == 10000 and len(set(Xl[:, 0])) == 10000  # without replacement
    middle = np.arange(5000.0)[:, None]
    assert data.adbench_rows(middle, np.r_[np.zeros(4500, int), np.ones(500, int)], 1, 1000, 10000)[0] is middle


@pytest.mark.parametrize("rows", [223, 5000, 19020])
def test_adbench_rows_and_split_are_adbenchs_own_draws(rows):
    """The oracle: ADBench's DataGenerator seeds numpy's global generator, draws the rows with np.random.choice and
    splits with train_test_split on the global state; ours must give the same rows and the same split."""
    from sklearn.model_selection import train_test_split

    X, y = np.arange(float(rows))[:, None], (np.arange(rows) % 9 == 0).astype(int)
    np.random.seed(2)
    if rows < 1000:
        np.random.seed(2)
        keep = np.random.choice(np.arange(rows), 1000, replace=True)
        X_a, y_a = X[keep], y[keep]
    elif rows > 10000:
        np.random.seed(2)
        keep = np.random.choice(np.arange(rows), 10000, replace=False)
        X_a, y_a = X[keep], y[keep]
    else:
        X_a, y_a = X, y
    X_train, X_test, y_train, _ = train_test_split(X_a, y_a, test_size=0.3, shuffle=True, stratify=y_a)
    X_o, y_o, state = data.adbench_rows(X, y, 2, 1000, 10000)
    normal, ours_test, _ = data.split(X_o, y_o, state, 0.3)
    assert np.array_equal(ours_test, X_test) and np.array_equal(normal, X_train[y_train == 0])


def test_subsample_is_stratified_and_capped():
    y = np.r_[np.zeros(900, int), np.ones(100, int)]
    X = np.arange(1000.0)[:, None]
    Xs, ys = data.subsample(X, y, 200, seed=0)
    assert len(ys) == 200 and ys.sum() == 20
    assert data.subsample(X, y, 5000, seed=0)[0] is X


def test_split_trains_on_normal_rows_only():
    y = np.r_[np.zeros(90, int), np.ones(10, int)]
    normal, X_test, y_test = data.split(np.arange(100.0)[:, None], y, seed=0, test_size=0.3)
    assert len(X_test) == 30 and y_test.sum() == 3 and (normal < 90).all() and len(normal) == 63


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    d = tmp_path_factory.mktemp("dvm")
    aurocs, timings = [], []
    for i, name in enumerate(("alpha", "beta", "gamma")):
        synthetic(d / f"{name}_raw.npz", i, shift=2.0 + i)
        rules.dataset(str(d / f"{name}_raw.npz"), str(d / f"{name}.npz"), max_rows=200, seed=0)
        aurocs.append(str(d / f"{name}_auroc.csv"))
        timings.append(str(d / f"{name}_time.csv"))
        rules.evaluate(
            str(d / f"{name}.npz"),
            aurocs[-1],
            timings[-1],
            seeds=[0, 1],
            test_size=0.3,
            baselines=["KNN", "IForest"],
            epsilon=0.1,
            adbench_rows=None,
        )
    type_aurocs = []
    for name in ("alpha", "beta"):
        type_aurocs.append(str(d / f"{name}_types.csv"))
        timings.append(str(d / f"{name}_types_time.csv"))
        rules.evaluate_types(
            str(d / f"{name}.npz"), type_aurocs[-1], timings[-1], types=list(TYPES), seeds=[0], test_size=0.3,
            baselines=["KNN", "IForest"], epsilon=0.1, adbench_rows=None,
        )  # fmt: skip
    f = {k: str(d / f"{k}.csv") for k in ("per_dataset", "leaderboard", "ablation", "rank_per_seed")}
    f |= {f"{k}_by_type": str(d / f"{k}_by_type.csv") for k in ("per_dataset", "leaderboard", "ablation")}
    f |= {k: str(d / f"{k}.csv") for k in ("per_benchmark", "leaderboard_embedding")}
    rules.summarise_embedding([], f["per_benchmark"], f["leaderboard_embedding"])  # no embedding set offline
    rules.summarise(aurocs, f["per_dataset"], f["leaderboard"], f["ablation"], f["rank_per_seed"])
    rules.summarise_types(type_aurocs, f["per_dataset_by_type"], f["leaderboard_by_type"], f["ablation_by_type"])
    rules.timing(timings, str(d / "fit_seconds.csv"), str(d / "machine.json"))
    rules.verdict(
        f["per_dataset"],
        f["leaderboard"],
        f["ablation"],
        f["per_dataset_by_type"],
        f["leaderboard_by_type"],
        f["per_benchmark"],
        f["leaderboard_embedding"],
        str(d / "claims.json"),
        str(d / "metrics.json"),
        substitution="a test stand-in",
    )
    return d, f


def test_tables_have_every_method_dataset_and_variant(pipeline):
    d, f = pipeline
    board = pd.read_csv(f["leaderboard"])
    assert set(board["method"]) == {"DVM-AD", "KNN", "IForest"}
    assert (board["datasets"] == 3).all()
    assert board["average_rank"].sum() == pytest.approx(1 + 2 + 3)  # ranks of 3 methods on every dataset
    assert len(pd.read_csv(f["ablation"])) == 12
    per_seed = pd.read_csv(f["rank_per_seed"])  # each seed ranks the 3 methods on every dataset
    assert sorted(per_seed["seed"].unique()) == [0, 1]
    assert per_seed.groupby("seed")["average_rank"].sum().tolist() == pytest.approx([6.0, 6.0])
    assert len(pd.read_csv(d / "fit_seconds.csv")) == 12 + 2 + len(TYPES)  # + one generation row per type


def test_the_type_tables_rank_every_method_on_each_type_alone(pipeline):
    _, f = pipeline
    board = pd.read_csv(f["leaderboard_by_type"])
    assert list(dict.fromkeys(board["type"])) == list(TYPES)  # the configured order
    for _, rows in board.groupby("type"):
        assert set(rows["method"]) == {"DVM-AD", "KNN", "IForest"} and (rows["datasets"] == 2).all()
        assert rows["average_rank"].sum() == pytest.approx(6.0)  # 3 methods ranked on each of the 2 datasets
    per_dataset = pd.read_csv(f["per_dataset_by_type"])
    assert len(per_dataset) == len(TYPES) * 2 * (12 + 2)  # types x datasets x (DVM-AD variants + baselines)
    assert len(pd.read_csv(f["ablation_by_type"])) == len(TYPES) * 12


def test_every_claim_is_judged(pipeline):
    d, _ = pipeline
    claims = json.loads((d / "claims.json").read_text())
    assert [c["id"] for c in claims] == [
        "best_average_auroc_and_rank", "both_ends_beat_either_end", "top_ranked_across_anomaly_types",
        "top_ranked_on_embeddings",
    ]  # fmt: skip
    assert claims[3]["state"] == "not evaluated" and "not offline here" in claims[3]["note"]
    assert claims[0]["paper_value"]["mean_auroc_pct"] == 89.65
    assert sorted(claims[2]["measured"]) == sorted(TYPES)
    assert sorted(json.loads((d / "metrics.json").read_text())["by_type"]) == sorted(TYPES)


def test_the_synthetic_types_are_generated_from_the_seed_s_rows_and_rerun_byte_identically(tmp_path):
    """A type's AUROC rows depend on its seed alone: the same rows again, and the same whichever types run beside."""
    synthetic(tmp_path / "raw.npz", 0)
    X, y = data.load(str(tmp_path / "raw.npz"))
    from icml26.dvm_ad.benchmark import evaluate_types

    run = dict(seeds=[0], test_size=0.3, baselines=["KNN"], epsilon=0.1)
    every, _ = evaluate_types(X, y, types=list(TYPES), **run)
    alone, _ = evaluate_types(X, y, types=["cluster"], **run)
    assert {r["type"] for r in every} == set(TYPES)
    assert [r for r in every if r["type"] == "cluster"] == alone


def _type_tables(per_type: dict[str, dict[str, list[float]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-dataset AUROC of each method on each type, and the leaderboard by type, as the rules write them."""
    table = pd.concat([_per_dataset(aurocs).assign(type=kind) for kind, aurocs in per_type.items()])
    return tables.by_type(table, tables.leaderboard), table


def test_top_ranked_claim_states():
    first = {"DVM-AD": [0.9, 0.8, 0.85, 0.95, 0.7, 0.9], "KNN": [0.8, 0.7, 0.75, 0.85, 0.6, 0.8],
             "LOF": [0.7, 0.6, 0.7, 0.8, 0.5, 0.7]}  # fmt: skip
    second = {"DVM-AD": first["KNN"], "KNN": first["DVM-AD"], "LOF": first["LOF"]}  # KNN first on every dataset
    split = {"DVM-AD": [0.9, 0.7, 0.9, 0.7, 0.9, 0.7], "KNN": [0.7, 0.9, 0.7, 0.9, 0.7, 0.8],
             "LOF": [0.5] * 6}  # fmt: skip
    claim = verdict.top_ranked_across_types(*_type_tables({kind: first for kind in TYPES}))
    assert claim.state == HOLDS and [i.statistic for i in claim.interval] == [f"rank_lead_{k}" for k in TYPES]
    assert claim.measured["local"]["place"] == 1 and claim.measured["local"]["best_baseline"]["method"] == "KNN"
    behind = verdict.top_ranked_across_types(*_type_tables({k: second if k == "dependency" else first for k in TYPES}))
    assert behind.state == FAILS and behind.measured["dependency"]["place"] == 2  # one type lost fails the claim
    mixed = verdict.top_ranked_across_types(*_type_tables({k: split if k == "global" else first for k in TYPES}))
    assert mixed.state == INCONCLUSIVE


def _per_dataset(aurocs: dict[str, list[float]], keep: dict[str, list[float]] | None = None) -> pd.DataFrame:
    """Per dataset AUROC of each method, and of each DVM-AD keep mode (reference 'max') for the ablation."""
    rows = [
        {"dataset": f"d{i}", "method": m, "keep": "", "reference": "", "auroc": a}
        for m, values in aurocs.items()
        for i, a in enumerate(values)
    ]
    rows += [
        {"dataset": f"d{i}", "method": "DVM-AD ablation", "keep": k, "reference": "max", "auroc": a}
        for k, values in (keep or {}).items()
        for i, a in enumerate(values)
    ]
    return pd.DataFrame(rows)


def _board(per_dataset: pd.DataFrame) -> pd.DataFrame:
    from icml26.dvm_ad.tables import leaderboard

    return leaderboard(per_dataset)


def test_leaderboard_claim_states():
    ahead = _per_dataset({"DVM-AD": [0.9, 0.8, 0.85, 0.95, 0.7, 0.9], "KNN": [0.8, 0.7, 0.75, 0.85, 0.6, 0.8]})
    assert verdict.best_on_adbench(_board(ahead), ahead).state == HOLDS
    behind = _per_dataset({"DVM-AD": [0.8, 0.7, 0.75, 0.85, 0.6, 0.8], "KNN": [0.9, 0.8, 0.85, 0.95, 0.7, 0.9]})
    assert verdict.best_on_adbench(_board(behind), behind).state == FAILS
    mixed = _per_dataset({"DVM-AD": [0.9, 0.7, 0.86, 0.85, 0.7, 0.8], "KNN": [0.8, 0.8, 0.85, 0.95, 0.6, 0.79]})
    assert verdict.best_on_adbench(_board(mixed), mixed).state == INCONCLUSIVE


def test_a_baseline_that_failed_on_hard_datasets_is_compared_on_the_ones_it_scored():
    """ABOD's fast angles are NaN on duplicated rows, so at paper scale it has no AUROC on some sets: its
    leaderboard mean rests on the others. The claim compares DVM-AD with each baseline on the datasets both
    scored and takes the one it leads least, and a NaN never reaches the bootstrap."""
    nan = float("nan")
    ours = [0.9, 0.8, 0.85, 0.95, 0.6, 0.62, 0.58, 0.61]
    # KNN behind everywhere; ABOD ahead on the four easy sets and failed on the four hard ones
    aurocs = {"DVM-AD": ours, "KNN": [a - 0.05 for a in ours], "ABOD": [a + 0.04 for a in ours[:4]] + [nan] * 4}
    table = _per_dataset(aurocs)
    board = _board(table).set_index("method")
    assert board.loc["ABOD", "mean_auroc"] > board.loc["DVM-AD", "mean_auroc"] > board.loc["KNN", "mean_auroc"]
    assert board.loc["ABOD", "datasets"] == 4
    claim = verdict.best_on_adbench(_board(table), table, verdict.rows_note({"low": 1000, "high": 10000}))
    assert claim.measured["best_baseline_by_auroc"]["method"] == "ABOD" and claim.state == FAILS
    assert "as ADBench draws them (over 10,000 rows subsampled, under 1,000 duplicated)" in claim.note
    auroc = claim.interval[0]
    assert auroc.method == "bootstrap over 4 datasets" and auroc.estimate == pytest.approx(-0.04)
    assert "ABOD" in claim.note and "datasets it scored" in claim.note
    # the same baseline's failures on the hard sets do not make DVM-AD's lead over it: judged where it ran
    easy = _per_dataset({"DVM-AD": ours, "KNN": [a - 0.05 for a in ours],
                         "ABOD": [a - 0.005 for a in ours[:4]] + [nan] * 4})  # fmt: skip
    claim = verdict.best_on_adbench(_board(easy), easy)
    assert claim.measured["best_baseline_by_auroc"]["method"] == "ABOD"  # the one led least: 0.005 on its four
    assert claim.interval[0].estimate == pytest.approx(0.005) and claim.state == FAILS  # under the margin
    # with every dataset scored, the leaderboard's best baseline, as before
    full = _per_dataset({"DVM-AD": ours, "KNN": [a - 0.05 for a in ours], "LOF": [a - 0.1 for a in ours]})
    claim = verdict.best_on_adbench(_board(full), full)
    assert claim.measured["best_baseline_by_auroc"]["method"] == "KNN" and claim.state == HOLDS
    assert claim.interval[0].method == "bootstrap over 8 datasets" and "datasets it scored" not in claim.note
    assert "configured row cap" in claim.note  # quick's rows: the cap, not ADBench's draw
    alone = _per_dataset({"DVM-AD": ours, "ABOD": [nan] * 8})  # no baseline to compare with: said, not a crash
    with pytest.raises(ValueError, match="no baseline has a value on any dataset DVM-AD has one on"):
        verdict.best_on_adbench(_board(alone), alone)


def test_the_rank_figure_says_on_how_many_datasets_a_method_that_failed_on_some_was_ranked():
    import matplotlib.pyplot as plt

    from icml26.dvm_ad import plots

    nan = float("nan")
    table = _per_dataset({"DVM-AD": [0.9, 0.8, 0.7, 0.6], "KNN": [0.8, 0.7, 0.6, 0.5], "ABOD": [0.95, 0.9, nan, nan]})
    board = _board(table)
    per_seed = board.assign(seed=1)[["seed", "method", "mean_auroc", "average_rank", "datasets"]]
    fig = plots.average_rank(board, per_seed)
    labels = {t.get_text() for t in fig.axes[0].texts}
    plt.close(fig)
    assert "1.00 (AUROC 92.5 %; on 2 of 4)" in labels and "1.50 (AUROC 75.0 %)" in labels  # ABOD; DVM-AD, every set
    assert fig.axes[0].get_title() == "ADBench tabular: 4 datasets"


def test_ablation_claim_states():
    def table(both, compressive, structure):
        return _per_dataset({}, {"both": both, "compressive": compressive, "structure": structure})

    def ablation(t):
        return pd.DataFrame(
            [{"keep": k, "reference": "max", "mean_auroc": g["auroc"].mean(), "average_rank": 1.0}
             for k, g in t.groupby("keep")]
        )  # fmt: skip

    good = table([0.9, 0.8, 0.85, 0.95], [0.8, 0.7, 0.75, 0.85], [0.85, 0.75, 0.8, 0.9])
    assert verdict.both_ends_beat_one_end(ablation(good), good).state == HOLDS
    one_end = table([0.8, 0.7, 0.75, 0.85], [0.9, 0.8, 0.85, 0.95], [0.7, 0.6, 0.65, 0.75])
    assert verdict.both_ends_beat_one_end(ablation(one_end), one_end).state == FAILS
    same = table([0.9, 0.8, 0.85, 0.95], [0.8, 0.7, 0.75, 0.85], [0.9, 0.8, 0.85, 0.95])  # structure = both
    assert verdict.both_ends_beat_one_end(ablation(same), same).state == FAILS  # a difference of exactly zero


def test_ranks_average_ties():
    table = pd.DataFrame(
        [
            {"dataset": "a", "method": "DVM-AD", "keep": "both", "reference": "max", "auroc": 0.9},
            {"dataset": "a", "method": "KNN", "keep": "", "reference": "", "auroc": 0.9},
            {"dataset": "a", "method": "LOF", "keep": "", "reference": "", "auroc": 0.5},
        ]
    )
    board = tables.leaderboard(table).set_index("method")
    assert board.loc["DVM-AD", "average_rank"] == 1.5 and board.loc["LOF", "average_rank"] == 3


def test_auroc_orders_infinite_scores_and_refuses_nan():
    from icml26.dvm_ad.benchmark import auroc

    y = np.array([0, 0, 1, 1])
    assert auroc(y, np.array([0.1, 0.2, np.inf, 0.9])) == 1.0
    assert auroc(y, np.array([-np.inf, 0.2, 0.3, 0.9])) == 1.0
    assert auroc(y, np.array([np.inf, 0.2, np.inf, 0.9])) == pytest.approx(0.625)  # the tie at +inf is kept
    assert np.isnan(auroc(y, np.array([np.nan, 0.2, 0.3, 0.9])))


def test_every_paper_scale_baseline_fits_the_normal_rows_deterministically_and_scores_every_test_row():
    """Every detector the paper section may name (28 pyod detectors; it names 27, ROD left out for its C(d, 3)
    subspaces) through the protocol's own ``evaluate``: one AUROC per detector and seed, each a number, the same on
    a second run (each detector seeded, the global generators too)."""
    import yaml

    from icml26.dvm_ad.benchmark import BASELINES, evaluate

    paper = yaml.safe_load((Path(__file__).resolve().parents[2] / "config/papers/dvm_ad.yaml").read_text())["paper"]
    assert paper["baselines"] == [b for b in BASELINES if b != "ROD"] and len(BASELINES) == 28  # the paper's count
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(60, 3)), rng.normal(5.0, 1.0, size=(8, 3))])
    y = np.r_[np.zeros(60, int), np.ones(8, int)]
    rows, _ = evaluate(X, y, seeds=[0], test_size=0.3, baselines=list(BASELINES), epsilon=0.1)
    first = {r["method"]: r["auroc"] for r in rows if r["method"] in BASELINES}
    assert sorted(first) == sorted(BASELINES) and all(np.isfinite(list(first.values())))
    again, _ = evaluate(X, y, seeds=[0], test_size=0.3, baselines=["LODA", "VAE"], epsilon=0.1)
    assert {r["method"]: r["auroc"] for r in again if r["method"] in BASELINES} == {
        name: first[name] for name in ("LODA", "VAE")
    }


def test_a_baseline_that_raises_gets_a_nan_auroc_with_its_reason_and_the_others_still_run(monkeypatch, capsys):
    """ADBench's rule (a detector that raises on a split is recorded as NaN, the run goes on), said in one line;
    the per-dataset table then counts only the seeds with an AUROC. Running out of memory is raised."""
    from icml26.dvm_ad import benchmark

    class Raises:
        def __init__(self, error):
            self.error = error

        def fit(self, X):
            raise self.error

    made = benchmark._pyod
    monkeypatch.setattr(benchmark, "_pyod", lambda name, seed, d: Raises(ValueError("no valid\n separation"))
                        if (name, seed) == ("CBLOF", 1) else made(name, seed, d))  # fmt: skip
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(60, 3)), rng.normal(5.0, 1.0, size=(8, 3))])
    y = np.r_[np.zeros(60, int), np.ones(8, int)]
    rows, _ = benchmark.evaluate(X, y, seeds=[0, 1], test_size=0.3, baselines=["CBLOF", "KNN"], epsilon=0.1)
    found = {(r["method"], r["seed"]): r for r in rows}
    assert np.isnan(found["CBLOF", 1]["auroc"]) and found["CBLOF", 1]["error"] == "ValueError: no valid separation"
    assert all(np.isfinite(r["auroc"]) and r["error"] == "" for key, r in found.items() if key != ("CBLOF", 1))
    assert "seed 1: CBLOF failed (ValueError: no valid separation)" in capsys.readouterr().out
    table = tables.per_dataset(pd.DataFrame(rows).assign(dataset="set")).set_index("method")
    assert table.loc["CBLOF", "seeds"] == 1 and table.loc["CBLOF", "auroc"] == found["CBLOF", 0]["auroc"]
    assert table.loc["KNN", "seeds"] == 2

    monkeypatch.setattr(benchmark, "_pyod", lambda name, seed, d: Raises(MemoryError()))
    with pytest.raises(MemoryError):
        benchmark.evaluate(X, y, seeds=[0], test_size=0.3, baselines=["KNN"], epsilon=0.1)


def test_with_no_type_sets_the_type_claim_is_not_evaluated_and_says_why(pipeline, tmp_path):
    from icml26.common.claims import NOT_EVALUATED

    _, f = pipeline
    empty = {k: str(tmp_path / f"{k}.csv") for k in ("per_dataset", "leaderboard", "ablation")}
    rules.summarise_types([], empty["per_dataset"], empty["leaderboard"], empty["ablation"])
    assert list(pd.read_csv(empty["leaderboard"]).columns) == list(pd.read_csv(f["leaderboard_by_type"]).columns)
    assert list(pd.read_csv(empty["per_dataset"]).columns) == list(pd.read_csv(f["per_dataset_by_type"]).columns)
    assert list(pd.read_csv(empty["ablation"]).columns) == list(pd.read_csv(f["ablation_by_type"]).columns)
    claim = verdict.top_ranked_across_types(pd.read_csv(empty["leaderboard"]), pd.read_csv(empty["per_dataset"]))
    assert claim.state == NOT_EVALUATED and "type_datasets is empty" in claim.note
    from icml26.dvm_ad import plots

    assert plots.anomaly_types(pd.read_csv(empty["leaderboard"])).axes[0].texts  # says so rather than failing


def test_embedding_versions_are_found_by_benchmark_and_averaged_before_ranking(tmp_path):
    cv, nlp = tmp_path / "CV_by_ResNet18", tmp_path / "NLP_by_BERT"
    embeddings.write_replica(cv)
    embeddings.write_replica(nlp)
    (cv / "CIFAR100_0.npz").write_bytes((cv / "CIFAR10_0.npz").read_bytes())  # another benchmark's prefix: not read
    folders = [str(cv), str(nlp)]
    assert [Path(f).name for f in embeddings.files(folders, "CIFAR10")] == ["CIFAR10_0.npz", "CIFAR10_1.npz"]
    assert [Path(f).name for f in embeddings.files(folders, "amazon")] == ["amazon.npz"]
    assert embeddings.files(folders[:1], "amazon") == []  # the caller names what is missing
    assert embeddings.benchmark_of("MNIST-C_brightness") == "MNIST-C" and embeddings.benchmark_of("yelp") == "yelp"
    with pytest.raises(ValueError, match="CIFAR100_0: not a version of ADBench's embedding benchmarks"):
        embeddings.benchmark_of("CIFAR100_0")
    rows = pd.DataFrame(
        [{"seed": s, "method": m, "keep": "", "reference": "", "auroc": a, "dataset": d, "benchmark": "CIFAR10"}
         for d, per_method in (("CIFAR10_0", {"KNN": (0.6, 0.8), "DVM-AD": (0.9, 0.9)}),
                               ("CIFAR10_1", {"KNN": (0.5, 0.5), "DVM-AD": (0.3, 0.5)}))
         for m, values in per_method.items() for s, a in enumerate(values)]
    )  # fmt: skip
    table = tables.per_benchmark(rows).set_index("method")
    assert table.loc["KNN", "auroc"] == pytest.approx((0.7 + 0.5) / 2) and table.loc["KNN", "versions"] == 2
    assert table.loc["DVM-AD", "auroc"] == pytest.approx((0.9 + 0.4) / 2) and set(table["dataset"]) == {"CIFAR10"}


def test_embedding_claim_states():
    ahead = _per_dataset({"DVM-AD": [0.9, 0.8, 0.85, 0.95, 0.7, 0.9], "KNN": [0.8, 0.7, 0.75, 0.85, 0.6, 0.8]})
    claim = verdict.top_ranked_on_embeddings(_board(ahead), ahead)
    assert claim.state == HOLDS and claim.measured["average_rank"] == 1.0 and claim.paper_value["average_rank"] == 1.6
    behind = _per_dataset({"DVM-AD": [0.8, 0.7, 0.75, 0.85, 0.6, 0.8], "KNN": [0.9, 0.8, 0.85, 0.95, 0.7, 0.9]})
    assert verdict.top_ranked_on_embeddings(_board(behind), behind).state == FAILS
    mixed = _per_dataset({"DVM-AD": [0.9, 0.7, 0.9, 0.7, 0.9, 0.7], "KNN": [0.7, 0.9, 0.7, 0.9, 0.7, 0.8]})
    assert verdict.top_ranked_on_embeddings(_board(mixed), mixed).state == INCONCLUSIVE


def test_a_seedwise_set_joined_from_one_job_per_seed_is_the_one_job_s_table_byte_for_byte(tmp_path):
    """paper scale's ``seedwise`` sets run each seed as its own job (one that fits a session) and join them: the
    AUROC table is the bytes one job over all seeds writes (under ADBench's row draw, with a seeded baseline and a
    torch one), the timing table the same rows and columns (its seconds are measured, never identical); per-seed
    tables that disagree on their columns are refused."""
    synthetic(tmp_path / "raw.npz", 0, n=200, anomalies=20)
    rules.dataset(str(tmp_path / "raw.npz"), str(tmp_path / "set.npz"), max_rows=None, seed=0)
    settings = dict(test_size=0.3, baselines=["LODA", "KNN", "AutoEncoder"], epsilon=0.1,
                    adbench_rows={"low": 300, "high": 10000})  # fmt: skip
    rules.evaluate(str(tmp_path / "set.npz"), str(tmp_path / "one.csv"), str(tmp_path / "one_t.csv"),
                   seeds=[3, 1, 2], **settings)  # fmt: skip
    for seed in (3, 1, 2):
        rules.evaluate(str(tmp_path / "set.npz"), str(tmp_path / f"s{seed}.csv"), str(tmp_path / f"t{seed}.csv"),
                       seeds=[seed], **settings)  # fmt: skip
    parts = [str(tmp_path / f"s{seed}.csv") for seed in (3, 1, 2)]
    times = [str(tmp_path / f"t{seed}.csv") for seed in (3, 1, 2)]
    rules.join_seeds(parts, times, str(tmp_path / "joined.csv"), str(tmp_path / "joined_t.csv"))
    assert (tmp_path / "joined.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
    joined, one = pd.read_csv(tmp_path / "joined_t.csv"), pd.read_csv(tmp_path / "one_t.csv")
    assert joined.drop(columns="seconds").equals(one.drop(columns="seconds")) and joined.seed.tolist()[0] == 3
    pd.read_csv(parts[1]).drop(columns="error").to_csv(parts[1], index=False)
    with pytest.raises(ValueError, match="different columns"):
        rules.join_seeds(parts, times, str(tmp_path / "bad.csv"), str(tmp_path / "bad_t.csv"))
    assert not (tmp_path / "bad.csv").exists()


def test_paper_scale_runs_mammography_one_seed_per_job_and_every_other_set_in_one():
    """The ``seedwise`` set's three seeds are three jobs joined into the table the other sets' one job writes."""
    from tests.conftest import dag_jobs

    jobs = dag_jobs(ROOT, "data/paper/dvm_ad/auroc/23_mammography.csv", "data/paper/dvm_ad/auroc/14_glass.csv",
                    "--configfile", "config/paper.yaml", "--config", "papers=[dvm_ad]")  # fmt: skip
    rules_of = sorted(job["rule"] for job in jobs if job["rule"] != "dvm_ad_dataset")
    assert rules_of == ["dvm_ad_evaluate", "dvm_ad_evaluate_seed", "dvm_ad_evaluate_seed", "dvm_ad_evaluate_seed",
                        "dvm_ad_join_seeds"]  # fmt: skip
    assert [j["output"][0] for j in jobs if j["rule"] == "dvm_ad_evaluate"] == ["data/paper/dvm_ad/auroc/14_glass.csv"]
