"""The tables from evaluation rows (by hand on small frames) and every verdict in each state it can reach: holds,
does not hold, inconclusive, premise not met (an uncalibrated simulator) and not evaluated."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from icml26.common.claims import INCONCLUSIVE, PREMISE_NOT_MET
from icml26.netdiff import analysis
from icml26.netdiff import verdict as v

CRITERIA = {"confidence": 0.95, "resamples": 200, "seed": 0}
MODELS = ["netdiff", "graph_transformer"]


def _frame(
    netdiff: float = 0.97,
    transformer: float = 0.9,
    greedy: float = 0.85,
    density_error=(0.01, 0.05),
    raw_violations=(1, 1),
):
    """Four instances at N = 8 and four at N = 10; every method's share constant up to a small per-instance
    wiggle; raw densities off the target's by ``density_error`` and sector violations per raw sample
    ``raw_violations`` (NetDiff, graph transformer)."""
    rows = []
    wiggle = [0.0, 0.01, -0.01, 0.005]
    for instance in range(8):
        nodes, w = (8 if instance < 4 else 10), wiggle[instance % 4]
        base = {"instance": instance, "nodes": nodes, "connected": True, "min_sinr_db": 0.0, "good_links": 1.0}
        base |= {"range_violations": 0, "sector_violations": 0, "parity_violations": 0, "sector_usage": 0.3}
        rows.append(base | {"method": "target", "seed": 0, "share": 1.0, "density": 0.2})
        for method, share in (("greedy", greedy), ("mutual_nearest", greedy), ("omnidirectional", 0.3)):
            rows.append(base | {"method": method, "seed": 0, "share": share + w, "density": 0.25})
        for seed in (0, 1):
            for model, share, error, wrong in (
                ("netdiff", netdiff, density_error[0], raw_violations[0]),
                ("graph_transformer", transformer, density_error[1], raw_violations[1]),
            ):
                rows.append(base | {"method": model, "seed": seed, "share": share + w, "density": 0.2})
                raw = {"share": share, "density": 0.2 + error, "sector_violations": wrong, "connected": False}
                rows.append(base | {"method": f"{model}_raw", "seed": seed} | raw)
    return pd.DataFrame(rows)


def test_the_repair_table_puts_each_models_raw_and_repaired_scores_side_by_side():
    results = analysis.results(_frame(raw_violations=(0, 2)), CRITERIA)
    table = analysis.repair(results, MODELS).set_index(["model", "nodes"])
    assert list(table.index) == [("netdiff", 8), ("netdiff", 10), ("graph_transformer", 8), ("graph_transformer", 10)]
    assert (
        table.loc[("graph_transformer", 8), "raw_violations"] == 2 and table.loc[("netdiff", 8), "raw_violations"] == 0
    )
    assert table.loc[("netdiff", 8), "raw_connected"] == 0 and table.loc[("netdiff", 8), "repaired_connected"] == 1
    assert table.loc[("netdiff", 10), "raw_share"] == pytest.approx(0.97)  # no per-instance wiggle before repair
    assert table.loc[("netdiff", 10), "repaired_share"] == pytest.approx(0.97 + 0.005 / 4)


def test_results_average_per_method_and_n_with_an_interval_around_the_mean():
    table = analysis.results(_frame(), CRITERIA).set_index(["method", "nodes"])
    assert table.loc[("netdiff", 8), "share"] == pytest.approx(0.97 + 0.005 / 4)
    assert table.loc[("netdiff", 8), "seeds"] == 2 and table.loc[("greedy", 8), "seeds"] == 1
    assert table.loc[("target", 10), "low"] == table.loc[("target", 10), "high"] == 1.0
    row = table.loc[("greedy", 10)]
    assert row["low"] <= row["share"] <= row["high"]
    assert table.loc[("netdiff_raw", 8), "violations"] == 1 and table.loc[("netdiff_raw", 8), "connected"] == 0


def test_comparisons_are_paired_differences_per_n():
    table = analysis.comparisons(_frame(), MODELS, CRITERIA)
    share = table[table["metric"] == "share"].set_index(["baseline", "nodes"])
    assert share.loc[("greedy", 8), "difference"] == pytest.approx(0.12)
    assert share.loc[("greedy", 8), "low"] == pytest.approx(0.12)  # the wiggle is shared: paired, no spread
    assert share.loc[("graph_transformer", 10), "difference"] == pytest.approx(0.07)
    raw = table[table["metric"] == "raw_violations"]
    assert raw["baseline"].tolist() == ["graph_transformer"] * 2 and (raw["difference"] == 0).all()


def test_count_errors_against_the_target_on_the_same_instance():
    table = analysis.count_errors(_frame(), MODELS, CRITERIA).set_index(["model", "count", "nodes"])
    assert table.loc[("netdiff", "density", 8), "error"] == pytest.approx(0.01)
    assert table.loc[("graph_transformer", "density", 8), "error"] == pytest.approx(0.05)
    assert table.loc[("graph_transformer", "density", 8), "netdiff_minus"] == pytest.approx(-0.04)
    assert table.loc[("graph_transformer", "sector_usage", 10), "error"] == 0
    assert np.isnan(table.loc[("netdiff", "density", 8), "netdiff_minus"])


def test_the_milp_gap_by_hand_and_bound_violations_only_for_connected_topologies():
    rows = []
    for instance, (opt, target, greedy) in enumerate([(10.0, 9.0, 8.0), (10.0, 10.0, 11.0)]):
        for method, surrogate, throughput, connected in (
            ("milp", opt, 4.0, True),
            ("target", target, 5.0, True),
            ("greedy", greedy, 2.0, instance == 0),  # greedy above the optimum on a disconnected topology
        ):
            rows.append(
                {"nodes": 6, "instance": instance, "method": method, "surrogate": surrogate,
                 "milp_optimum": opt, "throughput": throughput, "connected": connected}
            )  # fmt: skip
    gap = analysis.milp_gap(pd.DataFrame(rows)).iloc[0]
    assert gap["target_surrogate_ratio"] == pytest.approx(0.95) and gap["throughput_ratio"] == 1.25
    assert gap["greedy_surrogate_ratio"] == pytest.approx(0.95) and gap["bound_violations"] == 0
    rows[-1]["connected"] = True
    assert analysis.milp_gap(pd.DataFrame(rows)).iloc[0]["bound_violations"] == 1


def _calibration(greedy=0.85, omni=0.3, small=0.88):
    row = {"sectors": 6, "side_db": -6.0, "greedy": greedy, "omnidirectional": omni, "random_feasible": 0.7}
    rows = [row | {"nodes": n, "mutual_nearest": mnn, "target": 10.0} for n, mnn in ((16, small), (20, 0.88))]
    from icml26.netdiff.calibration import admissible

    return admissible(pd.DataFrame(rows))


CHANNEL = {"sectors": 6, "side_db": -6.0}
MET = [v.calibration_premise(v.simulator_calibrated(_calibration(), CHANNEL, [16, 20]))]
UNMET = [v.calibration_premise(v.simulator_calibrated(_calibration(greedy=0.95), CHANNEL, [16, 20]))]


def test_calibration_holds_inside_the_bands_and_fails_outside():
    assert v.simulator_calibrated(_calibration(), CHANNEL, [16, 20]).holds is True
    assert v.simulator_calibrated(_calibration(greedy=0.95), CHANNEL, [16, 20]).holds is False
    assert v.simulator_calibrated(_calibration(omni=0.45), CHANNEL, [16, 20]).holds is False
    assert v.simulator_calibrated(_calibration(small=0.92), CHANNEL, [16, 20]).holds is False  # every test N
    assert v.simulator_calibrated(_calibration(small=0.92), CHANNEL, [20]).holds is True
    assert v.simulator_calibrated(_calibration(), {"sectors": 4, "side_db": -6.0}, [16, 20]).holds is None
    assert v.simulator_calibrated(_calibration(), CHANNEL, [12, 20]).holds is None


def test_reaching_95_percent_needs_every_n():
    results = analysis.results(_frame(netdiff=0.97), CRITERIA)
    assert v.reaches_target(results, MET).holds is True
    results.loc[(results["method"] == "netdiff") & (results["nodes"] == 10), ["share", "low", "high"]] = [
        0.94,
        0.93,
        0.945,
    ]
    claim = v.reaches_target(results, MET)
    assert claim.holds is False and claim.measured["N10"] == 0.94
    assert v.reaches_target(results[results["method"] != "netdiff"], MET).holds is None
    assert v.reaches_target(analysis.results(_frame(netdiff=0.97), CRITERIA), UNMET).state == PREMISE_NOT_MET
    close = analysis.results(_frame(netdiff=0.951), CRITERIA)  # the wiggle puts 0.95 inside the interval
    assert v.reaches_target(close, MET).state == INCONCLUSIVE


def test_beating_heuristics_and_the_transformer_needs_intervals_above_zero():
    ahead = analysis.comparisons(_frame(raw_violations=(0, 2)), MODELS, CRITERIA)
    assert v.beats_heuristics(ahead, MET).holds is True
    assert v.improves_over_graph_transformer(ahead, MET).holds is True  # fewer violations before repair
    behind = analysis.comparisons(_frame(netdiff=0.88, transformer=0.9, raw_violations=(2, 0)), MODELS, CRITERIA)
    assert v.beats_heuristics(behind, MET).holds is True  # still above greedy's 0.85
    assert v.improves_over_graph_transformer(behind, MET).holds is False
    # the generator claim is judged before repair: a repaired share ahead does not carry raw samples that are as bad
    repaired_only = analysis.comparisons(_frame(raw_violations=(1, 1)), MODELS, CRITERIA)
    claim = v.improves_over_graph_transformer(repaired_only, MET)
    assert claim.holds is False and claim.details["repaired_share_difference"]["graph_transformer/N8"] > 0
    assert v.beats_heuristics(analysis.comparisons(_frame(netdiff=0.8), MODELS, CRITERIA), MET).holds is False
    assert v.improves_over_graph_transformer(ahead[ahead["baseline"] != "graph_transformer"], MET).holds is None


def test_acam_counts_hold_only_when_netdiffs_error_is_lower():
    assert v.acam_matches_counts(analysis.count_errors(_frame(), MODELS, CRITERIA), MET).holds is False  # usage tied
    frame = _frame(density_error=(0.01, 0.05))
    raw = frame["method"] == "graph_transformer_raw"
    frame.loc[raw, "sector_usage"] = 0.35
    assert v.acam_matches_counts(analysis.count_errors(frame, MODELS, CRITERIA), MET).holds is True
    worse = _frame(density_error=(0.05, 0.01))
    worse.loc[worse["method"] == "graph_transformer_raw", "sector_usage"] = 0.35
    assert v.acam_matches_counts(analysis.count_errors(worse, MODELS, CRITERIA), MET).holds is False
    assert v.acam_matches_counts(analysis.count_errors(frame, ["netdiff"], CRITERIA), MET).holds is None


def _partial(shares: dict[int, float], spread: float = 0.001) -> pd.DataFrame:
    """Three seeds, each seed's share at k off the given one by -spread, 0, +spread."""
    rows = [
        {"trace": 0, "frame": 1, "restart": k, "denoising_steps": k, "share": s + (seed - 1) * spread * (k < 100),
         "churn": k / 100, "connected": True, "seed": seed}
        for k, s in shares.items()
        for seed in range(3)
    ]  # fmt: skip
    return analysis.partial(pd.DataFrame(rows))


