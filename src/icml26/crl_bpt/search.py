"""One prompt search under the call budget: the methods and the loop they share.

Every method starts from the same place and spends the same budget of black-box calls:
- ``human_best`` scores the human templates round-robin on fresh batches until the budget is spent and keeps the
  best (the strongest use of the budget without an agent);
- ``random_search`` samples templates from the SFT'd agent, never updated (ours: "random" search over the
  agent's prior, so the comparison isolates what the RL updates add);
- the RL methods sample a batch of templates, score each on one batch of images (plus the baseline template on
  the same batch when they use the control variate), and take one policy-gradient step: REINFORCE with a running
  baseline, then the control variate, imitation, innovation, and the curriculum (CRL-BPT with ``e_a`` 1, 2, 4),
  under the EMA or the as-released per-step loss normalisation.

The agent's context holds the best templates found so far (:mod:`.agent`), seeded by scoring ``references``
human templates on one batch first. The best template at any point is the one with the highest mean training
accuracy over its calls (ties: higher mean margin, then alphabetical), for every method alike (ours). A method
with the control variate leaves the last call unspent when only one is left (a step needs a sample and the
baseline); no method ever spends more than the budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from . import grammar
from .blackbox import BlackBox, reward


@dataclass(frozen=True)
class Method:
    kind: str  # "human", "sample" or "rl"
    control_variate: bool = False
    imitation: bool = False
    innovation: bool = False
    curriculum: float | None = None  # the rate e_a of the curriculum weights; None: the fixed weights
    normalisation: str = "ema"  # or "per_step" (as released)


METHODS = {
    "human_best": Method("human"),
    "random_search": Method("sample"),
    "reinforce": Method("rl"),
    "reinforce_cv": Method("rl", control_variate=True),
    "cv_imitation": Method("rl", control_variate=True, imitation=True),
    "cv_imitation_innovation": Method("rl", control_variate=True, imitation=True, innovation=True),
    "crl_bpt_e1": Method("rl", True, True, True, curriculum=1.0),
    "crl_bpt_e2": Method("rl", True, True, True, curriculum=2.0),
    "crl_bpt_e4": Method("rl", True, True, True, curriculum=4.0),
    "crl_bpt_e2_per_step": Method("rl", True, True, True, curriculum=2.0, normalisation="per_step"),
}


@dataclass(frozen=True)
class SearchSettings:
    """A config's ``search`` block."""

    budget: int = 2000  # black-box calls per run, every method
    samples: int = 8  # templates per step
    batch_images: int = 64  # training images per step (every call of the step scores the same batch)
    references: int = 10  # templates in the agent's context
    best_human: int = 3  # the imitation loss's "best human templates" (of the scored references)
    memory: int = 64  # recent generations the innovation weight compares with
    max_new_tokens: int = 12
    temperature: float = 1.0
    lr: float = 0.001
    clip_norm: float = 1.0
    baseline_momentum: float = 0.9  # REINFORCE's running baseline
    cv_momentum: float = 0.9  # the control variate's EMAs
    norm_momentum: float = 0.9  # the historical loss normaliser's EMA
    fixed_imitation: float = 0.5  # the fixed weights of the ablations without curriculum
    fixed_innovation: float = 0.5
    curve_every: int = 200  # calls between points of the accuracy-vs-calls curve


class Pool:
    """Every template scored so far with its calls' accuracies and margins."""

    def __init__(self):
        self.scores: dict[str, list[tuple[float, float]]] = {}

    def add(self, template: str, accuracy: float, margin: float) -> None:
        self.scores.setdefault(template, []).append((accuracy, margin))

    def _key(self, template: str):
        values = np.asarray(self.scores[template])
        return (-values[:, 0].mean(), -values[:, 1].mean(), template)

    def ranked(self) -> list[str]:
        return sorted((t for t in self.scores if grammar.has_slot(t)), key=self._key)

    def best(self) -> str | None:
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def top(self, count: int) -> list[tuple[str, float]]:
        return [(t, float(np.mean([a for a, _ in self.scores[t]]))) for t in self.ranked()[:count]]


@dataclass
class Trace:
    """What a run leaves: one row per call, one per step (its wall-clock seconds in the ``*_s`` fields), the
    curve and the best template."""

    calls: list[dict]
    steps: list[dict]
    curve: list[dict]
    best: str


