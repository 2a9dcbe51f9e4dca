"""Examples encode to fixed shapes and decode back."""

import numpy as np
import pytest

from icml26.focus_dllm import tasks
from icml26.focus_dllm.encoding import Codec


def test_sequences_have_one_shape_and_answers_round_trip():
    codec = Codec(block_size=8, prompt_blocks=2, answer_blocks=2)
    rng = np.random.default_rng(0)
    examples = [tasks.draw(task, rng, 4) for task in tasks.TASKS]
    batch = codec.batch(examples)
    assert batch.shape == (5, 32) and codec.batch(examples, "prompt").shape == (5, 16)
    for example, row in zip(examples, batch):
        assert codec.answer(row[16:].tolist()) == list(example.answer)
        assert tasks.correct(example, codec.answer(row[16:].tolist()))
    assert codec.mask_id == len(tasks.vocabulary()) - 1


def test_an_example_too_long_is_named():
    codec = Codec(block_size=4, prompt_blocks=1, answer_blocks=1)
    with pytest.raises(ValueError, match="a copy example of prompt 7 and answer 6 tokens does not fit 4 prompt"):
        codec.sequence(tasks.draw("copy", np.random.default_rng(0), 6))
