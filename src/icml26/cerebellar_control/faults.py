"""Post-training faults: named, reversible edits of a MuJoCo model's fields.

A fault is a kind (below) and a severity value; the config names each fault and gives its moderate and
severe values. Every kind edits ``env.unwrapped.model`` in place and nothing else, so the policy, the
observation and the reward function are untouched:

    actuator_gain  -- multiply the gain of the named actuators (``actuator_gainprm[:, 0]``) by ``value``
                      (0.5 = half the torque: a weakened motor)
    joint_damping  -- multiply the damping of the named joints' degrees of freedom by ``value``
    body_mass      -- multiply the mass (and inertia, so the body keeps its shape) of the named bodies by ``value``
    friction       -- multiply the sliding friction of every geom by ``value``
    gravity_tilt   -- rotate gravity by ``value`` degrees about the y axis (a slope under the robot)
    action_bias    -- a constant offset ``value`` added to every actuator's force before the gear
                      (``actuator_biastype`` = affine, ``actuator_biasprm[:, 0]`` = value): a miscalibrated motor

``inject(model, fault)`` returns a ``Restore`` that puts back exactly the arrays it changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mujoco
import numpy as np

KINDS = ("actuator_gain", "joint_damping", "body_mass", "friction", "gravity_tilt", "action_bias")


@dataclass(frozen=True)
class Fault:
    """One named fault at one severity; ``targets`` are actuator, joint or body names (empty = all)."""

    name: str
    kind: str
    value: float
    level: str = "moderate"
    targets: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"fault {self.name!r}: kind must be one of {KINDS}, got {self.kind!r}")


# The healthy plant: level "nominal" makes ``inject`` a no-op (the kind and value are placeholders).
NOMINAL = Fault("nominal", "friction", 1.0, level="nominal")


def faults_from_config(spec: dict[str, dict]) -> list[Fault]:
    """``{name: {kind, targets, moderate, severe}}`` -> the moderate and severe ``Fault`` of each name."""
    out = []
    for name, entry in spec.items():
        for level in ("moderate", "severe"):
            out.append(Fault(name, entry["kind"], float(entry[level]), level, tuple(entry.get("targets", ()))))
    return out


@dataclass
class Restore:
    """The original values of every array a fault edited; ``restore()`` writes them back."""

    model: mujoco.MjModel
    saved: dict[str, np.ndarray] = field(default_factory=dict)

    def keep(self, attribute: str) -> np.ndarray:
        array = getattr(self.model.opt if attribute == "opt.gravity" else self.model, attribute.split(".")[-1])
        if attribute not in self.saved:
            self.saved[attribute] = array.copy()
        return array

    def restore(self) -> None:
        for attribute, original in self.saved.items():
            self.keep(attribute)[...] = original
        self.saved.clear()


def _ids(model: mujoco.MjModel, kind: mujoco.mjtObj, names: tuple[str, ...], count: int) -> np.ndarray:
    if not names:
        return np.arange(count)
    ids = [mujoco.mj_name2id(model, kind, name) for name in names]
    missing = [name for name, i in zip(names, ids) if i < 0]
    if missing:
        raise ValueError(f"model has no {kind.name.removeprefix('mjOBJ_').lower()} named {missing}")
    return np.array(ids)


def inject(model: mujoco.MjModel, fault: Fault) -> Restore:
    """Apply ``fault`` to ``model`` in place; the returned ``Restore`` undoes exactly this edit."""
    undo = Restore(model)
    v = fault.value
    if fault.level == "nominal":
        return undo
    if fault.kind == "actuator_gain":
        ids = _ids(model, mujoco.mjtObj.mjOBJ_ACTUATOR, fault.targets, model.nu)
        undo.keep("actuator_gainprm")[ids, 0] *= v
    elif fault.kind == "joint_damping":
        joints = _ids(model, mujoco.mjtObj.mjOBJ_JOINT, fault.targets, model.njnt)
        undo.keep("dof_damping")[model.jnt_dofadr[joints]] *= v
    elif fault.kind == "body_mass":
        ids = _ids(model, mujoco.mjtObj.mjOBJ_BODY, fault.targets, model.nbody)
        undo.keep("body_mass")[ids] *= v
        undo.keep("body_inertia")[ids] *= v
    elif fault.kind == "friction":
        undo.keep("geom_friction")[:, 0] *= v
    elif fault.kind == "gravity_tilt":
        gravity = undo.keep("opt.gravity")
        angle = np.deg2rad(v)
        g = float(np.linalg.norm(gravity))
        gravity[:] = (-g * np.sin(angle), 0.0, -g * np.cos(angle))
    elif fault.kind == "action_bias":
        ids = _ids(model, mujoco.mjtObj.mjOBJ_ACTUATOR, fault.targets, model.nu)
        undo.keep("actuator_biastype")[ids] = mujoco.mjtBias.mjBIAS_AFFINE
        undo.keep("actuator_biasprm")[ids, 0] = v
    return undo