class _Curve:
    def __init__(self, every: int, budget: int, test_accuracy: Callable[[str], float]):
        self.marks = [*range(every, budget, every), budget]
        self.test_accuracy, self.points = test_accuracy, []

    def update(self, used: int, pool: Pool) -> None:
        while self.marks and used >= self.marks[0]:
            best = pool.best()
            accuracy = self.test_accuracy(best) if best else 0.0
            self.points.append({"calls": self.marks.pop(0), "template": best, "test_accuracy": accuracy})


def _score_all(
    box: BlackBox, templates: Sequence[str], batch: np.ndarray, pool: Pool, calls: list, step: int, role: str
) -> list[float]:
    """Score each template on ``batch`` (one call each), add it to the pool, and record the call; ``role`` says
    why it was scored: ``human`` (human_best), ``reference`` (the seeding references), ``sample`` (the agent's),
    ``baseline`` (the control variate's)."""
    found = []
    for template in templates:
        accuracy, margin = box.score(template, batch)
        pool.add(template, accuracy, margin)
        found.append(reward(accuracy, margin))
        calls.append(
            {
                "call": box.budget.used,
                "step": step,
                "role": role,
                "template": template,
                "valid": grammar.has_slot(template),
                "readable": grammar.readable(template),
                "accuracy": accuracy,
                "margin": margin,
                "reward": found[-1],
            }
        )
    return found


def run(
    name: str,
    box: BlackBox,
    human: Sequence[str],
    settings: SearchSettings,
    *,
    seed: int,
    test_accuracy: Callable[[str], float],
    agent=None,
    tok=None,
    log: Callable[[str], None] = print,
) -> Trace:
    """Spend ``box``'s whole budget with method ``name``; ``agent`` (the SFT'd causal LM, trained in place by the RL
    methods) and ``tok`` are needed by every method but ``human_best``."""
    method = METHODS[name]
    rng = np.random.default_rng(seed)
    pool, calls, steps = Pool(), [], []
    curve = _Curve(settings.curve_every, box.budget.limit, test_accuracy)
    start = time.perf_counter()

    def batch() -> np.ndarray:
        return rng.choice(box.images, size=settings.batch_images, replace=False)

    if method.kind == "human":
        order = [human[i] for i in rng.permutation(len(human))]
        while box.budget.remaining:
            step = len(steps)
            chosen = [order[(step * settings.samples + i) % len(order)] for i in range(settings.samples)]
            _score_all(box, chosen[: box.budget.remaining], batch(), pool, calls, step, "human")
            steps.append({"step": step, "calls": box.budget.used})
            curve.update(box.budget.used, pool)
        return Trace(calls, steps, curve.points, pool.best())

    references = [human[i] for i in rng.choice(len(human), size=settings.references, replace=False)]
    seeded = _score_all(box, references[: box.budget.remaining], batch(), pool, calls, -1, "reference")
    best_human = [references[i] for i in np.argsort(-np.asarray(seeded), kind="stable")[: settings.best_human]]
    curve.update(box.budget.used, pool)
    learner = None
    if method.kind == "rl":
        from ..common.lm.tokenizer import pad_id

        learner = _Learner(method, agent, settings, pad_id(tok))
    recent: list[str] = []
    step = 0
    while box.budget.remaining > (1 if method.control_variate else 0):
        tick = time.perf_counter()
        t = box.budget.used / box.budget.limit
        count = min(settings.samples, box.budget.remaining - (1 if method.control_variate else 0))
        prompt = _context(tok, pool, settings)
        samples = _sample(agent, tok, prompt, count, settings, seed=seed * 100_003 + step)
        texts = _templates(tok, samples)
        sampled = time.perf_counter()
        images = batch()
        rewards = torch.tensor(_score_all(box, texts, images, pool, calls, step, "sample"), dtype=torch.float64)
        record = {"step": step, "calls": box.budget.used, "t": t, "reward_mean": float(rewards.mean())}
        if learner is not None:
            if method.control_variate:
                alpha = learner.control.alpha  # the alpha this step's calibration uses
                (base,) = _score_all(box, [grammar.BASELINE], images, pool, calls, step, "baseline")
                calibrated = learner.control.calibrate(rewards, base)
                record |= {"baseline_reward": base, "alpha": alpha}
                for row, value in zip(calls[-count - 1 : -1], calibrated.tolist()):
                    row["calibrated"] = value
            else:
                calibrated = rewards
            scored = time.perf_counter()
            record |= learner.update(prompt, samples, texts, calibrated, t, best_human, recent)
            record["update_s"] = time.perf_counter() - scored
        record["sample_s"] = sampled - tick
        steps.append(record)
        recent = [*recent, *texts][-settings.memory :]
        curve.update(box.budget.used, pool)
        step += 1
        if step % 25 == 0:
            log(
                f"{name} seed {seed}: step {step}, {box.budget.used}/{box.budget.limit} calls, "
                f"mean reward {float(rewards.mean()):.2f}, best {pool.best()!r} "
                f"({time.perf_counter() - start:.0f} s)"
            )
    curve.update(box.budget.limit, pool)
    return Trace(calls, steps, curve.points, pool.best())


