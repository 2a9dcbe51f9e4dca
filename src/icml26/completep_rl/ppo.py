"""A small PPO (clipped objective, GAE) whose actor and critic are parameterised MLPs.

Ours, following the standard recipe (Schulman et al. 2017): ``n_envs`` synchronous gymnasium
environments with same-step autoreset, rollouts of ``n_steps``, GAE(``gamma``, ``gae_lambda``),
``epochs`` passes of ``minibatches`` minibatches, clipped policy loss, value loss, entropy bonus,
global gradient-norm clipping. A time-limit truncation is not a termination: the step's reward gets
``gamma * V(final observation)`` added (gymnasium's ``final_obs``; with same-step autoreset the returned
observation is already the next episode's), then the episode boundary cuts GAE as usual
(:func:`bootstrapped_rewards`). Discrete actions use a categorical policy; continuous
ones a diagonal Gaussian whose mean is the actor's output and whose log standard deviation is one
learned, width-independent parameter per action dimension (initial ``log_std_init``, global learning
rate); samples are clipped to [-1, 1] and scaled to the action bounds for the environment.

Tasks: CartPole-v1, Acrobot-v1 (discrete), Pendulum-v1, InvertedPendulum-v5 (continuous; MuJoCo) and
``SparsePendulum-v1``, our sparse-reward variant of Pendulum: reward 1 while the pole is within 18 degrees
of upright (cos theta >= 0.95), else 0 (the dense torque and angle costs are dropped). Actor and critic are separate
:class:`~.parameterisation.ParamMLP` of the same width and parameterisation, each with its own Adam
whose per-group rates come from the parameterisation.

``train`` returns the learning curve (mean return of the episodes finished in each rollout), the
return of every finished episode in the order they finished, the FLOP count (analytic: 2 x parameters
per sample forward, 6 x per sample trained) and, on a fixed set of probe observations, the final action
probabilities (continuous: mean actions in [-1, 1]) and the Gram matrix of the actor's last hidden
features (what the width-consistency analysis compares; CKA needs only Gram matrices).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from .parameterisation import ParamMLP, adam

DISCRETE = ("CartPole-v1", "Acrobot-v1")
# the continuous-control tasks: the classic ones, our sparse variant, and the MuJoCo locomotion and balance tasks
# the paper's continuous-control claims are about (paper scale; every one has symmetric action bounds)
CONTINUOUS = (
    "Pendulum-v1",
    "InvertedPendulum-v5",
    "SparsePendulum-v1",
    "InvertedDoublePendulum-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Walker2d-v5",
    "Ant-v5",
    "Swimmer-v5",
    "Reacher-v5",
)
TASKS = DISCRETE + CONTINUOUS
SPARSE = {"SparsePendulum-v1": "Pendulum-v1"}  # our variant -> the gymnasium task it wraps
UPRIGHT_COS = 0.95


def is_continuous(task: str) -> bool:
    return task in CONTINUOUS


@dataclass(frozen=True)
class PPOConfig:
    total_steps: int = 50_000
    n_envs: int = 8
    n_steps: int = 128
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    depth: int = 2
    base_width: int = 64
    base_depth: int = 2
    probes: int = 64
    log_std_init: float = -0.5  # continuous tasks only


def _upright_reward(env):
    """The sparse-reward variant: 1 while Pendulum's pole is near upright, else 0."""
    import gymnasium as gym

    class UprightReward(gym.Wrapper):
        def step(self, action):
            obs, _, terminated, truncated, info = self.env.step(action)
            return obs, float(obs[0] >= UPRIGHT_COS), terminated, truncated, info

    return UprightReward(env)


def _envs(task: str, n: int):
    import gymnasium as gym

    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; expected one of {TASKS}")
    return gym.make_vec(
        SPARSE.get(task, task),
        num_envs=n,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP},
        wrappers=[_upright_reward] if task in SPARSE else None,
    )


def probe_observations(task: str, count: int, seed: int = 12345) -> np.ndarray:
    """States visited by a uniformly random policy (fixed seed): the same probes for every run."""
    envs = _envs(task, 1)
    obs, _ = envs.reset(seed=seed)
    envs.action_space.seed(seed)
    out = []
    while len(out) < count:
        out.append(obs[0].copy())
        obs, *_ = envs.step(envs.action_space.sample())
    envs.close()
    return np.array(out, dtype=np.float32)


def bootstrapped_rewards(
    rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray, info: dict, value, gamma: float
) -> np.ndarray:
    """The rewards of one vector step for the advantage estimate: ``+ gamma * value(final observation)`` where
    an episode was cut by its time limit (truncated, not terminated), so PPO does not learn that the task
    ends there. ``value`` maps a batch of observations to their values (numpy in, numpy out)."""
    cut = np.flatnonzero(np.asarray(truncated) & ~np.asarray(terminated))
    out = np.asarray(rewards, dtype=np.float64).copy()
    if cut.size:
        final = np.stack([np.asarray(info["final_obs"][i], dtype=np.float32) for i in cut])
        out[cut] += gamma * np.asarray(value(final), dtype=np.float64)
    return out


def parameters(d_in: int, d_out: int, width: int, depth: int) -> int:
    return d_in * width + width + depth * (width * width + width) + width * d_out + d_out


