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


def test_a_frozen_sac_policy_acts_as_sb3_predicts_and_survives_its_checkpoint(tmp_path):
    """SAC (the spec's trainer for Humanoid-v5): the exported arrays give SB3's deterministic action, squashed by
    tanh into the action bounds (Humanoid's are +-0.4), before and after a save."""
    import gymnasium as gym
    from stable_baselines3 import SAC

    env = gym.make("Humanoid-v5", include_cinert_in_observation=False, include_cvel_in_observation=False,
                   include_qfrc_actuator_in_observation=False, include_cfrc_ext_in_observation=False)  # fmt: skip
    model = SAC("MlpPolicy", env, seed=0, device="cpu", policy_kwargs={"net_arch": [16, 16]}, learning_starts=0)
    frozen = base_policy.freeze_sac(model, "relu")
    obs = np.array([env.reset(seed=i)[0] for i in range(8)])
    expected, _ = model.predict(obs, deterministic=True)
    assert np.allclose(frozen(obs), expected, atol=1e-5) and np.abs(frozen(obs)).max() <= 0.4
    write_npz(tmp_path / "sac.npz", **frozen.save())
    again = base_policy.FrozenPolicy.load(read_npz(tmp_path / "sac.npz"))
    assert again.squash == "tanh" and np.array_equal(again(obs), frozen(obs))
    settings = {"anchor": 0.0, "lr": 1e-2, "batch_size": 8, "seed": 0}
    target = np.full((8, frozen.low.size), 0.3)
    learnt = consolidation.distil(frozen, obs, target, steps=50, **settings)
    assert np.abs(learnt(obs) - 0.3).mean() < np.abs(frozen(obs) - 0.3).mean()  # fitted through the squash


def test_tiny_sac_training_records_a_thinned_curve(env):
    sac = {"learning_rate": 3e-4, "buffer_size": 1000, "learning_starts": 100, "batch_size": 32, "tau": 0.005,
           "gamma": 0.99, "train_freq": 1, "gradient_steps": 1}  # fmt: skip
    frozen, curve = base_policy.train(
        "HalfCheetah-v5", steps=2200, seed=0, n_envs=1, hidden=[8], activation="relu", ppo={}, device="cpu",
        algorithm="sac", sac=sac,
    )  # fmt: skip
    assert frozen.squash == "tanh" and [w.shape for w in frozen.weights] == [(8, 17), (6, 8)]
    assert [row["steps"] for row in curve] == [1000, 2000]  # one point per 1,000 steps, after full episodes
