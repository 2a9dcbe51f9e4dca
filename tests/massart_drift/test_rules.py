"""The rule functions end to end on a tiny grid, and verdicts that can fail."""

import json

import pandas as pd
import pytest

from icml26.massart_drift import rules, verdict
from tests.conftest import figure_files

STREAM = dict(
    seeds=[0],
    d=5,
    eta=0.2,
    gamma=0.1,
    Delta=1e-3,
    rounds=300,
    eval_every=50,
    window_scale=1.0,
    small_window=10,
    n_test=2000,
    perspectron=dict(lam=0.2, step=0.5, iterations=5, clip=0.05),
)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("md")
    f = {
        k: str(d / v)
        for k, v in dict(
            best="best.csv",
            slopes="slopes.csv",
            traces="traces.csv",
            oracles="oracles.csv",
            claims="claims.json",
            metrics="m.json",
        ).items()
    }
    sweeps = []
    for learner in ("averaging", "erm", "realizable"):
        for seed in (0, 1):
            sweeps.append(str(d / f"sweep_{learner}_seed{seed}.csv"))
            rules.sweep(
                sweeps[-1],
                learner=learner,
                seed=seed,
                Delta=dict(low=1e-4, high=1e-2, points=3),
                W=dict(low=2, high=500, points=8),
                eta=0.2,
                reps=20,
            )
    rules.scaling_tables(sweeps, f["best"], f["slopes"])
    stream = {k: v for k, v in STREAM.items() if k != "eta"}
    rules.traces(f["traces"], eta=0.2, **stream)
    rules.oracles(f["oracles"], eta=0.2, reps=20_000, seed=0)
    rules.figures(
        f["best"],
        f["slopes"],
        f["traces"],
        eta=0.2,
        gamma=0.1,
        Delta=1e-3,
        **figure_files(d, "excess_vs_drift", "window_vs_drift", "traces"),
    )
    rules.verdict(
        f["slopes"],
        f["best"],
        f["traces"],
        f["oracles"],
        f["claims"],
        f["metrics"],
        eta=0.2,
        gamma=0.1,
        Delta=1e-3,
        substitution="a test stand-in",
    )
    return d, f, sweeps


def test_grids():
    assert rules.log_grid(1e-4, 1e-2, 3) == [1e-4, 1e-3, 1e-2]
    assert rules.window_grid(2, 1000, 4) == [2, 16, 126, 1000]


def test_sweep_table_covers_the_grid(outputs):
    _, _, sweeps = outputs
    table = pd.read_csv(sweeps[0])
    assert len(table) == 3 * len(rules.window_grid(2, 500, 8)) and set(table["seed"]) == {0}  # one seed's grid
    assert (table["excess"] >= 0).all() and (table["excess"] <= 1).all()


def test_every_spec_claim_is_judged(outputs):
    _, f, _ = outputs
    claims = json.loads(open(f["claims"]).read())
    assert [c["id"] for c in claims] == [
        "efficient_excess_scales_as_Delta_one_third",
        "erm_and_realizable_scale_as_Delta_one_half",
        "massart_bound_and_no_forgetting_diverges",
    ]
    assert all(c["state"] != "not evaluated" and c["interval"] != "deterministic" for c in claims)


def test_oracles_agree_with_monte_carlo(outputs):
    _, f, _ = outputs
    table = pd.read_csv(f["oracles"])
    disagreement = table[table["check"] == "disagreement"]
    assert ((disagreement["monte_carlo"] - disagreement["exact"]).abs() < 5 * disagreement["mc_standard_error"]).all()


def test_slope_verdicts_fail_off_target():
    slopes = pd.DataFrame(
        [
            {"learner": "averaging", "quantity": "min_excess", "slope": 0.45, "ci_low": 0.4, "ci_high": 0.5},
            {"learner": "averaging", "quantity": "W_star", "slope": -0.66, "ci_low": -0.7, "ci_high": -0.6},
            {"learner": "erm", "quantity": "min_excess", "slope": 0.5, "ci_low": 0.45, "ci_high": 0.55},
            {"learner": "erm", "quantity": "W_star", "slope": -0.5, "ci_low": -0.55, "ci_high": -0.45},
            {"learner": "realizable", "quantity": "min_excess", "slope": 0.3, "ci_low": 0.25, "ci_high": 0.35},
        ]
    )
    assert verdict.efficient_rate(slopes).holds is False
    assert verdict.information_theoretic_rate(slopes).holds is False


def test_bound_verdict_fails_when_forgetting_does_not_hurt(outputs):
    _, f, _ = outputs
    traces = pd.read_csv(f["traces"])
    flat = traces.copy()
    flat.loc[flat["learner"] == "no_forgetting", "error"] = 0.1  # a baseline that does not degrade
    claim, _ = verdict.massart_bound_and_forgetting(flat, eta=0.2, gamma=0.1, Delta=1e-3)
    assert claim.holds is False


def test_rule_functions_are_deterministic(outputs, tmp_path):
    _, f, sweeps = outputs
    again = tmp_path / "sweep.csv"
    rules.sweep(
        str(again),
        learner="averaging",
        seed=0,
        Delta=dict(low=1e-4, high=1e-2, points=3),
        W=dict(low=2, high=500, points=8),
        eta=0.2,
        reps=20,
    )
    assert again.read_bytes() == open(sweeps[0], "rb").read()


def test_one_job_per_seed_gives_the_rows_of_one_job_for_all_seeds(outputs):
    """Each (seed, Delta, W) cell draws from its own generator, so the per-seed jobs together are the sweep of all
    seeds at once, row for row (what lets a paper-scale sweep resume seed by seed)."""
    import pandas as pd

    from icml26.massart_drift import scaling
    from icml26.massart_drift.rules import log_grid, window_grid

    _, _, sweeps = outputs
    grid = dict(Deltas=log_grid(low=1e-4, high=1e-2, points=3), windows=window_grid(low=2, high=500, points=8))
    whole = scaling.sweep("erm", **grid, eta=0.2, reps=20, seeds=[0, 1])
    per_seed = pd.concat([pd.read_csv(p) for p in sweeps if "erm_" in p], ignore_index=True)
    pd.testing.assert_frame_equal(per_seed, whole, check_exact=False, rtol=1e-12)
