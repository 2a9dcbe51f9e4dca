"""The spec's oracles: identical networks and first updates at the base size, the per-group rates,
and coordinate-check slopes near theory."""

import pytest
import torch

from icml26.completep_rl import coordinate
from icml26.completep_rl.parameterisation import PARAMETERISATIONS, ParamMLP, adam


def _one_step(param, width=64, depth=2):
    model = ParamMLP(5, 3, width, depth, param, base_width=64, base_depth=2, seed=7)
    x = torch.randn(32, 5, generator=torch.Generator().manual_seed(1))
    before = [p.detach().clone() for p in model.parameters()]
    opt = adam(model, 1e-2)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return before, [p.detach().clone() for p in model.parameters()]


def test_at_the_base_size_all_parameterisations_build_the_same_network_and_take_the_same_step():
    results = {p: _one_step(p) for p in PARAMETERISATIONS}
    ref_before, ref_after = results["sp"]
    for p in ("completep", "ntk"):
        before, after = results[p]
        assert all(torch.equal(a, b) for a, b in zip(before, ref_before))
        assert all(torch.equal(a, b) for a, b in zip(after, ref_after))


def test_away_from_the_base_size_they_differ():
    sp, cp = _one_step("sp", width=256), _one_step("completep", width=256)
    assert all(torch.equal(a, b) for a, b in zip(sp[0], cp[0]))  # same initial weights
    assert not all(torch.equal(a, b) for a, b in zip(sp[1], cp[1]))  # different updates


def test_per_group_learning_rates_follow_the_formulas():
    lr, m = 1e-3, 4  # width 256 over base 64
    groups = {
        p: {g["name"]: g for g in ParamMLP(3, 2, 256, 4, p, base_width=64, base_depth=2).param_groups(lr, 1e-8)}
        for p in PARAMETERISATIONS
    }
    assert [groups["sp"][n]["lr"] for n in ("input", "hidden", "readout")] == [lr, lr, lr]
    assert [groups["completep"][n]["lr"] for n in ("input", "hidden", "readout")] == pytest.approx([lr, lr / m, lr])
    assert groups["completep"]["hidden"]["eps"] == pytest.approx(1e-8 / m)
    assert [groups["ntk"][n]["lr"] for n in ("input", "hidden", "readout")] == pytest.approx(
        [lr * m**-0.5, lr * m**-1.5, lr / m]
    )
    cp = ParamMLP(3, 2, 256, 4, "completep", base_width=64, base_depth=2)
    assert cp.scaling.readout_multiplier == pytest.approx(1 / m) and cp.scaling.residual == pytest.approx(0.5)


def test_init_std_is_one_over_sqrt_fan_in():
    model = ParamMLP(3, 2, 1024, 1, "completep", seed=0)
    assert model.hidden[0].weight.std().item() == pytest.approx(1024**-0.5, rel=0.02)


def test_coordinate_check_slopes_match_theory():
    table = coordinate.run(list(PARAMETERISATIONS), [64, 128, 256, 512], [0], depth=2, steps=5, lr=1e-2)
    slopes = coordinate.slopes(table).set_index(["parameterisation", "layer"])["slope"]
    for layer in ("block_1", "block_2"):
        assert abs(slopes[("completep", layer)]) <= 0.15
        assert slopes[("ntk", layer)] < -0.3  # shrinking (theory: -1/2; finite-step runs come out steeper)
        assert slopes[("sp", layer)] > 0.3
