"""Rule functions end to end on tiny grids, and a verdict that can fail."""

import json

import pandas as pd
import pytest

from icml26.manifold_microscope import rules, verdict
from tests.conftest import figure_files


def test_accuracy_pipeline(tmp_path):
    tables, timings = [], []
    for toy in ("circle", "torus"):
        tables.append(str(tmp_path / f"{toy}.csv"))
        timings.append(str(tmp_path / f"{toy}_t.csv"))
        rules.estimator_accuracy(
            tables[-1],
            timings[-1],
            toy=toy,
            grid_sizes=[16, 32],
            D=6,
            order=4,
            reach_samples=10,
            k=20,
            max_baseline_points=500,
            seed=0,
        )
    rules.accuracy_table(tables, str(tmp_path / "all.csv"))
    rules.timing(timings, str(tmp_path / "time.csv"), str(tmp_path / "machine.json"))
    slices = []
    for shape in ("square", "heart"):
        slices.append(str(tmp_path / f"{shape}.npz"))
        rules.dsprites_slice(
            slices[-1],
            shape=shape,
            n_rotation=8,
            n_x=7,
            x_range=[0.4, 0.6],
            scale=0.3,
            y=0.5,
            resolution=24,
            supersample=2,
            blur=1.0,
        )
    rules.class_measures(
        slices,
        str(tmp_path / "classes.csv"),
        str(tmp_path / "curv.csv"),
        shapes=["square", "heart"],
        reach_samples=5,
        order=4,
        seed=0,
    )
    per_class = pd.read_csv(tmp_path / "classes.csv")
    assert list(per_class["shape"]) == ["square", "heart"] and (per_class["volume"] > 0).all()
    runs = [str(tmp_path / "b_circle.csv"), str(tmp_path / "b_sphere2.csv")]
    for path, toy in zip(runs, ("circle", "sphere2")):
        rules.bound_runs(path, toy=toy, n=[200, 400, 800], seeds=[0, 1], queries=20, k=12, D=6, seed=0)
    runs.append(str(tmp_path / "b_sprite.csv"))
    rules.bound_runs_dsprites(
        runs[-1],
        d=1,
        shape="heart",
        n=[60, 120, 240],
        seeds=[0, 1],
        queries=10,
        k=8,
        position_range=[0.4, 0.6],
        scale=0.3,
        resolution=12,
        supersample=2,
        blur=1.0,
    )
    rules.bound_table(runs, str(tmp_path / "b_err.csv"), str(tmp_path / "b.csv"))
    bound = pd.read_csv(tmp_path / "b.csv")
    assert list(bound["toy"]) == ["circle", "dsprites_heart_d1", "sphere2"] and (bound["slope"] < 0).all()
    rules.vae_train(
        slices,
        str(tmp_path / "w.npz"),
        str(tmp_path / "loss.csv"),
        str(tmp_path / "vt.csv"),
        shapes=["square", "heart"],
        pool=2,
        hidden=[16, 8],
        latent=3,
        iterations=20,
        checkpoint_iterations=[0, 20],
        batch=8,
        lr=1e-3,
        gamma=10.0,
        capacity=5.0,
        capacity_iterations=10,
        seed=0,
        device="cpu",
    )
    rules.vae_geometry(
        slices,
        str(tmp_path / "w.npz"),
        str(tmp_path / "vae.csv"),
        shapes=["square", "heart"],
        pool=2,
        hidden=[16, 8],
        latent=3,
        reach_samples=4,
        order=4,
        seed=0,
    )
    layers = pd.read_csv(tmp_path / "vae.csv")
    assert len(layers) == 2 * 2 * 7 and set(layers["iteration"]) == {0, 20}
    # the input layer is the data itself: its volume does not depend on the checkpoint
    inputs = layers[layers["layer"] == "input"].pivot(index="shape", columns="iteration", values="volume")
    assert (inputs[0] == inputs[20]).all()
    rules.verdict(
        str(tmp_path / "all.csv"),
        str(tmp_path / "classes.csv"),
        str(tmp_path / "b.csv"),
        str(tmp_path / "vae.csv"),
        str(tmp_path / "claims.json"),
        str(tmp_path / "m.json"),
        substitution="a test stand-in",
    )
    turntable = pd.read_csv(tmp_path / "curv.csv").rename(columns={"shape": "object"})  # the figure's input shape
    turntable.to_csv(tmp_path / "turntable.csv", index=False)
    figures = ("estimator_accuracy", "dsprites_classes", "bound_scaling", "vae_layers", "turntable_classes")
    rules.figures(
        *(str(tmp_path / name) for name in ("all.csv", "curv.csv", "b_err.csv", "b.csv", "vae.csv", "turntable.csv")),
        **figure_files(tmp_path, *figures),
    )
    table = pd.read_csv(tmp_path / "all.csv")
    torus_fd = table[(table["toy"] == "torus") & (table["estimator"] == "finite_difference")]
    assert set(torus_fd["quantity"]) == {"volume", "curvature", "total_curvature", "reach"}
    # errors shrink with the grid
    curv = torus_fd[torus_fd["quantity"] == "curvature"].set_index("n")["relative_error"]
    assert curv[32] < curv[16] / 8
    claims = json.load(open(tmp_path / "claims.json"))
    assert claims[1]["state"] != "not evaluated" and isinstance(claims[2]["holds"], bool)
    assert all((tmp_path / f"{name}.png").stat().st_size > 10_000 for name in figures)


