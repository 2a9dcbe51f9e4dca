"""The residual controller: spec oracles (bit-for-bit base with gain 0 and plasticity off; trace time
constants) and the invariants of its parts (k active features, non-negative pathways, microzone locality,
the meta-adaptation's slow growth and fast shrink)."""

import numpy as np
import pytest

from icml26.cerebellar_control.faults import NOMINAL, Fault
from icml26.cerebellar_control.residual import (
    CerebellarResidual,
    EligibilityTrace,
    GradientResidual,
    MetaAdaptation,
    PatternSeparation,
    ResidualConfig,
    decay_factor,
)
from icml26.cerebellar_control.rollouts import Frozen, run

FAULT = Fault("gain", "actuator_gain", 0.5, targets=("bthigh", "bshin", "bfoot"))


def actions_of(env, controller, fault, steps=200):
    taken = []

    class Recorder:
        gain = 0.0

        def act(self, obs):
            taken.append(controller.act(obs))
            return taken[-1]

        def learn(self, next_obs, reward):
            controller.learn(next_obs, reward)

        def reset_episode(self):
            controller.reset_episode()

    out = run(env, Recorder(), fault, episodes=1, seed=11)
    return np.array(taken), out.returns


def test_gain_zero_and_plasticity_off_reproduce_the_base_bit_for_bit(env, policy, model):
    cfg = ResidualConfig(n_features=200, plastic=False, meta=False, gain_max=0.0)
    controller = CerebellarResidual(policy, model, cfg)
    controller.w_exc[:] = np.random.default_rng(0).uniform(0, 1, controller.w_exc.shape)  # any residual at all
    ours, our_returns = actions_of(env, controller, FAULT)
    base, base_returns = actions_of(env, Frozen(policy), FAULT)
    assert np.array_equal(ours, base)
    assert np.array_equal(our_returns, base_returns)


def test_eligibility_traces_decay_with_their_time_constants(policy, model):
    controller = CerebellarResidual(policy, model, ResidualConfig(n_features=50, tau_fast=2.0, tau_slow=20.0))
    for trace, tau in ((controller.fast, 2.0), (controller.slow, 20.0)):
        impulse = np.zeros(50)
        impulse[3] = 1.0
        trace.value[:] = 0.0
        trace.update(impulse)
        start = trace.value[3]
        for n in range(1, 30):
            trace.update(np.zeros(50))
            assert trace.value[3] == pytest.approx(start * np.exp(-n / tau), rel=1e-12)
    assert start == pytest.approx(1 - np.exp(-1 / 20.0))
    single = CerebellarResidual(policy, model, ResidualConfig(n_features=50).ablate(tau_slow=2.0))
    assert single.slow.keep == single.fast.keep == decay_factor(2.0)


def test_a_constant_input_drives_a_trace_to_that_input():
    trace = EligibilityTrace(4, tau=5.0)
    for _ in range(400):
        trace.update(np.full(4, 0.7))
    np.testing.assert_allclose(trace.value, 0.7)


