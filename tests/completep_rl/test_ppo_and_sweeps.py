"""PPO determinism and learning, the sweep summaries, CKA, and verdicts that can fail."""

import json

import numpy as np
import pandas as pd
import pytest

from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE, NOT_EVALUATED
from icml26.completep_rl import ppo, rules, sweeps, verdict
from tests.conftest import figure_files

SMALL = ppo.PPOConfig(total_steps=1024, n_envs=4, n_steps=64, depth=1, base_depth=1, probes=8)


def test_ppo_is_deterministic_and_reports_probe_outputs():
    probes = ppo.probe_observations("CartPole-v1", 8)
    one = ppo.train("CartPole-v1", "completep", 128, 1e-3, 3, SMALL, probes)
    two = ppo.train("CartPole-v1", "completep", 128, 1e-3, 3, SMALL, probes)
    np.testing.assert_array_equal(one["curve"], two["curve"])
    np.testing.assert_array_equal(one["gram"], two["gram"])
    assert one["probe_probs"].shape == (8, 2) and np.allclose(one["probe_probs"].sum(1), 1)
    assert one["gram"].shape == (8, 8) and len(one["curve"]) == 1024 // (4 * 64)
    np.testing.assert_array_equal(one["episodes"], two["episodes"])
    # CartPole pays 1 per step: finished episodes cannot hold more steps than were taken
    assert len(one["episodes"]) > 0 and one["episodes"].sum() <= 1024 and one["episodes"].min() >= 1
    finite = one["curve"][np.isfinite(one["curve"])]
    assert one["episodes"].min() <= finite.min() and finite.max() <= one["episodes"].max()


def test_ppo_learns_cartpole():
    cfg = ppo.PPOConfig(total_steps=12288, depth=1, base_depth=1, probes=8)
    out = ppo.train("CartPole-v1", "sp", 64, 3e-3, 0, cfg, ppo.probe_observations("CartPole-v1", 8))
    assert np.nanmean(out["curve"][-4:]) > 2 * np.nanmean(out["curve"][:2])  # random play lasts ~20 steps


def test_linear_cka_is_one_for_the_same_features_and_invariant_to_scale_and_rotation():
    rng = np.random.default_rng(0)
    h = rng.normal(size=(20, 6))
    h -= h.mean(0)
    q, _ = np.linalg.qr(rng.normal(size=(6, 6)))
    k = h @ h.T
    assert sweeps.linear_cka(k, k) == pytest.approx(1.0)
    assert sweeps.linear_cka(k, 3 * (h @ q) @ (h @ q).T) == pytest.approx(1.0)
    other = rng.normal(size=(20, 6))
    other -= other.mean(0)
    assert sweeps.linear_cka(k, other @ other.T) < 0.8


def test_final_return_counts_episodes_not_rollouts():
    # a failing Acrobot run: 500-step episodes, so most rollouts (and the last ones) finish none
    curve = np.array([np.nan, -500.0, np.nan, np.nan, -500.0, np.nan, np.nan, np.nan])
    failing = sweeps.run_row(curve, np.full(32, -500.0))
    assert failing == {"final_return": -500.0, "auc": -500.0}
    recent = np.concatenate([np.zeros(40), np.arange(sweeps.FINAL_EPISODES, dtype=float)])
    assert sweeps.run_row(curve, recent)["final_return"] == (sweeps.FINAL_EPISODES - 1) / 2
    assert np.isnan(sweeps.run_row(curve, np.array([]))["final_return"])


def _sweep_row(width: int, lr: float, seed: int, final_return: float, auc: float) -> dict:
    return {
        "task": "t",
        "parameterisation": "ntk",
        "width": width,
        "lr": lr,
        "seed": seed,
        "final_return": final_return,
        "auc": auc,
        "flops": 1.0,
    }


def test_optimal_lr_and_shift_on_a_constructed_sweep():
    lrs = [1e-4, 1e-3, 1e-2]
    rows = []
    for width, best in ((64, 1e-3), (256, 1e-4)):
        for lr in lrs:
            for seed in (0, 1):
                rows.append(_sweep_row(width, lr, seed, 10.0 if lr == best else 1.0, 1.0))
    opt = sweeps.optimal_lr(pd.DataFrame(rows), lrs)
    assert opt.set_index("width")["grid_index"].to_dict() == {64: 1, 256: 0}
    assert opt.set_index("width")["at_grid_edge"].to_dict() == {64: False, 256: True}
    assert int(sweeps.transfer(opt)["shift"].iloc[0]) == 1