def test_verdict_fails_when_the_grid_estimate_is_too_coarse_or_the_baseline_close():
    def table(fd, base):
        rows = [
            dict(toy="torus", n=64, points=4096, estimator="finite_difference", quantity=q, relative_error=fd)
            for q in ("volume", "curvature", "reach")
        ]
        rows += [
            dict(toy="torus", n=64, points=4096, estimator="local_pca", quantity=q, relative_error=base)
            for q in ("curvature", "reach")
        ]
        return pd.DataFrame(rows)

    assert verdict.estimators_recover_toy_geometry(table(1e-5, 1e-2)).holds
    assert not verdict.estimators_recover_toy_geometry(table(2e-3, 1.0)).holds
    assert not verdict.estimators_recover_toy_geometry(table(1e-4, 5e-4)).holds
    # an FD error at round-off: the ratio is a lower bound over the floor, the same whichever round-off digits
    exact = [verdict.estimators_recover_toy_geometry(table(fd, 1e-2)).measured["torus"] for fd in (2.4e-12, 3e-12)]
    assert exact[0] == {**exact[1], "finite_difference": exact[0]["finite_difference"]}
    assert exact[0]["baseline_over_fd"]["reach"] == 1e-2 / verdict.ROUND_OFF


def _layers(curvature, reach):
    rows = [
        {
            "iteration": 100,
            "shape": "heart",
            "layer": layer,
            "depth": depth,
            "abs_curvature_median": c,
            "median_reach_unit_volume": r,
            "volume": 1.0,
        }
        for depth, (layer, c, r) in enumerate(zip(verdict.ENCODER + ("decoder_1",), curvature, reach))
    ]
    return pd.DataFrame(rows)


def test_vae_claim_follows_the_reference_direction_only_when_both_measures_do():
    assert verdict.vae_layer_geometry(_layers([0.1, 1, 2, 3, 0], [0.5, 0.4, 0.3, 0.2, 9])).holds is True
    assert verdict.vae_layer_geometry(_layers([0.1, 1, 2, 3, 0], [0.2, 0.3, 0.4, 0.5, 0])).holds is False
    assert verdict.vae_layer_geometry(_layers([3, 2, 1, 0.1, 0], [0.5, 0.4, 0.3, 0.2, 0])).holds is False


def test_one_adjacent_swap_is_a_spearman_of_exactly_0_8_and_meets_the_criterion():
    """Four ranks with one adjacent pair swapped: rho = 1 - 6 * 2 / 60 = 0.8, which scipy computes as
    0.7999999999999999; the registered '>= 0.8' must read it as 0.8 (the Intel rerun of 2026-12-07)."""
    claim = verdict.vae_layer_geometry(_layers([1, 0.1, 2, 3, 0], [0.4, 0.5, 0.3, 0.2, 9]))
    assert claim.measured["spearman_depth_curvature"] == 0.8 and claim.measured["spearman_depth_reach"] == -0.8
    assert claim.holds is True
    two_swaps = verdict.vae_layer_geometry(_layers([1, 0.1, 3, 2, 0], [0.5, 0.4, 0.3, 0.2, 9]))
    assert two_swaps.measured["spearman_depth_curvature"] == pytest.approx(0.6) and two_swaps.holds is False


def test_hausdorff_claim_needs_each_slope_between_the_two_rates():
    """Issue 66: the fraction of runs between envelopes fitted at the same runs' quantiles was (n - 2)/n by
    construction; the claim is now judged on each slope's interval against the lower rate's exponent -2/(2+d) and
    the upper rate's local slope, so an error decaying faster than the lower rate (it leaves the envelopes) fails."""

    def scaling(slopes, runs=21, upper=-0.58):
        return pd.DataFrame(
            [{"toy": f"t{i}", "d": 1, "slope": s, "slope_low": lo, "slope_high": hi, "genovese_exponent": -2 / 3,
              "upper_slope": upper, "fefferman_exponent": -1.0, "fraction_between": 0.905, "runs": runs}
             for i, (s, lo, hi) in enumerate(slopes)]
        )  # fmt: skip

    within = (-0.62, -0.65, -0.60)
    assert verdict.hausdorff_between_envelopes(scaling([within])).state == "holds"  # 21 runs: no premise now
    faster = verdict.hausdorff_between_envelopes(scaling([within, (-1.9, -2.1, -1.7)]))
    assert faster.state == "does not hold"  # held before: it decays, and 90 % of runs sat between fitted envelopes
    assert verdict.hausdorff_between_envelopes(scaling([within, (-0.6, -0.7, -0.5)])).state == "inconclusive"
    assert verdict.hausdorff_between_envelopes(scaling([within, (0.3, 0.1, 0.5)])).state == "does not hold"
    assert not faster.premises and "by construction" in faster.note