def _context(tok, pool: Pool, settings: SearchSettings) -> list[int]:
    from .agent import context

    return context(tok, pool.top(settings.references))


def _sample(agent, tok, prompt: list[int], count: int, settings: SearchSettings, seed: int):
    from ..common.lm.sampling import generate
    from ..common.lm.tokenizer import pad_id

    return generate(
        agent,
        [prompt] * count,
        max_new_tokens=settings.max_new_tokens,
        stop_ids=[tok.eos_token_id],
        pad_id=pad_id(tok),
        temperature=settings.temperature,
        seed=seed,
    )


def _templates(tok, samples) -> list[str]:
    from .agent import templates

    return templates(tok, samples.continuations())


class _Learner:
    """The RL update: REINFORCE on sequence log-probabilities with a running baseline, plus the imitation and
    innovation terms at fixed or curriculum weights, each term through its own normaliser."""

    def __init__(self, method: Method, agent, settings: SearchSettings, pad_id: int):
        from ..common.lm.policy_gradient import RunningBaseline
        from .objectives import ControlVariate, normaliser

        self.method, self.agent, self.settings, self.pad_id = method, agent, settings, pad_id
        self.optimizer = torch.optim.Adam(agent.parameters(), lr=settings.lr)
        self.baseline = RunningBaseline(settings.baseline_momentum)
        self.control = ControlVariate(settings.cv_momentum)
        self.norms = {k: normaliser(method.normalisation, settings.norm_momentum) for k in ("pg", "imit", "innov")}

    def weights(self, t: float) -> tuple[float, float]:
        from .objectives import curriculum_weights

        if self.method.curriculum is not None:
            return curriculum_weights(t, self.method.curriculum)
        return self.settings.fixed_imitation, self.settings.fixed_innovation

    def update(self, prompt, samples, texts, rewards, t, best_human, recent) -> dict:
        from ..common.lm.policy_gradient import reinforce_loss
        from ..common.lm.sampling import continuation_logprobs
        from . import objectives

        continuations = samples.continuations()
        self.agent.train()
        logprobs, mask = continuation_logprobs(self.agent, [prompt] * len(texts), continuations, self.pad_id)
        sequence = (logprobs * mask).sum(dim=1)
        pg = reinforce_loss(sequence, self.baseline.advantages(rewards))
        loss = self.norms["pg"](pg)
        w_imit, w_innov = self.weights(t)
        record = {"pg_loss": float(pg.detach()), "w_imit": 0.0, "w_innov": 0.0}
        if self.method.imitation:
            imit = objectives.weighted_likelihood_loss(sequence, objectives.imitation_weights(texts, best_human))
            loss = loss + w_imit * self.norms["imit"](imit)
            record |= {"imit_loss": float(imit.detach()), "w_imit": w_imit}
        if self.method.innovation:
            innov = objectives.weighted_likelihood_loss(sequence, objectives.innovation_weights(texts, recent))
            loss = loss + w_innov * self.norms["innov"](innov)
            record |= {"innov_loss": float(innov.detach()), "w_innov": w_innov}
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.agent.parameters(), self.settings.clip_norm)
        self.optimizer.step()
        self.agent.eval()
        record["loss"] = float(loss.detach())
        if not math.isfinite(record["loss"]):
            raise FloatingPointError(f"the {self.method} loss is not finite at t = {t:.2f}")
        return record