def _stable(transfer: pd.DataFrame, seeds: int = 3) -> pd.DataFrame:
    """Leave-one-seed-out shifts equal to the full sweep's: a verdict no single seed decides."""
    return pd.concat([transfer.assign(left_out=s) for s in range(seeds)], ignore_index=True)


def test_transfer_claim_needs_completep_to_transfer_and_the_others_not_to():
    opt = pd.DataFrame(
        {
            "task": ["t"] * 3,
            "parameterisation": ["sp", "completep", "ntk"],
            "width": [64] * 3,
            "optimal_lr": [1e-3] * 3,
            "at_grid_edge": [False, True, False],
        }
    )
    ok = pd.DataFrame({"task": ["t"] * 3, "parameterisation": ["sp", "completep", "ntk"], "shift": [3, 0, 2]})
    assert verdict.lr_transfers(ok, opt, _stable(ok)).state == HOLDS
    assert verdict.lr_transfers(ok.assign(shift=[3, 2, 2]), opt, _stable(ok.assign(shift=[3, 2, 2]))).state == FAILS
    assert verdict.lr_transfers(ok.assign(shift=[1, 0, 2]), opt, _stable(ok.assign(shift=[1, 0, 2]))).state == FAILS
    assert verdict.lr_transfers(ok, opt, _stable(ok)).measured["optima_at_grid_edge"] == ["t/completep/w64"]
    # NTK's shift of 2 falls to 1 when one seed is left out: the seeds cannot tell
    flips = _stable(ok)
    flips.loc[(flips.parameterisation == "ntk") & (flips.left_out == 1), "shift"] = 1
    claim = verdict.lr_transfers(ok, opt, flips)
    assert claim.state == INCONCLUSIVE and "1 to 2 leaving a seed out" in claim.headline
    # one seed: no range at all; a parameterisation the sweep skipped: not evaluated, never refuted
    assert verdict.lr_transfers(ok, opt, _stable(ok, seeds=1)).state == INCONCLUSIVE
    assert verdict.lr_transfers(ok[ok.parameterisation != "sp"], opt, _stable(ok)).state == NOT_EVALUATED


def test_shift_without_each_seed_finds_the_seed_that_moves_the_optimum():
    lrs = [1e-4, 1e-3, 1e-2]
    rows = []
    for width in (64, 256):
        for lr in lrs:
            for seed in (0, 1, 2):
                best = 1e-3 if width == 64 or seed != 2 else 1e-2  # seed 2 alone prefers 1e-2 at width 256
                value = 10.0 if lr == best else 1.0
                value = 30.0 if seed == 2 and lr == best else value  # ... strongly enough to move the mean
                rows.append(_sweep_row(width, lr, seed, value, value))
    runs = pd.DataFrame(rows)
    assert int(sweeps.transfer(sweeps.optimal_lr(runs, lrs))["shift"].iloc[0]) == 1
    left = sweeps.shift_without_each_seed(runs, lrs).set_index("left_out")["shift"].to_dict()
    assert left == {0: 1, 1: 1, 2: 0}


def test_efficiency_claim_carries_a_seed_interval_that_can_fail():
    def per_seed(cp, ntk):
        return pd.DataFrame(
            {"task": "t", "parameterisation": ["completep"] * 3 + ["ntk"] * 3, "seed": [0, 1, 2] * 2, "auc": cp + ntk}
        )

    def table(frame):
        means = frame.groupby("parameterisation")["auc"].mean()
        return pd.DataFrame({"task": "t", "parameterisation": means.index, "width": 64, "best_auc": means.values})

    apart = per_seed([10.0, 11.0, 12.0], [1.0, 2.0, 3.0])
    assert verdict.completep_more_efficient(table(apart), apart).state == HOLDS
    behind = per_seed([1.0, 2.0, 3.0], [10.0, 11.0, 12.0])
    assert verdict.completep_more_efficient(table(behind), behind).state == FAILS
    noisy = per_seed([1.0, 12.0, 3.0], [2.0, 2.5, 3.0])
    claim = verdict.completep_more_efficient(table(noisy), noisy)
    assert claim.state == INCONCLUSIVE and claim.measured["t"]["completep_minus_ntk"] == pytest.approx(16 / 3 - 2.5)


