"""Bad input: config errors name the key, missing files name the file, unknown controllers are refused."""

from pathlib import Path

import pytest

from icml26.cerebellar_control import rules
from icml26.common.config import ConfigError, paper_section, validate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "cerebellar_control.schema.yaml"


def section() -> dict:
    return paper_section(ROOT / "config" / "papers" / "cerebellar_control.yaml", "quick")


def test_shipped_config_is_valid():
    validate(section(), SCHEMA, prefix="cerebellar_control")


@pytest.mark.parametrize(
    "edit,key",
    [
        (
            lambda c: c["environments"]["HalfCheetah-v5"]["faults"]["friction"].update(kind="wind"),
            "cerebellar_control.environments.HalfCheetah-v5.faults.friction.kind",
        ),
        (lambda c: c["residual"].update(active_fraction=1.5), "cerebellar_control.residual.active_fraction"),
        (lambda c: c.update(controllers=["cerebellar", "no_meta"]), "cerebellar_control.controllers"),
        (lambda c: c.update(faults=["earthquake"]), "cerebellar_control.faults[0]"),
    ],
)
def test_bad_values_are_refused_with_the_key_named(edit, key):
    config = section()
    edit(config)
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        validate(config, SCHEMA, prefix="cerebellar_control")


def test_missing_checkpoint_is_named(tmp_path):
    missing = tmp_path / "base_policy.npz"
    with pytest.raises(Exception, match="base_policy.npz"):
        rules.fit_forward_model(
            str(missing),
            str(tmp_path / "m.npz"),
            str(tmp_path / "fit.json"),
            env="HalfCheetah-v5",
            steps=100,
            action_noise=0.1,
            n_random=4,
            ridge=1.0,
            damping=0.1,
            holdout=0.2,
            seed=0,
            max_steps=100,
            env_kwargs={},
        )
    assert not (tmp_path / "m.npz").exists()


def test_controllers_without_the_base_are_refused(tmp_path):
    with pytest.raises(ValueError, match="must include 'base'"):
        rules.adapt(
            "p.npz",
            "m.npz",
            *(str(tmp_path / n) for n in ("r", "c", "k", "t")),
            env="HalfCheetah-v5",
            env_kwargs={},
            fault="nominal",
            spec=None,
            controllers=["cerebellar"],
            seeds=[0],
            episodes=1,
            max_steps=10,
            residual={},
            gradient_lr=0.1,
            curve_window=5,
            consolidate=None,
            device="cpu",
        )
