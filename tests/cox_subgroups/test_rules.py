"""Rule functions on a tiny instance, dataset loading errors, and verdicts that can fail."""

import json
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE
from icml26.cox_subgroups import realdata, rules, verdict
from tests.conftest import figure_files

SETTINGS = dict(
    min_fraction=0.1,
    cox_alpha=1e-3,
    core_sizes=[0.1],
    thresholds=dict(low=0.0, high=0.45, points=4),
    random_boxes=5,
    tree_depth=2,
    tree_thresholds=4,
    prim_peel=0.1,
)
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CMAPSS = {name.lower(): str(SHARED / "cmapss" / f"{name}_FD001.txt") for name in ("train", "test", "RUL")}
METHODS = ["base", "random", "survival_tree", "cox_tree", "prim", "dg", "dg_ci", "dg_pl", "dg_ne"]


def test_pipeline_functions_end_to_end(tmp_path):
    syn, real, timings = [], [], []
    for dataset in ("nonlinear", "counter"):
        syn.append(str(tmp_path / f"{dataset}.csv"))
        timings.append(str(tmp_path / f"{dataset}_t.csv"))
        methods = METHODS if dataset == "nonlinear" else ["base", "dg", "dg_ci", "dg_pl"]
        rules.synthetic_run(
            syn[-1], timings[-1], dataset=dataset, seed=0, n_train=200, n_test=200, methods=methods, settings=SETTINGS
        )
    rules.dataset(str(tmp_path / "vet.csv"), name="veterans")
    real.append(str(tmp_path / "vet_run.csv"))
    timings.append(str(tmp_path / "vet_t.csv"))
    rules.real_run(
        str(tmp_path / "vet.csv"),
        real[-1],
        timings[-1],
        name="veterans",
        seed=0,
        test_size=0.3,
        methods=METHODS,
        settings=SETTINGS,
    )
    f = {
        k: str(tmp_path / v)
        for k, v in dict(
            s="s.csv", r="r.csv", c="claims.json", m="m.json", t="time.csv", cs="case.csv", cmapss="fd001.csv"
        ).items()
    }
    rules.cmapss_dataset(
        **{k: [v] for k, v in CMAPSS.items()}, table=f["cmapss"], subsets=["FD001"], snapshot_every=50,
        test_engines="censored",
    )  # fmt: skip
    case_runs = [str(tmp_path / "case_run.csv")]
    timings.append(str(tmp_path / "case_t.csv"))
    rules.case_study_run(
        f["cmapss"],
        case_runs[0],
        timings[-1],
        case="temps",
        adjust=["Nc"],
        subgroup=["T50", "Ps30"],
        seed=0,
        test_size=0.3,
        methods=METHODS,
        settings=SETTINGS,
    )
    rules.case_study_table(case_runs, f["cs"])
    rules.tables(syn, real, f["s"], f["r"])
    rules.timing(timings, f["t"], str(tmp_path / "machine.json"))
    rules.verdict(f["s"], f["r"], f["cs"], f["c"], f["m"], substitution="a test stand-in")
    views = {k: str(tmp_path / f"{k}.csv") for k in ("kaplan_meier", "logrank", "hazard_ratios")}
    rules.subgroup_survival(
        [str(tmp_path / "vet.csv")],
        real,
        f["cmapss"],
        case_runs,
        **views,
        method="dg",
        real_test_size=0.3,
        case_test_size=0.3,
        cases={"temps": {"adjust": ["Nc"], "subgroup": ["T50", "Ps30"]}},
        cox_alpha=SETTINGS["cox_alpha"],
    )
    figures = figure_files(tmp_path, "synthetic", "pareto", "case_study", "kaplan_meier")
    rules.figures(f["s"], f["r"], f["cs"], views["kaplan_meier"], views["logrank"], **figures)
    assert (tmp_path / "case_study.pdf").stat().st_size > 0 and (tmp_path / "kaplan_meier.png").stat().st_size > 0
    # the survival views see the run's own split and box: the held-out share inside DDGroup's box is the run's
    # test support, and the training rows behind the Cox summary are the box's share of the training split
    tests = pd.read_csv(views["logrank"]).set_index("dataset")
    run = pd.read_csv(real[0]).set_index("method").loc["dg"]
    vet = tests.loc["veterans"]
    assert vet["n_subgroup"] / (vet["n_subgroup"] + vet["n_complement"]) == pytest.approx(run["test_support"])
    assert vet["n_subgroup"] + vet["n_complement"] == round(0.3 * len(pd.read_csv(tmp_path / "vet.csv")))
    ratios = pd.read_csv(views["hazard_ratios"])
    assert list(ratios["covariate"]) == ["Karnofsky_score", "Nc"]
    assert (ratios["hazard_ratio_lower_95"] <= ratios["hazard_ratio"]).all()
    assert (ratios["hazard_ratio"] <= ratios["hazard_ratio_upper_95"]).all()
    summary = pd.read_csv(f["s"])
    assert len(summary) == len(METHODS) + 4
    base = summary[summary["method"] == "base"].set_index("dataset")
    assert base.loc["nonlinear", "f1_mean"] == pytest.approx(2 / 7) and base.loc["counter", "f1_mean"] == 0.75
    assert base.loc["counter", "best_f1_mean"] == 0.75  # one candidate: the best is the selected one
    assert (summary["best_f1_mean"] >= summary["f1_mean"] - 1e-12).all()  # the best bounds every selection
    claims = json.load(open(f["c"]))
    assert [c["id"] for c in claims] == [
        "dg_recovers_planted_subgroup",
        "dg_beats_likelihood_and_c_index_variants_on_counter",
        "dg_beats_variants_on_counter_as_a_user_selects",
        "dg_on_epe_rejection_pareto_front",
    ]
    assert (tmp_path / "pareto.png").stat().st_size > 10_000
    case = pd.read_csv(f["cs"])
    assert len(case) == len(METHODS) and case["rejection_mean"].between(0, 1).all()
    # boxes are reported in original units (T50 is around 1400 K, Ps30 around 47 psia)
    low = case.set_index("method").loc["base", "box_low_first_seed"].split(";")
    assert 1350 < float(low[0]) < 1450 and 45 < float(low[1]) < 49