def train(
    task: str,
    parameterisation: str,
    width: int,
    lr: float,
    seed: int,
    cfg: PPOConfig,
    probes: np.ndarray,
    device: str = "cpu",
) -> dict:
    """One PPO run; the networks live on ``device`` (the environments always step on the CPU)."""
    torch.manual_seed(seed)
    envs = _envs(task, cfg.n_envs)
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    continuous = is_continuous(task)
    space = envs.single_action_space
    n_actions = int(space.shape[0]) if continuous else int(space.n)
    kw = dict(base_width=cfg.base_width, base_depth=cfg.base_depth)
    actor = ParamMLP(obs_dim, n_actions, width, cfg.depth, parameterisation, seed=seed, **kw).to(device)
    critic = ParamMLP(obs_dim, 1, width, cfg.depth, parameterisation, seed=seed + 10_000, **kw).to(device)
    opt_actor, opt_critic = adam(actor, lr), adam(critic, lr)
    if continuous:
        log_std = torch.nn.Parameter(torch.full((n_actions,), cfg.log_std_init, device=device))
        opt_std = torch.optim.Adam([log_std], lr=lr)
        scale = space.high.astype(np.float64)

    def policy(x):
        out = actor(x)
        return (
            torch.distributions.Normal(out, log_std.exp())
            if continuous
            else torch.distributions.Categorical(logits=out)
        )

    def log_prob(dist, act):
        return dist.log_prob(act).sum(-1) if continuous else dist.log_prob(act)

    def entropy(dist):
        return dist.entropy().sum(-1) if continuous else dist.entropy()

    @torch.no_grad()
    def value_of(observations: np.ndarray) -> np.ndarray:
        return critic(torch.as_tensor(observations, dtype=torch.float32, device=device)).squeeze(-1).cpu().numpy()

    obs, _ = envs.reset(seed=seed)
    running = np.zeros(cfg.n_envs)
    batch = cfg.n_envs * cfg.n_steps
    updates = max(1, cfg.total_steps // batch)
    curve, finished, episodes = [], [], []
    t0 = time.perf_counter()
    for update in range(updates):
        buf = {k: [] for k in ("obs", "act", "logp", "rew", "done", "val")}
        for _ in range(cfg.n_steps):
            x = torch.as_tensor(obs, dtype=torch.float32, device=device)
            with torch.no_grad():
                dist = policy(x)
                act = dist.sample()
                val = critic(x).squeeze(-1)
            sent = np.clip(act.cpu().numpy(), -1.0, 1.0) * scale if continuous else act.cpu().numpy()
            nxt, rew, term, trunc, info = envs.step(sent)
            done = np.logical_or(term, trunc)
            running += rew
            for i in np.flatnonzero(done):
                finished.append(running[i])
                running[i] = 0.0
            learnt = bootstrapped_rewards(rew, term, trunc, info, value_of, cfg.gamma)
            for k, v in (
                ("obs", x),
                ("act", act),
                ("logp", log_prob(dist, act)),
                ("val", val),
                ("rew", torch.as_tensor(learnt, dtype=torch.float32, device=device)),
                ("done", torch.as_tensor(done, dtype=torch.float32, device=device)),
            ):
                buf[k].append(v)
            obs = nxt
        with torch.no_grad():
            next_val = critic(torch.as_tensor(obs, dtype=torch.float32, device=device)).squeeze(-1)
        rew, done, val = (torch.stack(buf[k]) for k in ("rew", "done", "val"))
        adv = torch.zeros_like(rew)
        last = torch.zeros(cfg.n_envs, device=device)
        for t in reversed(range(cfg.n_steps)):
            following = next_val if t == cfg.n_steps - 1 else val[t + 1]
            delta = rew[t] + cfg.gamma * following * (1 - done[t]) - val[t]
            last = delta + cfg.gamma * cfg.gae_lambda * (1 - done[t]) * last
            adv[t] = last
        ret = (adv + val).reshape(-1)
        adv = adv.reshape(-1)
        b_obs, b_act, b_logp = (
            torch.cat(buf[k]) if buf[k][0].dim() > 1 else torch.stack(buf[k]).reshape(-1)
            for k in ("obs", "act", "logp")
        )
        gen = torch.Generator().manual_seed(seed * 1_000_003 + update)
        size = batch // cfg.minibatches
        for _ in range(cfg.epochs):
            order = torch.randperm(batch, generator=gen).to(device)
            for start in range(0, batch, size):
                i = order[start : start + size]
                a = (adv[i] - adv[i].mean()) / (adv[i].std() + 1e-8)
                dist = policy(b_obs[i])
                ratio = (log_prob(dist, b_act[i]) - b_logp[i]).exp()
                policy_loss = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
                loss_actor = policy_loss - cfg.ent_coef * entropy(dist).mean()
                if continuous:
                    opt_std.zero_grad()
                loss_critic = cfg.vf_coef * (critic(b_obs[i]).squeeze(-1) - ret[i]).pow(2).mean()
                for opt, loss, net in ((opt_actor, loss_actor, actor), (opt_critic, loss_critic, critic)):
                    opt.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
                    opt.step()
                if continuous:
                    opt_std.step()
        curve.append(float(np.mean(finished)) if finished else np.nan)
        episodes += finished
        finished = []
    envs.close()
    seconds = time.perf_counter() - t0
    samples = updates * batch
    flops_per_sample = 2 * (parameters(obs_dim, n_actions, width, cfg.depth) + parameters(obs_dim, 1, width, cfg.depth))
    with torch.no_grad():
        x = torch.as_tensor(probes, device=device)
        feats = actor.features(x)
        probs = (feats[-1].clamp(-1.0, 1.0) if continuous else torch.softmax(feats[-1], dim=-1)).cpu().numpy()
        h = feats[-2].double()
        h = h - h.mean(dim=0, keepdim=True)
        gram = (h @ h.T).cpu().numpy()
    return {
        "curve": np.array(curve),
        "episodes": np.array(episodes),
        "steps": np.arange(1, updates + 1) * batch,
        "seconds": seconds,
        "flops": float(samples * flops_per_sample * (1 + 3 * cfg.epochs)),
        "probe_probs": probs,
        "gram": gram,
    }
