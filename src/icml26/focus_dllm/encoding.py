"""Examples as fixed-shape token sequences: the prompt left-padded to ``prompt_blocks`` blocks, the answer
right-padded with ``<eos>`` to ``answer_blocks`` blocks, so every sequence of a run has one length and a batch
decodes block by block in lockstep. The vocabulary is closed and every token is a whole symbol, so the codec is
a dict (ids in the order of :func:`.tasks.vocabulary`, the mask last); it keeps ``transformers`` out of these
jobs (the LM toolkit's ``task_tokenizer`` is the same table as a Hugging Face object)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from .tasks import MASK, SPECIAL, Example, correct, vocabulary


class Codec:
    """Token ids of the task vocabulary (ids: the order of :func:`.tasks.vocabulary`, the mask last)."""

    def __init__(self, block_size: int, prompt_blocks: int, answer_blocks: int):
        self.words = vocabulary()
        self.ids = {w: i for i, w in enumerate(self.words)}
        self.block_size, self.prompt_blocks, self.answer_blocks = block_size, prompt_blocks, answer_blocks

    @property
    def mask_id(self) -> int:
        return self.ids[MASK]

    @property
    def prompt_length(self) -> int:
        return self.prompt_blocks * self.block_size

    @property
    def answer_length(self) -> int:
        return self.answer_blocks * self.block_size

    def _fit(self, example: Example) -> None:
        if len(example.prompt) > self.prompt_length or len(example.answer) + 1 > self.answer_length:
            raise ValueError(
                f"a {example.task} example of prompt {len(example.prompt)} and answer {len(example.answer)} tokens "
                f"does not fit {self.prompt_length} prompt and {self.answer_length} answer positions (with <eos>)"
            )

    def prompt(self, example: Example) -> list[int]:
        self._fit(example)
        pad = [self.ids[SPECIAL[0]]] * (self.prompt_length - len(example.prompt))
        return pad + [self.ids[w] for w in example.prompt]

    def sequence(self, example: Example) -> list[int]:
        eos = self.ids["<eos>"]
        answer = [self.ids[w] for w in example.answer]
        return self.prompt(example) + answer + [eos] * (self.answer_length - len(answer))

    def batch(self, examples: Sequence[Example], part: str = "sequence") -> torch.Tensor:
        encode = self.sequence if part == "sequence" else self.prompt
        return torch.tensor(np.asarray([encode(e) for e in examples]), dtype=torch.long)

    def prompts(self, examples: Sequence[Example]) -> tuple[torch.Tensor, None]:
        """The decoder's prompts ``(ids, valid)``: whole blocks already, every token real (valid None)."""
        return self.batch(examples, "prompt"), None

    def correct(self, example: Example, ids: Sequence[int]) -> bool:
        return correct(example, self.answer(ids))

    def answer_span(self, example: Example, ids: Sequence[int]) -> int:
        """The answer's positions (later ones are ``<eos>`` padding): the reference answer's length."""
        return len(example.answer)

    def answer(self, ids: Sequence[int]) -> list[str]:
        """Generated ids up to the first ``<eos>`` as words (a mask left in is kept, and is never right)."""
        words = [self.words[int(i)] for i in ids]
        return words[: words.index("<eos>")] if "<eos>" in words else words