def _fd001(*paths, snapshot_every=1, test_engines="censored"):
    from icml26.cox_subgroups import cmapss

    train, test, rul = paths or CMAPSS.values()
    return cmapss.load([train], [test], [rul], ["FD001"], snapshot_every, test_engines)


def test_cmapss_rows_split_by_engine_and_censor_test_engines():
    frame = _fd001()
    train = frame[frame["engine"].str.startswith("FD001_train_")]
    assert train["event"].all() and not frame[frame["engine"].str.startswith("FD001_test_")]["event"].any()
    # a training engine's last cycle has one cycle left to run; its first has its whole life
    one = train[train["engine"] == "FD001_train_1"]
    assert one["time"].min() == 1 and one["time"].max() == one["cycle"].max()
    with_rul = _fd001(test_engines="failures_from_rul")
    assert with_rul["event"].all() and (with_rul["time"] >= frame["time"]).all()
    assert frame["engine"].nunique() == 200 and len(_fd001(snapshot_every=50)) == 769
    assert set(frame["subset"]) == {"FD001"}


def test_subsets_combine_and_a_file_of_another_subset_or_an_unknown_subset_is_named(tmp_path):
    from icml26.common.sources import SourceError
    from icml26.cox_subgroups import cmapss

    folder = cmapss.write_replica(tmp_path / "cmapss", engines=4, cycles=(60, 90))
    files = {n: [str(folder / f"{n}_{s}.txt") for s in cmapss.SUBSETS] for n in ("train", "test", "RUL")}
    frame = cmapss.load(files["train"], files["test"], files["RUL"], list(cmapss.SUBSETS), 10)
    assert frame.groupby("subset")["op_setting_1"].agg(lambda a: a.round().nunique()).to_dict() == cmapss.CONDITIONS
    assert frame["engine"].nunique() == 4 * 2 * 4 and frame["engine"].str.startswith("FD004_test_").any()
    first = (folder / "train_FD002.txt").read_text().split("\n", 1)[0]
    assert not first.split()[0].isalpha() and first.endswith("  ")  # NASA's own layout: no header, trailing spaces
    with pytest.raises(SourceError, match=r"train_FD002.txt: 6 operating conditions, where FD001 has 1"):
        cmapss.load([files["train"][1]], [files["test"][0]], [files["RUL"][0]], ["FD001"], 10)
    with pytest.raises(ValueError, match="FD005: not a C-MAPSS subset"):
        cmapss.load(files["train"][:1], files["test"][:1], files["RUL"][:1], ["FD005"], 10)


def _damaged(tmp_path, name, damage):
    """A copy of one C-MAPSS file with ``damage`` applied to its text, and the three paths to load."""
    paths = dict(CMAPSS)
    copy = tmp_path / Path(paths[name]).name
    copy.write_text(damage(Path(paths[name]).read_text()))
    paths[name] = str(copy)
    return paths


