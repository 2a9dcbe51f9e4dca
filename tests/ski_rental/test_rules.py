"""The rule functions end to end on a tiny instance, and verdicts that can fail."""

import json

import pandas as pd
import pytest

from icml26.ski_rental import rules, verdict
from tests.conftest import figure_files

FAMILIES = ["gauss_0.5B", "gauss_2B", "geom_1/B", "bimodal"]
R_GRID = [1.6, 2.0, 3.0]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("ski")
    f = {
        k: str(d / v)
        for k, v in dict(
            pred="pred.csv",
            pol="pol.csv",
            ev="ev.csv",
            sw="sw.csv",
            orc="or.csv",
            claims="claims.json",
            metrics="m.json",
        ).items()
    }
    rules.predictions(f["pred"], B_values=[4, 8], N_factor=10, families=FAMILIES)
    rules.policies(f["pred"], f["pol"], lambdas=[0.25, 0.5, 1.0], R_grid=R_GRID)
    rules.evaluate(f["pred"], f["pol"], f["ev"])
    rules.error_sweep(f["pred"], f["pol"], f["sw"], shift=[-0.5, 0.0, 0.5], mixture=[0.0, 0.3])
    rules.oracles(f["orc"], B_values=[4, 8], N_factor=10)
    rules.figures(f["ev"], f["sw"], B=8, lam=0.5, R=2.0, **figure_files(d, "pareto", "error_sweep"))
    rules.verdict(f["ev"], f["sw"], f["orc"], f["claims"], f["metrics"], R_grid=R_GRID, substitution="a test stand-in")
    return d, f


def test_the_figure_job_draws_both_figures(outputs):
    d, _ = outputs
    assert all(
        (d / f"{name}.{ext}").stat().st_size > 5000 for name in ("pareto", "error_sweep") for ext in ("png", "pdf")
    )


def test_predictions_table_holds_one_distribution_per_instance(outputs):
    _, f = outputs
    pred = pd.read_csv(f["pred"])
    sums = pred.groupby(["B", "family"])["p"].sum()
    assert len(sums) == 2 * len(FAMILIES)
    assert (sums - 1).abs().max() < 1e-8
    assert set(pred.loc[pred["B"] == 8, "T"]) == set(range(1, 81))


def test_every_policy_is_a_distribution(outputs):
    _, f = outputs
    pol = pd.read_csv(f["pol"])
    sums = pol.groupby(["B", "family", "method", "param"], dropna=False)["q"].sum()
    assert (sums - 1).abs().max() < 1e-8


def test_evaluation_matches_closed_forms(outputs):
    _, f = outputs
    ev = pd.read_csv(f["ev"])
    buy = ev[ev["method"] == "buy_at_B"]
    assert (buy["robustness"] - (2 - 1 / buy["B"])).abs().max() < 1e-9
    karlin = ev[ev["method"] == "karlin"]
    rho = 1 / (1 - (1 - 1 / karlin["B"]) ** karlin["B"])
    assert (karlin["robustness"] - rho).abs().max() < 1e-9
    assert (ev["consistency_over_opt"] >= 1 - 1e-12).all()  # nothing beats the optimal threshold


def test_oracles_table(outputs):
    _, f = outputs
    orc = pd.read_csv(f["orc"])
    assert (orc["lp_game_value"] - orc["rho_B"]).abs().max() < 1e-9
    assert (orc["best_deterministic_worst_case"] - orc["two_minus_one_over_B"]).abs().max() < 1e-12


def test_every_spec_claim_is_judged(outputs):
    _, f = outputs
    claims = json.loads(open(f["claims"]).read())
    assert [c["id"] for c in claims] == [
        "distributional_beats_point",
        "clamp_robust_and_consistent",
        "robust_randomized_meets_R_and_dominates",
    ]
    for c in claims:
        assert set(c) >= {"id", "statement", "paper_value", "measured", "comparator", "holds", "note"}
        assert isinstance(c["holds"], bool)
    # Exact guarantees: these must hold on any instance.
    assert claims[1]["holds"] and claims[2]["holds"]


def test_gauss_2B_gives_no_gain_over_point_predictions(outputs):
    """All mass beyond B: every method buys on its earliest allowed day, so the family ties."""
    _, f = outputs
    claim = json.loads(open(f["claims"]).read())[0]
    assert claim["measured"]["gauss_2B"] == 0.0
    assert claim["holds"] is False


def test_robustness_verdict_fails_when_the_bound_is_violated(outputs):
    _, f = outputs
    ev = pd.read_csv(f["ev"])
    broken = ev.copy()
    clamp = broken["method"] == "clamp"
    broken.loc[clamp, "robustness"] = 1 + 1 / broken.loc[clamp, "param"] + 0.01
    claim, _ = verdict.clamp_robust_and_consistent(broken, pd.read_csv(f["sw"]))
    assert claim.holds is False


def test_dominance_verdict_fails_when_a_baseline_is_better(outputs):
    _, f = outputs
    ev = pd.read_csv(f["ev"])
    broken = ev.copy()
    karlin = broken["method"] == "karlin"
    broken.loc[karlin, "consistency"] = 0.5  # below any ECR: the LP cannot beat it
    claim, _ = verdict.robust_lp_meets_constraint_and_dominates(broken, R_GRID)
    assert claim.holds is False


def test_rule_functions_are_deterministic(outputs, tmp_path):
    _, f = outputs
    again = tmp_path / "pol.csv"
    rules.policies(f["pred"], str(again), lambdas=[0.25, 0.5, 1.0], R_grid=R_GRID)
    assert again.read_bytes() == open(f["pol"], "rb").read()


def test_the_pareto_plot_shows_every_optimal_threshold_even_beyond_its_axis():
    """x*(p̂) unclamped may never buy (robustness far above the axis's 6): it is drawn at the edge with its value,
    where it was left out of 3 of the 7 panels before."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from icml26.ski_rental import plots

    rows = [
        {"B": 8, "family": f, "method": "optimal_threshold", "robustness": r, "consistency": 1.2}
        for f, r in (("near", 2.5), ("far", 11.0))
    ]
    fig = plots.pareto(pd.DataFrame(rows), B=8)
    for ax, expected in zip(fig.axes[:2], (2.5, plots.ROBUSTNESS_SHOWN)):
        (star,) = [line for line in ax.get_lines() if line.get_marker() == "*"]
        assert star.get_xdata()[0] == expected and star.get_xdata()[0] <= ax.get_xlim()[1]
    assert [t.get_text() for t in fig.axes[1].texts] == ["→ 11"] and not fig.axes[0].texts
    plt.close(fig)
