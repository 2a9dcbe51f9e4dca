"""Tiny black boxes and agents built in seconds, untrained (the properties tested hold for any weights)."""

import pytest

from icml26.crl_bpt import blackbox as bb
from icml26.crl_bpt import scenes


@pytest.fixture(scope="session")
def tiny_encoder():
    tok = bb.tokenizer()
    settings = bb.EncoderSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, projection_dim=8)
    return bb.build_encoder(settings, tok, scenes.SIZE, seed=0), tok


@pytest.fixture(scope="session")
def target_images():
    images, labels, _ = scenes.image_set(48, [scenes.Domain("photo", "old", "faded")], seed=3)
    return images, labels


@pytest.fixture(scope="session")
def tiny_agent():
    from icml26.common.lm.model import ModelSettings, build_model
    from icml26.crl_bpt import agent

    tok = agent.tokenizer()
    settings = ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, context=160)
    return build_model(settings, tok, seed=0), tok
