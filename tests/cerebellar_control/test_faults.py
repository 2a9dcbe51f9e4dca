"""Spec oracle: fault injection changes exactly the intended model fields and is reversible."""

import mujoco
import numpy as np
import pytest

from icml26.cerebellar_control.faults import KINDS, NOMINAL, Fault, faults_from_config, inject


def snapshot(model) -> dict[str, np.ndarray]:
    arrays = {
        name: getattr(model, name).copy()
        for name in dir(model)
        if not name.startswith("_") and isinstance(getattr(model, name, None), np.ndarray)
    }
    arrays["opt.gravity"] = model.opt.gravity.copy()
    return arrays


def changed(before: dict, after: dict) -> dict[str, np.ndarray]:
    """field -> flat indices that differ."""
    out = {}
    for name, old in before.items():
        diff = np.flatnonzero(np.asarray(old != after[name]).ravel())
        if diff.size:
            out[name] = diff
    return out


def ids(model, kind, names):
    return [mujoco.mj_name2id(model, kind, n) for n in names]


CASES = [
    (Fault("g", "actuator_gain", 0.5, targets=("bthigh", "bshin", "bfoot")), {"actuator_gainprm"}),
    (Fault("d", "joint_damping", 3.0), {"dof_damping"}),
    (Fault("m", "body_mass", 1.5, targets=("torso",)), {"body_mass", "body_inertia"}),
    (Fault("f", "friction", 0.5), {"geom_friction"}),
    (Fault("t", "gravity_tilt", 10.0), {"opt.gravity"}),
    (Fault("b", "action_bias", 0.3), {"actuator_biastype", "actuator_biasprm"}),
]


def test_every_kind_is_covered():
    assert {fault.kind for fault, _ in CASES} == set(KINDS)


@pytest.mark.parametrize("fault,fields", CASES, ids=[c[0].kind for c in CASES])
def test_fault_changes_exactly_its_fields_and_is_reversible(env, fault, fields):
    model = env.unwrapped.model
    before = snapshot(model)
    undo = inject(model, fault)
    after = snapshot(model)
    assert set(changed(before, after)) == fields
    undo.restore()
    assert changed(before, snapshot(model)) == {}


def test_fault_edits_only_the_named_elements_by_the_named_factor(env):
    model = env.unwrapped.model
    gains = model.actuator_gainprm[:, 0].copy()
    undo = inject(model, Fault("g", "actuator_gain", 0.5, targets=("bthigh", "bshin", "bfoot")))
    back = ids(model, mujoco.mjtObj.mjOBJ_ACTUATOR, ("bthigh", "bshin", "bfoot"))
    expected = gains.copy()
    expected[back] *= 0.5
    np.testing.assert_array_equal(model.actuator_gainprm[:, 0], expected)
    undo.restore()
    torso = ids(model, mujoco.mjtObj.mjOBJ_BODY, ("torso",))[0]
    mass = model.body_mass.copy()
    undo = inject(model, Fault("m", "body_mass", 2.0, targets=("torso",)))
    assert model.body_mass[torso] == 2 * mass[torso]
    assert np.array_equal(np.delete(model.body_mass, torso), np.delete(mass, torso))
    undo.restore()


def test_gravity_tilt_keeps_magnitude_and_rotates_by_the_angle(env):
    model = env.unwrapped.model
    g0 = model.opt.gravity.copy()
    undo = inject(model, Fault("t", "gravity_tilt", 30.0))
    g = model.opt.gravity.copy()
    undo.restore()
    assert np.linalg.norm(g) == pytest.approx(np.linalg.norm(g0))
    assert np.degrees(np.arccos(g @ g0 / np.linalg.norm(g) ** 2)) == pytest.approx(30.0)


def test_action_bias_adds_a_constant_force(env):
    model, data = env.unwrapped.model, env.unwrapped.data
    env.reset(seed=0)
    data.ctrl[:] = 0.2
    mujoco.mj_forward(model, data)
    clean = data.actuator_force.copy()
    undo = inject(model, Fault("b", "action_bias", 0.3))
    mujoco.mj_forward(model, data)
    biased = data.actuator_force.copy()
    undo.restore()
    np.testing.assert_allclose(biased - clean, 0.3)


def test_unknown_names_and_kinds_are_rejected(env):
    with pytest.raises(ValueError, match="no actuator named"):
        inject(env.unwrapped.model, Fault("g", "actuator_gain", 0.5, targets=("tail",)))
    with pytest.raises(ValueError, match="kind must be one of"):
        Fault("x", "wind", 1.0)


def test_nominal_changes_nothing_and_config_gives_two_levels(env):
    model = env.unwrapped.model
    before = snapshot(model)
    inject(model, NOMINAL)
    assert changed(before, snapshot(model)) == {}
    faults = faults_from_config({"gain": {"kind": "actuator_gain", "moderate": 0.5, "severe": 0.2}})
    assert [(f.level, f.value) for f in faults] == [("moderate", 0.5), ("severe", 0.2)]
