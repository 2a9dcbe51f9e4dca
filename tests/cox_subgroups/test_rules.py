"""Rule functions on a tiny instance, dataset loading errors, and verdicts that can fail."""

import json
from pathlib import Path

import pandas as pd
import pytest

from icml26.cox_subgroups import realdata, rules, verdict

SETTINGS = dict(min_fraction=0.1, cox_alpha=1e-3, core_sizes=[0.1], thresholds=dict(low=0.0, high=0.45, points=4),
                random_boxes=5, tree_depth=2, tree_thresholds=4, prim_peel=0.1)
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CMAPSS = str(SHARED / "cmapss")
METHODS = ["base", "random", "survival_tree", "cox_tree", "prim", "dg", "dg_ci", "dg_pl", "dg_ne"]


def test_pipeline_functions_end_to_end(tmp_path):
    syn, real, timings = [], [], []
    for dataset in ("nonlinear", "counter"):
        syn.append(str(tmp_path / f"{dataset}.csv"))
        timings.append(str(tmp_path / f"{dataset}_t.csv"))
        rules.synthetic_run(syn[-1], timings[-1], dataset=dataset, seed=0, n_train=200, n_test=200, methods=METHODS,
                            settings=SETTINGS)
    rules.dataset(str(tmp_path / "vet.csv"), name="veterans", metabric_source="")
    real.append(str(tmp_path / "vet_run.csv"))
    timings.append(str(tmp_path / "vet_t.csv"))
    rules.real_run(str(tmp_path / "vet.csv"), real[-1], timings[-1], name="veterans", seed=0, test_size=0.3,
                   methods=METHODS, settings=SETTINGS)
    f = {k: str(tmp_path / v) for k, v in dict(s="s.csv", r="r.csv", c="claims.json", m="m.json",
                                               t="time.csv", cs="case.csv", cmapss="fd001.csv").items()}
    rules.cmapss_dataset(f["cmapss"], source_dir=CMAPSS, snapshot_every=50, test_engines="censored")
    case_runs = [str(tmp_path / "case_run.csv")]
    timings.append(str(tmp_path / "case_t.csv"))
    rules.case_study_run(f["cmapss"], case_runs[0], timings[-1], case="temps", adjust=["Nc"], subgroup=["T50", "Ps30"],
                         seed=0, test_size=0.3, methods=METHODS, settings=SETTINGS)
    rules.case_study_table(case_runs, f["cs"])
    rules.tables(syn, real, f["s"], f["r"])
    rules.timing(timings, f["t"], str(tmp_path / "machine.json"))
    rules.verdict(f["s"], f["r"], f["cs"], f["c"], f["m"])
    rules.figure_synthetic(f["s"], str(tmp_path / "a.png"), str(tmp_path / "a.pdf"))
    rules.figure_pareto(f["r"], str(tmp_path / "b.png"), str(tmp_path / "b.pdf"))
    summary = pd.read_csv(f["s"])
    assert len(summary) == 2 * len(METHODS)
    base = summary[summary["method"] == "base"].set_index("dataset")["f1_mean"]
    assert base["nonlinear"] == pytest.approx(2 / 7) and base["counter"] == pytest.approx(0.75)
    claims = json.load(open(f["c"]))
    assert [c["id"] for c in claims] == ["dg_recovers_planted_subgroup",
                                         "dg_beats_likelihood_and_c_index_variants_on_counter",
                                         "dg_on_epe_rejection_pareto_front"]
    assert (tmp_path / "b.png").stat().st_size > 10_000
    case = pd.read_csv(f["cs"])
    assert len(case) == len(METHODS) and case["rejection_mean"].between(0, 1).all()
    # boxes are reported in original units (T50 is around 1400 K, Ps30 around 47 psia)
    low = case.set_index("method").loc["base", "box_low_first_seed"].split(";")
    assert 1350 < float(low[0]) < 1450 and 45 < float(low[1]) < 49


def test_cmapss_rows_split_by_engine_and_censor_test_engines():
    from icml26.cox_subgroups import cmapss

    frame = cmapss.load_fd001(CMAPSS, 1)
    train = frame[frame["engine"].str.startswith("train_")]
    assert train["event"].all() and not frame[frame["engine"].str.startswith("test_")]["event"].any()
    # a training engine's last cycle has one cycle left to run; its first has its whole life
    one = train[train["engine"] == "train_1"]
    assert one["time"].min() == 1 and one["time"].max() == one["cycle"].max()
    with_rul = cmapss.load_fd001(CMAPSS, 1, "failures_from_rul")
    assert with_rul["event"].all() and (with_rul["time"] >= frame["time"]).all()
    with pytest.raises(FileNotFoundError, match="C-MAPSS file not found"):
        cmapss.load_fd001("/nonexistent", 10)


def test_metabric_loads_from_the_provided_file():
    frame = realdata.load("metabric", SHARED / "metabric" / "metabric.h5")
    assert list(frame.columns) == realdata.COLUMNS and len(frame) == 1903  # 1904 rows, one with time 0
    assert frame["subgroup"].between(20, 100).all()  # age at diagnosis


def test_metabric_needs_its_source_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="METABRIC source not found"):
        realdata.load("metabric", tmp_path / "missing.h5")
    with pytest.raises(ValueError, match="dataset must be one of"):
        realdata.load("flchain")


def _summary(dg_f1, dg_epe, counter):
    rows = [dict(dataset="nonlinear", method="dg", f1_mean=dg_f1, test_epe_mean=dg_epe, test_c_index_mean=0.8,
                 seeds=3),
            dict(dataset="nonlinear", method="base", f1_mean=2 / 7, test_epe_mean=0.69, test_c_index_mean=0.55,
                 seeds=3)]
    rows += [dict(dataset="counter", method=m, f1_mean=v, test_epe_mean=0.4, test_c_index_mean=0.8, seeds=3)
             for m, v in counter.items()]
    return pd.DataFrame(rows)


def test_verdicts_fail_when_the_numbers_do():
    good = _summary(0.95, 0.4, {"dg": 0.9, "dg_ci": 0.8, "dg_pl": 0.8, "base": 0.75})
    assert verdict.recovers_planted_subgroup(good).holds and verdict.beats_variants_on_counter(good).holds
    assert not verdict.recovers_planted_subgroup(_summary(0.8, 0.4, {})).holds
    assert not verdict.recovers_planted_subgroup(_summary(0.95, 0.66, {})).holds
    tie = _summary(0.95, 0.4, {"dg": 0.75, "dg_ci": 0.75, "dg_pl": 0.7, "base": 0.75})
    assert not verdict.beats_variants_on_counter(tie).holds


def test_pareto_front_and_its_claim():
    points = pd.DataFrame([dict(dataset="a", method="dg", rejection_mean=0.5, test_epe_mean=0.5),
                           dict(dataset="a", method="base", rejection_mean=0.0, test_epe_mean=0.69),
                           dict(dataset="a", method="prim", rejection_mean=0.4, test_epe_mean=0.45)])
    points["pareto"] = verdict.pareto_front(points)
    assert list(points["pareto"]) == [False, True, True]
    assert not verdict.on_pareto_front(points).holds
    points.loc[0, "test_epe_mean"] = 0.4
    points["pareto"] = verdict.pareto_front(points)
    assert verdict.on_pareto_front(points).holds