def test_pattern_separation_has_exactly_k_active_units_of_unit_norm():
    layer = PatternSeparation(23, 1000, 0.1, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    codes = np.array([layer(x) for x in rng.standard_normal((50, 23))])
    assert ((codes > 0).sum(axis=1) == 100).all()
    np.testing.assert_allclose(np.linalg.norm(codes, axis=1), 1.0)
    assert (codes > 0).any(axis=0).sum() > 300  # different inputs recruit different units


def test_weights_stay_non_negative_and_each_microzone_learns_only_its_own_error(env, policy, model):
    cfg = ResidualConfig(n_features=200, surprise_threshold=0.0, meta=False)
    controller = CerebellarResidual(policy, model, cfg)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(4)
    for _ in range(30):
        controller.act(obs)
        controller.learn(obs + rng.standard_normal(obs.shape), 0.0)
    assert (controller.w_exc >= 0).all() and (controller.w_inh >= 0).all()
    assert controller.w_exc.any() and controller.w_inh.any()

    class OneZone:  # an error that only actuator 2 would correct
        n_obs, n_actions = model.n_obs, model.n_actions
        normalise = staticmethod(model.normalise)

        @staticmethod
        def whitened_error(obs, action, next_obs):
            return np.full(model.n_obs, 3.0)

        @staticmethod
        def action_correction(whitened, obs):
            return np.eye(model.n_actions)[2]

    local = CerebellarResidual(policy, OneZone, cfg)
    for _ in range(10):
        local.act(obs)
        local.learn(obs, 0.0)
    moved = np.flatnonzero((local.w_exc != 0).any(axis=1) | (local.w_inh != 0).any(axis=1))
    assert moved.tolist() == [2]


def test_without_an_inhibitory_path_the_residual_only_pushes_up(env, policy, model):
    controller = CerebellarResidual(
        policy, model, ResidualConfig(n_features=200, surprise_threshold=0.0, meta=False, inhibitory=False)
    )
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(5)
    for _ in range(30):
        controller.act(obs)
        controller.learn(obs + rng.standard_normal(obs.shape), 0.0)
    assert not controller.w_inh.any()
    assert (controller.residual(obs, policy(obs))[0] >= 0).all()


def test_below_the_surprise_threshold_nothing_is_learned(env, policy, model):
    controller = CerebellarResidual(policy, model, ResidualConfig(n_features=200, surprise_threshold=1e9))
    run(env, controller, FAULT, episodes=1, seed=0)
    assert not controller.w_exc.any() and not controller.w_inh.any()


def test_meta_adaptation_grows_slowly_while_reward_holds_and_shrinks_fast_when_it_drops():
    cfg = ResidualConfig(gain_init=0.1, gain_max=1.0, meta_window=10, meta_up=0.05, meta_down=0.5, meta_tolerance=0.05)
    meta = MetaAdaptation(cfg)
    for _ in range(10):  # first window sets the reference
        meta.observe(1.0)
    assert meta.gain == pytest.approx(0.1)
    for window in range(1, 4):
        for _ in range(10):
            meta.observe(1.0)
        assert meta.gain == pytest.approx(0.1 + 0.05 * window)
    for _ in range(10):  # reward drops by 50%
        meta.observe(0.5)
    assert meta.gain == pytest.approx(0.25 * 0.5)
    for _ in range(100 * 10):
        meta.observe(1.0)
    assert meta.gain == pytest.approx(1.0) and meta.plasticity == pytest.approx(1.0)
    fixed = MetaAdaptation(cfg.ablate(meta=False))
    for _ in range(50):
        fixed.observe(-100.0)
    assert fixed.gain == 1.0 and fixed.plasticity == 1.0


def test_controller_compensates_a_known_action_deficit(env, policy, model):
    """With the back-leg gains halved the residual learns to amplify those actuators' base commands."""
    cfg = ResidualConfig(n_features=300, meta=False, surprise_threshold=0.0, lr_exc=0.2, lr_inh=0.1)
    controller = CerebellarResidual(policy, model, cfg)
    pairs = []

    class Watch:
        gain = 1.0

        def act(self, obs):
            action = controller.act(obs)
            pairs.append((controller.last_residual.copy(), controller.policy(obs)))
            return action

        learn = staticmethod(controller.learn)
        reset_episode = staticmethod(controller.reset_episode)

    run(env, Watch(), FAULT, episodes=2, seed=0)
    residual, base = (np.array(x[-150:]) for x in zip(*pairs))
    alignment = (residual * base).mean(axis=0)
    assert (alignment[:3] > 0).all(), alignment


def test_gradient_baseline_updates_every_weight_every_step(env, policy, model):
    controller = GradientResidual(policy, model, ResidualConfig(n_features=100), lr=0.05)
    obs, _ = env.reset(seed=0)
    controller.act(obs)
    controller.learn(obs + 1.0, 0.0)
    assert np.count_nonzero(controller.weights) == controller.weights.size
    assert run(env, controller, NOMINAL, episodes=1, seed=0).returns.shape == (1,)
