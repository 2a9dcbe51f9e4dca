"""Tiny models and tokenizers in exactly the formats of the papers' real ones, for tests and ``make gpu-check``.

The papers' own models (GPT-2 small, Qwen2.5 instruct models, ...) cannot be downloaded here, so their code paths
are proved on replicas written the way the real folders are: ``save_pretrained`` with safetensors, a ``config.json``
naming the real ``model_type``, and a byte-level BPE tokenizer (``tokenizer.json`` + ``tokenizer_config.json``)
with the real special-token conventions. A replica goes through :func:`icml26.common.lm.model.load_model` and
:func:`icml26.common.lm.tokenizer.load_tokenizer` exactly as a fetched model does; only its sizes and its
(random) weights differ.

- GPT-2: ``<|endoftext|>`` is begin, end and unknown token; no pad, no separator.
- Qwen2 (Qwen2.5): no begin token; ``<|im_end|>`` ends an answer; ``<|endoftext|>`` pads.

The merges are learnt here from the task's own words on a small vocabulary, so task words split into several
tokens, as they do in the real tokenizers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import torch

FLAVOURS = ("gpt2", "qwen2")
BYTES = 256


def bpe_tokenizer(corpus: Iterable[str], flavour: str = "gpt2", merges: int = 40):
    """A byte-level BPE tokenizer of ``flavour`` with ``merges`` merges learnt from ``corpus`` (few, so that
    words split into several tokens), wrapped in the Hugging Face class the real model ships with."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    if flavour not in FLAVOURS:
        raise ValueError(f"flavour must be one of {FLAVOURS}, got {flavour!r}")
    specials = ["<|endoftext|>"] if flavour == "gpt2" else ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=BYTES + len(specials) + merges,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(sorted(set(corpus)), trainer)
    if flavour == "gpt2":
        from transformers import GPT2TokenizerFast

        return GPT2TokenizerFast(
            tokenizer_object=core, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>"
        )
    from transformers import Qwen2TokenizerFast

    return Qwen2TokenizerFast(
        tokenizer_object=core, bos_token=None, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None
    )


def _save(model, tokenizer, folder: str | os.PathLike) -> Path:
    folder = Path(folder)
    model.save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    return folder


def gpt2(folder: str | os.PathLike, tokenizer, *, layers: int = 2, width: int = 32, heads: int = 2, context: int = 512):
    """A ``GPT2LMHeadModel`` folder (random weights under seed 0) with ``tokenizer``, as GPT-2 small's is laid out."""
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=context,
        n_embd=width,
        n_layer=layers,
        n_head=heads,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        return _save(GPT2LMHeadModel(config), tokenizer, folder)


def qwen2(
    folder: str | os.PathLike, tokenizer, *, layers: int = 2, width: int = 32, heads: int = 2, context: int = 512
):
    """A ``Qwen2ForCausalLM`` folder (the Qwen2.5 architecture: grouped-query attention, tied embeddings at small
    sizes; random weights under seed 0) with ``tokenizer``."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=width,
        intermediate_size=2 * width,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=1,
        max_position_embeddings=context,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        return _save(Qwen2ForCausalLM(config), tokenizer, folder)


def causal_lm(folder: str | os.PathLike, corpus: Iterable[str], flavour: str = "gpt2", **sizes) -> Path:
    """A tiny causal LM of ``flavour`` whose tokenizer learnt its merges from ``corpus``: a user's checkpoint folder
    in miniature."""
    tokenizer = bpe_tokenizer(corpus, flavour)
    return (gpt2 if flavour == "gpt2" else qwen2)(folder, tokenizer, **sizes)