def test_partial_diffusion_holds_when_a_quarter_of_the_steps_comes_near():
    claim = v.partial_diffusion(_partial({5: 0.80, 25: 0.93, 50: 0.95, 100: 0.94}), near=0.02, premises=MET)
    assert claim.holds is True and claim.measured["fewest_steps"] == 25
    claim = v.partial_diffusion(_partial({5: 0.80, 25: 0.90, 50: 0.95, 100: 0.94}), near=0.02, premises=MET)
    assert claim.holds is False and claim.measured["fewest_steps"] == 50  # half the steps is not "a fraction"
    shaky = v.partial_diffusion(_partial({5: 0.80, 25: 0.93, 100: 0.94}, spread=0.03), near=0.02, premises=MET)
    assert shaky.state == INCONCLUSIVE  # seeds at -0.04, -0.01, +0.02 from full: the interval straddles -0.02
    assert v.partial_diffusion(_partial({5: 0.5, 100: 0.94}), 0.02, MET).measured["fewest_steps"] is None
    assert v.partial_diffusion(_partial({100: 0.94}), near=0.02, premises=MET).holds is None
    assert v.partial_diffusion(_partial({25: 0.93, 100: 0.94}), 0.02, UNMET).state == PREMISE_NOT_MET


def test_constant_inference_time_against_the_ratio():
    table = pd.DataFrame(
        {"method": ["netdiff"] * 3 + ["target"] * 3, "nodes": [8, 16, 24] * 2,
         "seconds": [0.10, 0.11, 0.14, 0.001, 0.01, 0.05], "denoiser_calls": [100] * 3 + [0] * 3}
    )  # fmt: skip
    claim = v.constant_inference_time(table, 1.5, {"cpu": "test"})
    assert claim.holds is True and claim.measured["ratio"] == pytest.approx(1.4)
    assert claim.details["target_ratio"] == pytest.approx(50)
    assert v.constant_inference_time(table, 1.3, {}).holds is False
    assert v.constant_inference_time(table[table["method"] == "target"], 1.5, {}).holds is None
