"""Boxes (volume F1 of Base, growth), DDGroup's t = 0 and core-mean properties, baselines' shapes."""

import numpy as np
import pytest

from icml26.cox_subgroups import baselines, boxes, ddgroup, selection, synthetic


def test_base_volume_f1_on_the_synthetic_datasets():
    for name, expected in (("nonlinear", 2 / 7), ("counter", 0.75)):
        dom = synthetic.domain(name)
        assert boxes.volume_f1(dom, synthetic.planted_box(name), dom) == pytest.approx(expected, rel=1e-12)
    dom = synthetic.domain("nonlinear")
    assert boxes.volume_f1(synthetic.planted_box("nonlinear"), synthetic.planted_box("nonlinear"), dom) == 1.0


def test_growth_stops_at_the_first_rejected_point_in_each_direction():
    Z = np.array([[0.5, 0.0], [-0.3, 0.0], [0.0, 0.2], [0.0, -0.9], [0.9, 0.9], [0.1, 0.1]])
    rejected = np.array([True, True, True, True, True, False])
    box = boxes.grow(Z, rejected, np.array([[-1.0, -1.0], [1.0, 1.0]]), np.zeros(2))
    np.testing.assert_allclose(box, [[-0.3, -0.9], [0.5, 0.2]])
    # nothing rejected: the domain
    none = boxes.grow(Z, np.zeros(6, dtype=bool), np.array([[-1.0, -1.0], [1.0, 1.0]]), np.zeros(2))
    np.testing.assert_allclose(none, [[-1, -1], [1, 1]])


@pytest.fixture(scope="module")
def nonlinear():
    x, t, e = synthetic.sample("nonlinear", 400, np.random.default_rng(0))
    return selection.Rows.build(x, x, t, e)


def test_ddgroup_t0_returns_the_full_region_and_boxes_contain_the_core_mean(nonlinear):
    dom = synthetic.domain("nonlinear")
    found = ddgroup.candidates(
        "dg", nonlinear.data, nonlinear.Z, dom, core_sizes=[0.1], thresholds=[0.0, 0.2, 0.4], alpha=1e-3
    )
    np.testing.assert_array_equal(found[0]["box"], dom)
    core = ddgroup.core_group(nonlinear.data, nonlinear.Z, 0.1, "epe", 1e-3)
    centre = nonlinear.Z[core].mean(axis=0)
    for c in found:
        assert boxes.inside(centre[None], c["box"])[0]
    # more rejection never grows the box
    vols = [boxes.volume(c["box"]) for c in found]
    assert vols == sorted(vols, reverse=True)


def test_no_expansion_variant_is_the_core_bounding_box(nonlinear):
    dom = synthetic.domain("nonlinear")
    (ne,) = ddgroup.candidates(
        "dg_ne", nonlinear.data, nonlinear.Z, dom, core_sizes=[0.1], thresholds=[0.0], alpha=1e-3
    )
    core = ddgroup.core_group(nonlinear.data, nonlinear.Z, 0.1, "epe", 1e-3)
    np.testing.assert_array_equal(ne["box"], boxes.bounding_box(nonlinear.Z[core]))


def test_dg_finds_the_planted_box_and_base_does_not(nonlinear):
    dom, truth = synthetic.domain("nonlinear"), synthetic.planted_box("nonlinear")
    cands = [
        c["box"]
        for c in ddgroup.candidates(
            "dg",
            nonlinear.data,
            nonlinear.Z,
            dom,
            core_sizes=[0.1],
            thresholds=list(np.linspace(0, 0.45, 10)),
            alpha=1e-3,
        )
    ]
    chosen = selection.select(cands, nonlinear, dom, min_fraction=0.1, alpha=1e-3)
    assert chosen.qualified and boxes.volume_f1(chosen.box, truth, dom) > 0.8
    assert (
        selection.select(baselines.base(dom), nonlinear, dom, min_fraction=0.1, alpha=1e-3).train_epe
        > chosen.train_epe + 0.1
    )


def test_baselines_propose_boxes_inside_the_domain(nonlinear):
    dom = synthetic.domain("nonlinear")
    proposals = {
        "tree": baselines.survival_tree(nonlinear.data, nonlinear.Z, dom, max_depth=2, min_fraction=0.1, seed=0),
        "cox_tree": baselines.cox_tree(
            nonlinear.data, nonlinear.Z, dom, max_depth=2, min_fraction=0.1, n_thresholds=4, alpha=1e-3
        ),
        "prim": baselines.prim(nonlinear.data, nonlinear.Z, dom, peel=0.1, min_fraction=0.2, alpha=1e-3),
        "random": baselines.random_boxes(nonlinear.Z, 5, np.random.default_rng(0)),
    }
    for name, found in proposals.items():
        assert found, name
        for box in found:
            assert np.all(box[0] >= dom[0] - 1e-12) and np.all(box[1] <= dom[1] + 1e-12), name
    # tree leaves partition the domain
    assert sum(boxes.volume(b) for b in proposals["tree"]) == pytest.approx(boxes.volume(dom))


def test_selection_skips_boxes_below_the_support_floor(nonlinear):
    dom = synthetic.domain("nonlinear")
    tiny = np.array([[0.0, 0.0], [0.05, 0.05]])
    chosen = selection.select([tiny], nonlinear, dom, min_fraction=0.1, alpha=1e-3)
    assert not chosen.qualified and np.array_equal(chosen.box, dom)


def test_every_variant_s_candidates_equal_the_reference_code_s_on_a_fixed_instance():
    """The paper's code (zleizzo/cox-subgroup) on Synth-Counter, n = 400: its boxes are stored in
    reference_counter_boxes.json as (repeat, low, high) runs over the 2 x 50 grid, in grid order."""
    import json
    from pathlib import Path

    reference = json.loads((Path(__file__).with_name("reference_counter_boxes.json")).read_text())
    x, t, e = synthetic.sample("counter", 400, np.random.default_rng(1))
    rows = selection.Rows.build(x, x, t, e)
    for variant, runs in reference["boxes"].items():
        expected = np.array([[low, high] for repeat, low, high in runs for _ in range(repeat)])
        found = ddgroup.candidates(
            variant,
            rows.data,
            rows.Z,
            synthetic.domain("counter"),
            core_sizes=[0.05, 0.1],
            thresholds=list(np.linspace(0, 0.49, 50)),
            alpha=0.0,
        )
        np.testing.assert_allclose([c["box"].ravel() for c in found], expected, rtol=0, atol=1e-12, err_msg=variant)
