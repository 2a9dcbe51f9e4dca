"""The survival views (lifelines) against the project's own Cox fit, and on subgroups whose answer is known."""

import numpy as np
import pandas as pd
import pytest
from lifelines import CoxPHFitter

from icml26.cox_subgroups import cox, subgroup_survival


def _cox_data(rng, n=400, beta=(0.8, -0.5, 0.3), ties=False):
    X = rng.normal(size=(n, len(beta)))
    time = rng.exponential(np.exp(-X @ np.asarray(beta)))
    if ties:
        time = np.ceil(time * 4) / 4  # a coarse clock: many tied times
    event = rng.random(n) < 0.8
    return pd.DataFrame(X, columns=["a", "b", "c"]).assign(time=time, event=event.astype(int))


def _newton(frame):
    return cox.fit(cox.Survival.sorted(frame[["a", "b", "c"]], frame["time"], frame["event"].astype(bool)), 0.0)


def _lifelines(frame):
    """lifelines' fit, run to convergence (its default stops once a Newton step is below 1e-7: 2e-5 off here)."""
    fitted = CoxPHFitter().fit(frame, "time", "event", fit_options={"precision": 1e-12, "max_steps": 200})
    return fitted.params_[["a", "b", "c"]].to_numpy()


def test_newton_fit_matches_lifelines_coefficients_without_ties():
    """Without tied times Breslow's and Efron's partial likelihoods coincide: the two fits must agree."""
    frame = _cox_data(np.random.default_rng(0))
    assert frame["time"].is_unique
    np.testing.assert_allclose(_newton(frame), _lifelines(frame), rtol=0, atol=1e-8)


def test_with_tied_times_newton_breslow_and_lifelines_efron_differ_by_tie_handling():
    frame = _cox_data(np.random.default_rng(1), ties=True)
    ours, theirs = _newton(frame), _lifelines(frame)
    assert np.max(np.abs(ours - theirs)) > 1e-3  # Breslow shrinks towards zero under heavy ties
    assert np.all(np.abs(ours) < np.abs(theirs)) and np.allclose(ours, theirs, atol=0.15)


def _study(test_in, test_out, train_in):
    """A study whose held-out subgroup and complement, and training subgroup, are the given frames."""
    test = pd.concat([test_in.assign(in_subgroup=True), test_out.assign(in_subgroup=False)], ignore_index=True)
    train = train_in.assign(in_subgroup=True)
    return subgroup_survival.Study("toy", "dg", 0, "days", ["a"], "raw", train, test)


def _rows(rng, n, hazard):
    return pd.DataFrame({"time": rng.exponential(1 / hazard, n), "event": 1, "a": rng.normal(size=n)})


def test_a_high_hazard_subgroup_separates_from_its_complement():
    rng = np.random.default_rng(2)
    study = _study(_rows(rng, 150, 4.0), _rows(rng, 150, 1.0), _rows(rng, 200, 1.0))
    result = subgroup_survival.logrank(study)
    assert result["logrank_p"] < 1e-6 and result["median_subgroup"] < result["median_complement"]
    # exponential medians: log 2 / hazard
    assert result["median_subgroup"] == pytest.approx(np.log(2) / 4, rel=0.3)
    curves = subgroup_survival.kaplan_meier(study)
    assert set(curves["group"]) == {"subgroup", "complement"}
    for _, curve in curves.groupby("group"):
        assert curve["survival"].is_monotonic_decreasing and (curve["lower_95"] <= curve["survival"]).all()
        assert curve["at_risk"].iloc[0] == 150


def test_equal_hazards_give_no_evidence_and_a_box_holding_every_row_gives_no_test():
    rng = np.random.default_rng(3)
    same = subgroup_survival.logrank(_study(_rows(rng, 150, 1.0), _rows(rng, 150, 1.0), _rows(rng, 100, 1.0)))
    assert same["logrank_p"] > 0.05
    everything = _study(_rows(rng, 50, 1.0), _rows(rng, 0, 1.0), _rows(rng, 100, 1.0))
    result = subgroup_survival.logrank(everything)
    assert result["n_complement"] == 0 and np.isnan(result["logrank_p"]) and np.isnan(result["median_complement"])
    assert set(subgroup_survival.kaplan_meier(everything)["group"]) == {"subgroup"}


def test_cox_summary_reports_the_subgroup_s_hazard_ratio_with_its_interval():
    rng = np.random.default_rng(4)
    train = _rows(rng, 2000, 1.0)
    train["time"] = rng.exponential(np.exp(-0.7 * train["a"]))  # true log hazard ratio 0.7 per unit of a
    summary = subgroup_survival.cox_summary(_study(train[:10], train[:10], train), alpha=0.0).iloc[0]
    lower, upper = np.log(summary[["hazard_ratio_lower_95", "hazard_ratio_upper_95"]].to_numpy(dtype=float))
    assert (lower + upper) / 2 == pytest.approx(summary["coef"])  # a Wald interval, symmetric in log HR
    standard_error = (upper - lower) / (2 * 1.959964)
    assert 0.01 < standard_error < 0.05 and abs(summary["coef"] - 0.7) < 4 * standard_error
    assert summary["coef_newton"] == pytest.approx(summary["coef"], abs=1e-4) and summary["rows"] == 2000


def test_a_method_missing_from_the_run_is_named():
    run = pd.DataFrame({"dataset": ["veterans"], "seed": [0], "method": ["base"], "box_low": ["1"], "box_high": ["2"]})
    frame = pd.DataFrame({"time": [1.0], "event": [1], "adjust": [0.0], "subgroup": [1.5]})
    with pytest.raises(ValueError, match="method 'dg' is not among this run's methods"):
        subgroup_survival.real_study(frame, run, method="dg", test_size=0.3)