@pytest.mark.parametrize(
    "name,damage,message",
    [
        ("train", lambda t: t[: len(t) // 3 + 17], r"line \d+ does not have 26 numeric fields"),  # truncated mid-line
        (
            "test",
            lambda t: "\n".join(t.splitlines()[:8001]) + "\n",
            r"62 test engines, but RUL_FD001.txt holds 100 remaining-life values",
        ),
        ("train", lambda t: t.replace("\n2 1 ", "\n3 1 ", 1), r"expected engines 1..N in order, found 100 engines"),
        ("test", lambda t: t.replace(" 518.67 ", " 5x8.67 ", 1), r"line 2 does not have 26 numeric fields"),
        (
            "train",
            lambda t: "\n".join(line for i, line in enumerate(t.splitlines()) if i != 50) + "\n",
            r"line 51: cycles of an engine must run 1, 2, 3",
        ),
        ("rul", lambda t: t.replace("112", "x12", 1), r"expected non-negative remaining-life values, 1 are not"),
        (
            "train",
            lambda t: "\x00\x01 garbage \x02" * 50,
            r"does not have 26 numeric fields|not a whitespace-separated",
        ),
    ],
)
def test_a_damaged_cmapss_file_stops_the_run_naming_it(tmp_path, name, damage, message):
    from icml26.common.sources import SourceError

    paths = _damaged(tmp_path, name, damage)
    with pytest.raises(SourceError, match=message) as err:
        _fd001(*paths.values(), snapshot_every=10)
    assert str(err.value).startswith(paths[name])


def test_a_changed_shared_file_is_caught_by_its_checksum(tmp_path, monkeypatch):
    """The same bytes under ../shared/data pass; one changed byte there fails, naming the file."""
    from icml26.common import sources

    data = tmp_path / "shared" / "data"
    (data / "cmapss").mkdir(parents=True)
    for path in CMAPSS.values():
        (data / "cmapss" / Path(path).name).write_bytes(Path(path).read_bytes())
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    local = [f"../shared/data/cmapss/{Path(p).name}" for p in CMAPSS.values()]
    assert len(_fd001(*local, snapshot_every=50)) == 769
    rul = data / "cmapss" / "RUL_FD001.txt"
    rul.write_text(rul.read_text().replace("112", "113", 1))  # still a valid file, different data
    with pytest.raises(sources.SourceError, match=r"^\.\./shared/data/cmapss/RUL_FD001.txt: contents differ"):
        _fd001(*local, snapshot_every=50)
    with pytest.raises(sources.SourceError, match="source file not found"):
        _fd001(str(tmp_path / "missing.txt"), *local[1:], snapshot_every=50)


def test_metabric_loads_from_the_provided_file():
    frame = realdata.load("metabric", SHARED / "metabric" / "metabric.h5")
    assert list(frame.columns) == realdata.COLUMNS and len(frame) == 1903  # 1904 rows, one with time 0
    assert frame["subgroup"].between(20, 100).all()  # age at diagnosis


def test_metabric_needs_its_source_file(tmp_path):
    from icml26.common.sources import SourceError

    with pytest.raises(SourceError, match="missing.h5: source file not found"):
        realdata.load("metabric", tmp_path / "missing.h5")
    with pytest.raises(ValueError, match="dataset must be one of"):
        realdata.load("flchain")


def _metabric_copy(path, **changes):
    import h5py
    import numpy as np

    with h5py.File(SHARED / "metabric" / "metabric.h5", "r") as source, h5py.File(path, "w") as out:
        for group in ("train", "test"):
            for key in ("x", "t", "e"):
                value = changes.get(f"{group}/{key}", np.asarray(source[group][key]))
                if value is not None:
                    out.create_dataset(f"{group}/{key}", data=value)


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"test/e": None}, "group 'test' with datasets x, t, e is required"),
        ({"train/x": [[0.0] * 9] * 3}, r"train: expected x \(n, 9\)"),
        ({"test/t": [float("nan")] * 381}, "test: x and t must be finite and t >= 0"),
        ({"train/e": [2] * 1523}, "event indicator e must be 0 or 1"),
    ],
)
def test_a_wrong_metabric_file_stops_the_run_naming_it(tmp_path, changes, message):
    from icml26.common.sources import SourceError

    _metabric_copy(tmp_path / "m.h5", **changes)
    with pytest.raises(SourceError, match=message):
        realdata.load("metabric", tmp_path / "m.h5")
    (tmp_path / "garbage.h5").write_bytes(b"not hdf5 at all" * 100)
    with pytest.raises(SourceError, match="garbage.h5: not a readable HDF5 file"):
        realdata.load("metabric", tmp_path / "garbage.h5")


def _summary(dg_f1, dg_epe, counter, sd=0.01):
    spread = {"f1_std": sd, "test_epe_std": sd}
    rows = [
        dict(dataset="nonlinear", method="dg", f1_mean=dg_f1, test_epe_mean=dg_epe, test_c_index_mean=0.8, seeds=3)
        | spread,
        dict(dataset="nonlinear", method="base", f1_mean=2 / 7, test_epe_mean=0.69, test_c_index_mean=0.55, seeds=3)
        | spread,
    ]
    rows += [
        dict(
            dataset="counter",
            method=m,
            f1_mean=0.75,
            best_f1_mean=v,
            best_f1_std=0.01,
            test_epe_mean=0.4,
            test_c_index_mean=0.8,
            seeds=10,
        )
        for m, v in counter.items()
    ]
    return pd.DataFrame(rows)


