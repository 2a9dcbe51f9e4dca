"""Tokenizers for closed task languages, as Hugging Face ``tokenizers`` objects, and the framing of task prompts
in any tokenizer.

A task language (puzzle statements, prompt templates, a DSL) has a vocabulary known from its grammar, so
the tokenizer built here is a lookup table, not a learned merge list: word level (tokens separated by whitespace)
or character level. Wrapped in ``PreTrainedTokenizerFast``, it saves with ``save_pretrained`` beside the model
and loads back with ``AutoTokenizer.from_pretrained`` like any other; at ``paper`` scale a user's own
tokenizer loads from its folder the same way (:func:`load_tokenizer`).

A user's tokenizer (GPT-2's, Qwen's, Llama's) splits task words into several tokens and lacks some of the special
tokens ours has. So the papers frame prompts and answers through :func:`bos_ids` (none where the tokenizer has
no begin token), :func:`sep_ids` (the separator token, else the ids of :data:`SEPARATOR`) and :func:`pad_id`, read
answers back as text, and size generation budgets from tokenized answers (:func:`answer_budget`); a user's
tokenizer must write every task word and read it back unchanged (:func:`check_reads`). With our word-level
tokenizers every one of these gives what the special tokens gave before, so stand-in results are unchanged.
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
    """The text of ``ids``, spaces as written (no clean-up: GPT-2's would turn ``a {} .`` into ``a {}.``)."""
    return tokenizer.decode(list(ids), skip_special_tokens=skip_special_tokens, clean_up_tokenization_spaces=False)


SEPARATOR = "\n"  # ends a prompt in a tokenizer without a separator token (GPT-2's, Qwen's, Llama's)


def bos_ids(tokenizer: PreTrainedTokenizerBase) -> list[int]:
    """What a prompt starts with: the begin token, or nothing in a tokenizer that has none (Qwen's)."""
    return [] if tokenizer.bos_token_id is None else [tokenizer.bos_token_id]


def sep_ids(tokenizer: PreTrainedTokenizerBase) -> list[int]:
    """What ends a prompt before the answer: the separator token, or the tokens of :data:`SEPARATOR`."""
    return [tokenizer.sep_token_id] if tokenizer.sep_token_id is not None else encode(tokenizer, SEPARATOR)


def answer_budget(tokenizer: PreTrainedTokenizerBase, answers: Iterable[str]) -> int:
    """New tokens that hold the longest of ``answers`` and the end-of-text token after it, in this tokenizer."""
    return max(len(encode(tokenizer, text)) for text in answers) + 1


def check_budget(budget: int, need: int, key: str, folder: str | os.PathLike) -> None:
    """A configured generation budget (``key``) that cannot hold an answer in the tokenizer of ``folder`` is one
    line naming both, never answers cut short and scored wrong."""
    if budget < need:
        raise ValueError(
            f"{key}: {budget} new tokens cannot hold the longest answer in the tokenizer of {folder} "
            f"({need} tokens with its end-of-text token); raise {key} to at least {need}"
        )


def load_tokenizer(path: str | os.PathLike) -> PreTrainedTokenizerBase:
    """A saved tokenizer (ours or a user's) from a local folder; a missing folder is one line naming it."""
    if not Path(path).is_dir():
        fail(path, "no such tokenizer folder")
    try:
        return AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as error:
        fail(path, f"not a tokenizer folder ({str(error).splitlines()[0]})")


def check_reads(tok: PreTrainedTokenizerBase, symbols: Iterable[str], folder: str, *, language: str) -> None:
    """A user's tokenizer must write every word of a task language and read it back unchanged (in as many tokens
    as it likes), and have an end-of-text token to end answers with; else one line naming the checkpoint
    ``folder``. Each word is tried first and after a space, as it stands in a prompt."""
    if tok.eos_token_id is None:
        fail(folder, "its tokenizer has no end-of-text (eos) token to end answers with")
    unreadable = []
    for word in sorted(set(symbols)):
        try:
            back = decode(tok, encode(tok, f"{word} {word}")).split()
        except ValueError:
            back = None
        if back != [word, word]:
            unreadable.append(word)
    if unreadable:
        fail(
            folder,
            f"its tokenizer does not read back {len(unreadable)} words of {language} "
            f"(e.g. {' '.join(unreadable[:5])}): they would be garbled in prompts and answers",
        )
