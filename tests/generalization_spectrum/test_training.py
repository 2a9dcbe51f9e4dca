"""A learner's run: checkpoints scored where asked, SFT memorising its D0 references, RFT without a success
leaving the model as it was."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from icml26.generalization_spectrum import evaluate, prompts, training, variants, world


@pytest.fixture(scope="module")
def setup():
    from icml26.common.lm.model import ModelSettings, build_model

    tok = prompts.tokenizer()
    rng = np.random.default_rng(0)
    items = [
        evaluate.Item(
            i, "D0", variants.Problem(s, variants.example_inputs(2, rng), "A", "A"), world.hidden_tests(s, 4, rng)
        )
        for i, s in enumerate(variants.seeds(3, rng))
    ]
    return (
        tok,
        items,
        lambda: build_model(
            ModelSettings(hidden_size=32, layers=1, heads=2, intermediate_size=64, context=160), tok, 0
        ),
    )


def _score(tok, items):
    return lambda model, checkpoint: evaluate.score(
        model, tok, items, samples=4, max_new_tokens=16, temperature=0.05, seed=checkpoint
    )


def test_sft_memorises_its_references_and_scores_exactly_the_asked_checkpoints(setup):
    tok, items, build = setup
    settings = training.RunSettings(checkpoints=(0, 10, 60), lr=1e-2, batch_size=3)
    rows, progress = training.run(
        "sft", build(), tok, items, settings, seed=0, score=_score(tok, items), log=lambda line: None
    )
    assert sorted({r["checkpoint"] for r in rows}) == [0, 10, 60] and len(progress) == 60
    d0 = {c: np.mean([r["correct"] / r["samples"] for r in rows if r["checkpoint"] == c]) for c in (0, 60)}
    assert d0[0] == 0.0 and d0[60] == 1.0  # three programs recalled from their statements (near-greedy)
    assert progress[-1]["value"] < progress[0]["value"]  # the loss fell


def test_rft_without_a_correct_sample_does_not_move_the_model(setup, monkeypatch):
    tok, items, build = setup
    model = build()
    before = [p.detach().clone() for p in model.parameters()]
    monkeypatch.setattr(training.learners, "rft_examples", lambda *a, **k: [])
    _, progress = training.run(
        "rft",
        model,
        tok,
        items,
        training.RunSettings(checkpoints=(0, 4), lr=1e-2),
        seed=0,
        score=lambda m, c: [],
        log=lambda line: None,
    )
    assert all(np.isnan(row["value"]) for row in progress)
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))
    with pytest.raises(ValueError, match="learner must be one of"):
        training.run(
            "dpo",
            model,
            tok,
            items,
            training.RunSettings(checkpoints=(0, 1), lr=1e-2),
            seed=0,
            score=lambda m, c: [],
            log=lambda line: None,
        )
