"""A tiny tokenizer and model for the toolkit's tests (sizes far below any paper's)."""

import pytest

pytest.importorskip("transformers")

from icml26.common.lm.model import ModelSettings, build_model
from icml26.common.lm.tokenizer import task_tokenizer

DIGITS = [str(d) for d in range(6)]
TINY = ModelSettings(hidden_size=32, layers=2, heads=4, intermediate_size=64, context=32)


@pytest.fixture(scope="module")
def tokenizer():
    return task_tokenizer(DIGITS)


@pytest.fixture(scope="module")
def model(tokenizer):
    return build_model(TINY, tokenizer, seed=0)