def test_efficiency_per_seed_reads_each_seed_at_the_best_learning_rate():
    rows = [
        {"task": "t", "parameterisation": "ntk", "width": w, "lr": lr, "seed": s, "auc": auc, "flops": 1.0}
        for w in (64, 128)
        for lr, base in ((1e-3, 5.0), (1e-2, 1.0))
        for s, auc in ((0, base + w / 64), (1, base - w / 64))
    ]
    got = sweeps.efficiency_per_seed(pd.DataFrame(rows)).set_index("seed")["auc"].to_dict()
    assert got == {0: pytest.approx(5.0 + 1.5), 1: pytest.approx(5.0 - 1.5)}  # lr 1e-3 at both widths


def test_coordinate_claim_fails_on_a_sloped_hidden_layer():
    slopes = pd.DataFrame(
        {"parameterisation": ["completep"] * 3, "layer": ["input", "block_1", "output"], "slope": [0.05, 0.4, -0.7]}
    )
    assert verdict.coordinate_check_flat(slopes).holds is False
    assert verdict.coordinate_check_flat(slopes.assign(slope=[0.05, -0.1, -0.7])).holds is True


def test_rule_functions_end_to_end(tmp_path):
    settings = {
        "total_steps": 256,
        "n_envs": 2,
        "n_steps": 64,
        "epochs": 1,
        "minibatches": 2,
        "gamma": 0.99,
        "gae_lambda": 0.95,
        "clip": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
        "max_grad_norm": 0.5,
        "depth": 1,
        "probes": 8,
        "base_width": 64,
        "base_depth": 1,
    }
    runs, timings = [], []
    for param in ("sp", "completep", "ntk"):
        for width in (64, 128):
            group = [str(tmp_path / f"runs/CartPole-v1/{param}/w{width}_lr{lr}.npz") for lr in ("0.001", "0.01")]
            timings.append(str(tmp_path / f"t/{param}{width}.csv"))
            rules.train_runs(
                group,
                timings[-1],
                task="CartPole-v1",
                parameterisation=param,
                width=width,
                lrs=[0.001, 0.01],
                seeds=[0],
                ppo_settings=settings,
                device="cpu",
            )
            runs += group
    out = {
        k: str(tmp_path / f"{k}.csv") for k in ("table", "optimum", "transfer", "efficiency", "consistency", "curves")
    }
    rules.summarise(runs, **out, lrs=[0.001, 0.01], base_width=64)
    rules.coordinate_check(
        str(tmp_path / "coord.csv"),
        str(tmp_path / "slopes.csv"),
        parameterisations=["sp", "completep", "ntk"],
        widths=[64, 128],
        seeds=[0],
        depth=1,
        steps=2,
        lr=0.01,
        base_width=64,
    )
    rules.timing(timings, str(tmp_path / "timing.csv"), str(tmp_path / "machine.json"))
    rules.verdict(
        str(tmp_path / "slopes.csv"),
        out["transfer"],
        out["optimum"],
        out["efficiency"],
        out["consistency"],
        out["table"],
        str(tmp_path / "claims.json"),
        str(tmp_path / "metrics.json"),
        lrs=[0.001, 0.01],
        substitution="a test stand-in",
    )
    names = ("coordinate_check", "lr_transfer", "efficiency", "consistency")
    rules.figures(
        str(tmp_path / "coord.csv"),
        out["table"],
        out["curves"],
        out["efficiency"],
        out["consistency"],
        **figure_files(tmp_path, *names),
    )
    assert all((tmp_path / f"{name}.png").stat().st_size > 5000 for name in names)
    table = pd.read_csv(out["table"])
    assert len(table) == 12 and set(table["parameterisation"]) == {"sp", "completep", "ntk"}
    consistency = pd.read_csv(out["consistency"])
    base = consistency[consistency["width"] == 64]
    assert np.allclose(base["cka_to_base"], 1.0) and np.allclose(base["action_agreement"], 1.0)
    claims = json.load(open(tmp_path / "claims.json"))
    assert [c["id"] for c in claims] == [
        "optimal_lr_transfers_under_completep_only",
        "completep_more_reward_per_compute_than_ntk",
        "completep_feature_updates_width_independent",
    ]


