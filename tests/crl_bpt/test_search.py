"""One search per method on a tiny black box and agent: the budget is spent exactly and never exceeded, the RL
methods update the agent and the others do not, the control variate's calls are recorded, runs repeat."""

import copy

import numpy as np
import pytest
import torch

from icml26.crl_bpt import blackbox as bb
from icml26.crl_bpt import grammar, search

SETTINGS = search.SearchSettings(
    budget=30, samples=4, batch_images=8, references=4, best_human=2, memory=8, curve_every=10
)
HUMAN = grammar.human_set(12, seed=0)


def _run(method, tiny_encoder, target_images, tiny_agent, seed=0, settings=SETTINGS):
    model, tok = tiny_encoder
    agent, agent_tok = tiny_agent
    agent = copy.deepcopy(agent)
    classifier = bb.Classifier(model, tok, *target_images)
    box = bb.BlackBox(classifier, bb.CallBudget(settings.budget))
    trace = search.run(
        method,
        box,
        HUMAN,
        settings,
        seed=seed,
        agent=agent,
        tok=agent_tok,
        test_accuracy=lambda t: float(classifier.correct(t).mean()),
        log=lambda line: None,
    )
    return trace, box, agent


@pytest.mark.parametrize("method", sorted(search.METHODS))
def test_every_method_spends_the_budget_exactly(method, tiny_encoder, target_images, tiny_agent):
    trace, box, agent = _run(method, tiny_encoder, target_images, tiny_agent)
    # with the control variate: 4 references, then 5 steps of 4 samples + the baseline, and 1 call left over
    # (a step needs two); never one more
    spent = 29 if search.METHODS[method].control_variate else SETTINGS.budget
    assert box.budget.used == spent and len(trace.calls) == spent
    assert [c["call"] for c in trace.calls] == list(range(1, spent + 1))
    assert [p["calls"] for p in trace.curve] == [10, 20, 30]
    assert trace.best in {c["template"] for c in trace.calls}
    changed = any(not torch.equal(a, b) for a, b in zip(agent.parameters(), tiny_agent[0].parameters()))
    assert changed == (search.METHODS[method].kind == "rl")
    roles = {c["role"] for c in trace.calls}
    expected = {"human"} if method == "human_best" else {"reference", "sample"}
    if search.METHODS[method].control_variate:
        expected.add("baseline")
    assert roles == expected


def test_the_control_variate_calibrates_the_samples_of_its_step(tiny_encoder, target_images, tiny_agent):
    trace, _, _ = _run("reinforce_cv", tiny_encoder, target_images, tiny_agent)
    first = [c for c in trace.calls if c["step"] == 0 and c["role"] == "sample"]
    assert all(c["calibrated"] == pytest.approx(c["reward"]) for c in first)  # no statistics yet: R = r
    later = [c for c in trace.calls if c["role"] == "sample" and c["step"] >= 2]
    steps = {s["step"]: s for s in trace.steps}
    base = {c["step"]: c["reward"] for c in trace.calls if c["role"] == "baseline"}
    assert all(steps[s]["baseline_reward"] == base[s] for s in base)
    assert all("calibrated" in c for c in later)


def test_a_search_repeats_exactly(tiny_encoder, target_images, tiny_agent):
    a, _, _ = _run("crl_bpt_e2", tiny_encoder, target_images, tiny_agent, seed=3)
    b, _, _ = _run("crl_bpt_e2", tiny_encoder, target_images, tiny_agent, seed=3)
    assert a.calls == b.calls and a.best == b.best


def test_the_last_step_shrinks_to_the_budget_left(tiny_encoder, target_images, tiny_agent):
    settings = search.SearchSettings(**{**SETTINGS.__dict__, "budget": 17, "curve_every": 17})
    trace, box, _ = _run("reinforce_cv", tiny_encoder, target_images, tiny_agent, settings=settings)
    assert box.budget.used == 17  # 4 references, then 4 + 1 per step: the last step samples 2
    assert [len([c for c in trace.calls if c["step"] == s and c["role"] == "sample"]) for s in range(3)] == [4, 4, 2]


def test_pool_ranks_by_mean_accuracy_then_margin():
    pool = search.Pool()
    pool.add("a {} .", 0.5, 0.1)
    pool.add("a {} .", 0.7, 0.1)
    pool.add("itap of a {} .", 0.6, 0.3)
    pool.add("no slot .", 1.0, 1.0)
    assert pool.ranked() == ["itap of a {} .", "a {} ."]  # tie at 0.6: the higher margin first; no slot: never
    assert pool.top(1) == [("itap of a {} .", 0.6)]
    assert np.isclose(pool.top(2)[1][1], 0.6)


def test_a_reinforce_step_raises_the_better_template_s_probability(tiny_agent):
    """One update of the plain REINFORCE learner with the better reward on one sample: that sample's sequence
    log-probability rises and the others' fall (the first batch's advantages are centred). A step with the sign
    flipped, or no step, fails this (issue 55: the old tests checked only that the agent changed)."""
    from icml26.common.lm.sampling import continuation_logprobs
    from icml26.crl_bpt.agent import context

    agent, tok = copy.deepcopy(tiny_agent[0]), tiny_agent[1]
    prompt = context(tok, [(t, 0.5) for t in HUMAN[:2]])
    samples = search._sample(agent, tok, prompt, 4, SETTINGS, seed=1)
    texts = search._templates(tok, samples)
    best = 0
    others = [i for i, t in enumerate(texts) if samples.continuations()[i] != samples.continuations()[best]]
    assert others, texts
    rewards = torch.tensor([1.0 if i == best else 0.0 for i in range(len(texts))])

    def logprobs():
        with torch.no_grad():
            lp, mask = continuation_logprobs(agent, [prompt] * len(texts), samples.continuations(), tok.pad_token_id)
        return (lp * mask).sum(dim=1)

    before = logprobs()
    learner = search._Learner(search.METHODS["reinforce"], agent, SETTINGS, tok.pad_token_id)
    learner.update(prompt, samples, texts, rewards, 0.0, HUMAN[:2], [])
    after = logprobs()
    assert after[best] > before[best]
    assert (after[others] - before[others]).mean() < 0
