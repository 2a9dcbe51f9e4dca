"""The frozen policy's array checkpoint, SB3 export, and consolidation into the weights."""

import numpy as np

from icml26.cerebellar_control import base_policy, consolidation
from icml26.cerebellar_control.residual import CerebellarResidual, ResidualConfig
from icml26.common.io import read_npz, write_npz


def test_checkpoint_round_trip_is_exact(tmp_path, policy):
    write_npz(tmp_path / "p.npz", **policy.save())
    again = base_policy.FrozenPolicy.load(read_npz(tmp_path / "p.npz"))
    obs = np.random.default_rng(0).standard_normal((20, 17)) * 3
    assert np.array_equal(again(obs), policy(obs))
    assert again.activation == "tanh" and again.clip_obs == 10.0


def test_actions_are_clipped_and_observations_normalised(policy):
    obs = np.full(17, 1e6)
    assert np.abs(policy(obs)).max() <= 1.0
    assert np.array_equal(policy.normalise(obs), np.full(17, policy.clip_obs))


def test_tiny_ppo_training_exports_the_mean_action_network(env):
    frozen, curve = base_policy.train(
        "HalfCheetah-v5",
        steps=256,
        seed=0,
        n_envs=1,
        hidden=[8],
        activation="relu",
        ppo={
            "n_steps": 128,
            "batch_size": 64,
            "n_epochs": 1,
            "learning_rate": 3e-4,
            "gamma": 0.99,
            "gae_lambda": 0.95,
            "clip_range": 0.2,
            "ent_coef": 0.0,
            "vf_coef": 0.5,
            "max_grad_norm": 0.5,
            "log_std_init": -1.0,
        },
        device="cpu",
    )
    assert [w.shape for w in frozen.weights] == [(8, 17), (6, 8)]
    assert frozen(env.reset(seed=0)[0]).shape == (6,)


def test_consolidation_without_steps_keeps_the_policy_and_with_steps_learns_the_residual(env, policy, model):
    rng = np.random.default_rng(0)
    obs = np.array([env.reset(seed=i)[0] for i in range(64)]) + 0.1 * rng.standard_normal((64, 17))
    controller = CerebellarResidual(policy, model, ResidualConfig(n_features=100, meta=False))
    controller.w_exc[:] = rng.uniform(0, 2, controller.w_exc.shape)
    targets = consolidation.residual_targets(controller, obs)
    settings = {"anchor": 0.0, "lr": 1e-2, "batch_size": 64, "seed": 0}
    same = consolidation.distil(policy, obs, targets, steps=0, **settings)
    assert all(np.array_equal(a, b) for a, b in zip(same.weights, policy.weights))
    before = np.mean((np.clip(targets, -1, 1) - policy(obs)) ** 2)
    merged = consolidation.distil(policy, obs, targets, steps=300, **settings)
    after = np.mean((np.clip(targets, -1, 1) - merged(obs)) ** 2)
    assert after < 0.5 * before
    anchored = consolidation.distil(policy, obs, targets, steps=300, **{**settings, "anchor": 1e3})
    change = lambda p: sum(np.sum((a - b) ** 2) for a, b in zip(p.weights, policy.weights))  # noqa: E731
    assert change(anchored) < 0.01 * change(merged)