@pytest.mark.parametrize("task,actions", [("Pendulum-v1", 1), ("InvertedPendulum-v5", 1), ("HalfCheetah-v5", 6)])
def test_continuous_ppo_is_deterministic_and_reports_mean_actions(task, actions):
    probes = ppo.probe_observations(task, 8)
    cfg = ppo.PPOConfig(total_steps=512, n_envs=2, n_steps=128, depth=1, base_depth=1, probes=8)
    one = ppo.train(task, "ntk", 64, 1e-3, 3, cfg, probes)
    two = ppo.train(task, "ntk", 64, 1e-3, 3, cfg, probes)
    np.testing.assert_array_equal(one["curve"], two["curve"])
    np.testing.assert_array_equal(one["probe_probs"], two["probe_probs"])
    assert one["probe_probs"].shape == (8, actions) and np.abs(one["probe_probs"]).max() <= 1.0
    if task != "HalfCheetah-v5":  # its episodes last 1,000 steps: none ends within 512
        assert np.isfinite(one["curve"][-1])  # Pendulum episodes last 200 steps: the first rollout finishes none


def test_sparse_pendulum_pays_one_exactly_when_upright():
    envs = ppo._envs("SparsePendulum-v1", 2)
    obs, _ = envs.reset(seed=0)
    envs.action_space.seed(0)
    seen, finished = set(), 0
    for _ in range(300):  # past the 200-step truncation, so the autoreset path is covered too
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
        done = terminated | truncated
        # same-step autoreset: a finished episode's reward belongs to its final observation
        last = np.array([info["final_obs"][i] if done[i] else obs[i] for i in range(len(obs))])
        np.testing.assert_array_equal(reward, (last[:, 0] >= ppo.UPRIGHT_COS).astype(float))
        seen.update(reward.tolist())
        finished += int(done.sum())
    envs.close()
    assert seen <= {0.0, 1.0} and finished == 2
    with pytest.raises(ValueError, match="unknown task"):
        ppo._envs("MountainCar-v0", 1)


def test_continuous_action_agreement_uses_a_tolerance():
    a = np.array([[0.0, 0.5], [0.2, -0.2], [1.0, 1.0]])
    b = a + np.array([[0.05, -0.05], [0.3, 0.0], [0.0, 0.0]])
    assert sweeps.action_agreement(a, b, continuous=True) == pytest.approx(2 / 3)
    probs = np.array([[0.9, 0.1], [0.4, 0.6]])
    assert sweeps.action_agreement(probs, probs[::-1], continuous=False) == 0.0


def test_a_time_limit_cut_bootstraps_from_the_final_observation_and_a_termination_does_not():
    import gymnasium as gym

    envs = gym.make_vec(
        "CartPole-v1",
        num_envs=2,
        vectorization_mode="sync",
        max_episode_steps=3,
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP},
    )
    envs.reset(seed=0)

    def value(obs):
        return 10 * np.asarray(obs).sum(axis=-1)

    for step in range(3):  # the time limit cuts both episodes at the third step, before the pole falls
        nxt, rew, term, trunc, info = envs.step(np.array([0, 1]))
        learnt = ppo.bootstrapped_rewards(rew, term, trunc, info, value, 0.9)
        if step < 2:
            assert not trunc.any() and np.array_equal(learnt, rew)
    envs.close()
    final = np.stack(info["final_obs"])
    assert trunc.all() and not term.any() and not np.allclose(final, nxt)  # nxt already starts the next episode
    np.testing.assert_allclose(learnt, rew + 0.9 * value(final), rtol=1e-6)
    both = ppo.bootstrapped_rewards(np.ones(2), np.array([True, False]), np.array([True, True]), info, value, 0.9)
    assert both[0] == 1.0 and both[1] == pytest.approx(1 + 0.9 * value(final[1:])[0], rel=1e-6)  # fell: no value


def test_the_continuous_tasks_have_symmetric_bounds_as_the_actions_are_scaled():
    import gymnasium as gym

    for task in ppo.CONTINUOUS:
        space = gym.make(ppo.SPARSE.get(task, task)).action_space
        assert np.array_equal(space.low, -space.high), task  # samples in [-1, 1] times the high bound
