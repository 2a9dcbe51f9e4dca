"""Tokenizers for closed task languages, as Hugging Face ``tokenizers`` objects.

A task language (puzzle statements, prompt templates, a DSL) has a vocabulary known from its grammar, so
the tokenizer is a lookup table, not a learned merge list: word level (tokens separated by whitespace) or
character level. Wrapped in ``PreTrainedTokenizerFast``, it saves with ``save_pretrained`` beside the model
and loads back with ``AutoTokenizer.from_pretrained`` like any other; at ``paper`` scale a user's own
tokenizer loads from its folder the same way (:func:`load_tokenizer`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
from transformers import AutoTokenizer, PreTrainedTokenizerBase, PreTrainedTokenizerFast

from ..sources import fail

SPECIAL_TOKENS = {  # the role name transformers uses -> its text; ids 0..5 in this order
    "pad_token": "<pad>",
    "bos_token": "<bos>",
    "eos_token": "<eos>",
    "sep_token": "<sep>",
    "mask_token": "<mask>",
    "unk_token": "<unk>",
}
LEVELS = ("word", "char")


def task_tokenizer(symbols: Iterable[str], level: str = "word") -> PreTrainedTokenizerFast:
    """The tokenizer of a task language whose words (``level="word"``) or characters (``"char"``) are ``symbols``.

    Ids: the special tokens first, then the symbols sorted, so the ids depend on the set of symbols only,
    not on the order a grammar happens to list them. Word level decodes by joining with single spaces;
    character level by concatenating (a space is then a symbol like any other).
    """
    if level not in LEVELS:
        raise ValueError(f"tokenizer level must be one of {LEVELS}, got {level!r}")
    symbols = sorted(set(symbols))
    specials = list(SPECIAL_TOKENS.values())
    bad = [
        s
        for s in symbols
        if s in specials
        or not s
        or (level == "char" and len(s) != 1)
        or (level == "word" and any(c.isspace() for c in s))
    ]
    if bad:
        raise ValueError(f"not a {level}-level symbol: {bad[:5]}")
    vocab = {token: i for i, token in enumerate([*specials, *symbols])}
    core = Tokenizer(models.WordLevel(vocab, unk_token=SPECIAL_TOKENS["unk_token"]))
    if level == "word":
        core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    else:
        core.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")
        core.decoder = decoders.Fuse()
    core.add_special_tokens(specials)
    return PreTrainedTokenizerFast(tokenizer_object=core, clean_up_tokenization_spaces=False, **SPECIAL_TOKENS)


def encode(tokenizer: PreTrainedTokenizerBase, text: str) -> list[int]:
    """Ids of ``text`` (no special tokens added). A symbol outside a task vocabulary is an error naming it:
    the language is closed, so an unknown symbol is a bug in the grammar, never an ``<unk>`` to learn."""
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    unk = tokenizer.unk_token_id
    if unk is not None and unk in ids and SPECIAL_TOKENS["unk_token"] not in text:
        pieces = tokenizer.backend_tokenizer.pre_tokenizer.pre_tokenize_str(text)
        unknown = sorted({p for p, _ in pieces if tokenizer.convert_tokens_to_ids(p) == unk})
        raise ValueError(f"not in the tokenizer's vocabulary: {unknown[:5]} (in {text[:60]!r})")
    return ids


def pad_id(tokenizer: PreTrainedTokenizerBase) -> int:
    """The id to pad with: the pad token, or the end-of-text token of tokenizers that have none (GPT-2's, Llama's).
    Padding is positional everywhere in the toolkit (attention masks, never ``ids == pad``), so the two may share
    an id."""
    if tokenizer.pad_token_id is not None:
        return tokenizer.pad_token_id
    if tokenizer.eos_token_id is None:
        raise ValueError("the tokenizer has neither a pad nor an end-of-text token")
    return tokenizer.eos_token_id


def decode(tokenizer: PreTrainedTokenizerBase, ids: Iterable[int], skip_special_tokens: bool = True) -> str:
    return tokenizer.decode(list(ids), skip_special_tokens=skip_special_tokens)


def load_tokenizer(path: str | os.PathLike) -> PreTrainedTokenizerBase:
    """A saved tokenizer (ours or a user's) from a local folder; a missing folder is one line naming it."""
    if not Path(path).is_dir():
        fail(path, "no such tokenizer folder")
    try:
        return AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as error:
        fail(path, f"not a tokenizer folder ({str(error).splitlines()[0]})")


PROMPT_ROLES = ("bos", "eos", "sep", "pad")  # the special tokens the task prompts are built from


def check_covers(
    tok: PreTrainedTokenizerBase, symbols: Iterable[str], folder: str, *, language: str, writer: str
) -> None:
    """A user's tokenizer must give every word of a task language a token of its own and have the special
    tokens the prompts use; else one line naming the checkpoint ``folder`` (an unknown word would become
    ``<unk>`` and the task would be unreadable). ``writer`` names the function that writes a tokenizer that
    covers ``language``."""
    missing = sorted(s for s in symbols if tok.convert_tokens_to_ids(s) in (None, tok.unk_token_id))
    if missing:
        fail(
            folder,
            f"its tokenizer has no token for {len(missing)} words of {language} "
            f"(e.g. {' '.join(missing[:5])}); write it with {writer}",
        )
    if any(getattr(tok, f"{role}_token_id") is None for role in PROMPT_ROLES):
        fail(folder, "its tokenizer lacks one of the bos, eos, sep and pad tokens the prompts use")
