"""Small shared fixtures: a random frozen policy and a forward model fit on its HalfCheetah transitions."""

import numpy as np
import pytest

from icml26.cerebellar_control import forward_model
from icml26.cerebellar_control.base_policy import FrozenPolicy
from icml26.cerebellar_control.rollouts import make_env

ENV = "HalfCheetah-v5"


def random_policy(seed: int = 0, hidden: int = 16) -> FrozenPolicy:
    rng = np.random.default_rng(seed)
    sizes = [17, hidden, hidden, 6]
    weights = [rng.standard_normal((o, i)) / np.sqrt(i) for i, o in zip(sizes[:-1], sizes[1:])]
    biases = [0.1 * rng.standard_normal(o) for o in sizes[1:]]
    return FrozenPolicy(rng.standard_normal(17) * 0.1, rng.uniform(0.5, 2.0, 17), weights, biases)


@pytest.fixture(scope="module")
def env():
    environment = make_env(ENV, 200)
    yield environment
    environment.close()


@pytest.fixture(scope="module")
def policy():
    return random_policy()


@pytest.fixture(scope="module")
def model(env, policy):
    obs, actions, next_obs = forward_model.collect(env, policy, steps=1500, action_noise=0.3, seed=3)
    fitted, _ = forward_model.fit(
        obs, actions, next_obs, n_random=16, ridge=1.0, damping=0.1, holdout=0.2, rng=np.random.default_rng(0)
    )
    return fitted