def test_verdicts_fail_when_the_numbers_do():
    good = _summary(0.95, 0.4, {"dg": 0.9, "dg_ci": 0.8, "dg_pl": 0.8, "base": 0.75})
    assert verdict.recovers_planted_subgroup(good).holds and verdict.beats_variants_on_counter(good).holds
    assert not verdict.recovers_planted_subgroup(_summary(0.8, 0.4, {})).holds
    assert not verdict.recovers_planted_subgroup(_summary(0.95, 0.66, {})).holds
    tie = _summary(0.95, 0.4, {"dg": 0.75, "dg_ci": 0.75, "dg_pl": 0.7, "base": 0.75})
    assert not verdict.beats_variants_on_counter(tie).holds
    # F1 0.87 +- 0.05 over three seeds: the t interval reaches below 0.85
    assert verdict.recovers_planted_subgroup(_summary(0.87, 0.4, {}, sd=0.05)).state == "inconclusive"
    below = _summary(0.95, 0.4, {"dg": 0.7, "dg_ci": 0.8, "dg_pl": 0.8, "base": 0.75})
    assert verdict.beats_variants_on_counter(below).state == "does not hold"


def test_the_counter_claim_is_judged_on_the_best_candidate_and_shows_the_min_epe_selection_beside_it():
    good = _summary(0.95, 0.4, {"dg": 0.94, "dg_ci": 0.76, "dg_pl": 0.81, "base": 0.75})
    good.loc[good["dataset"] == "counter", "f1_mean"] = [0.75, 0.6, 0.7, 0.75]  # min-EPE: DG no better
    claim = verdict.beats_variants_on_counter(good)
    assert claim.holds and claim.measured["min_training_epe_f1"] == {
        "dg": 0.75,
        "dg_ci": 0.6,
        "dg_pl": 0.7,
        "base": 0.75,
    }
    assert "planted box" in claim.headline and "min training EPE" in claim.headline
    worse = _summary(0.95, 0.4, {"dg": 0.94, "dg_ci": 0.76, "dg_pl": 0.95, "base": 0.75})
    worse.loc[worse["dataset"] == "counter", "f1_mean"] = [1.0, 0.6, 0.7, 0.75]  # min-EPE cannot rescue it
    assert not verdict.beats_variants_on_counter(worse).holds


def test_the_counter_claim_as_a_user_selects_is_judged_on_the_min_epe_subgroup():
    """Issue 66: with every method's min-EPE subgroup at F1 0.75 the paper's oracle selection still "holds"; the
    claim a user can check does not."""
    tied = _summary(0.95, 0.4, {"dg": 0.94, "dg_ci": 0.76, "dg_pl": 0.81, "base": 0.75})
    counter = tied["dataset"] == "counter"
    tied.loc[counter, "f1_std"] = 0.01
    assert verdict.beats_variants_on_counter(tied).holds
    user = verdict.beats_variants_on_counter_as_a_user_selects(tied)
    assert user.state == "does not hold" and user.measured["f1"]["dg"] == 0.75  # a zero difference, tight
    tied.loc[counter, "f1_mean"] = [0.9, 0.7, 0.7, 0.75]
    assert verdict.beats_variants_on_counter_as_a_user_selects(tied).state == "holds"


def test_pareto_front_and_its_claim():
    points = pd.DataFrame(
        [
            dict(dataset="a", method="dg", rejection_mean=0.5, test_epe_mean=0.5),
            dict(dataset="a", method="base", rejection_mean=0.0, test_epe_mean=0.69),
            dict(dataset="a", method="prim", rejection_mean=0.4, test_epe_mean=0.45),
        ]
    ).assign(rejection_std=0.01, test_epe_std=0.01, seeds=3)
    points["pareto"] = verdict.pareto_front(points)
    assert list(points["pareto"]) == [False, True, True]
    assert verdict.on_pareto_front(points).state == FAILS  # prim better on both axes, far beyond the seeds' noise
    points.loc[0, "test_epe_mean"] = 0.4
    points["pareto"] = verdict.pareto_front(points)
    assert verdict.on_pareto_front(points).state == HOLDS  # lower EPE than both, beyond the noise
    noisy = points.assign(test_epe_std=0.2, rejection_std=0.2)
    claim = verdict.on_pareto_front(noisy)  # the same means, seeds too noisy to order them
    assert claim.state == INCONCLUSIVE and claim.measured["a"]["on_front"] is True
