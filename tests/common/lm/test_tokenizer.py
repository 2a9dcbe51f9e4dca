"""Task tokenizers: exact round trips on the three LM papers' kinds of language, saving and loading."""

import pytest
from transformers import AutoTokenizer

from icml26.common.lm.tokenizer import SPECIAL_TOKENS, decode, encode, load_tokenizer, task_tokenizer
from icml26.common.sources import SourceError

# One sentence of each task language the LM papers use (their own tests round-trip their full grammars):
LANGUAGES = {
    # text_feedback_rl: permutation puzzles, answers and critiques (word level)
    "puzzle": ("word", ["A < B ; pos ( E ) = 2 ; C > D", "C A E B D", "violated : A < B", "OK"]),
    # crl_bpt: prompt templates around a class slot (word level)
    "templates": ("word", ["a photo of a {} .", "a blurry sketch of the {} , in watercolour style ."]),
    # generalization_spectrum: narratives and programs in a prefix and a postfix DSL (character level)
    "dsl": ("char", ["(compose (map +3) sort)", "3 + map sort compose", "keep the even ones, then sort."]),
}


@pytest.mark.parametrize("name", LANGUAGES)
def test_every_sentence_of_a_task_language_round_trips(name):
    level, sentences = LANGUAGES[name]
    symbols = {s for text in sentences for s in (text.split() if level == "word" else text)}
    tokenizer = task_tokenizer(symbols, level)
    for text in sentences:
        ids = encode(tokenizer, text)
        assert decode(tokenizer, ids) == text
        assert len(ids) == (len(text.split()) if level == "word" else len(text))


def test_ids_do_not_depend_on_the_order_symbols_are_listed():
    a, b = task_tokenizer(["x", "y", "z"]), task_tokenizer(["z", "x", "y", "x"])
    assert a.get_vocab() == b.get_vocab()
    assert [a.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS.values()] == list(range(len(SPECIAL_TOKENS)))


def test_special_tokens_are_single_tokens_even_at_character_level():
    tokenizer = task_tokenizer("ab", "char")
    ids = encode(tokenizer, "<bos>ab<sep>ba<eos>")
    assert ids[0] == tokenizer.bos_token_id and ids[3] == tokenizer.sep_token_id and ids[-1] == tokenizer.eos_token_id
    assert decode(tokenizer, ids) == "abba" and len(ids) == 7


def test_a_symbol_outside_the_vocabulary_is_an_error_naming_it():
    tokenizer = task_tokenizer(["A", "B"])
    with pytest.raises(ValueError, match=r"not in the tokenizer's vocabulary: \['C'\]"):
        encode(tokenizer, "A C B")
    with pytest.raises(ValueError, match="not a char-level symbol"):
        task_tokenizer(["ab"], "char")


def test_saved_tokenizer_loads_back_through_auto_tokenizer(tmp_path):
    tokenizer = task_tokenizer(["A", "B", "<", ">"])
    tokenizer.save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(str(tmp_path), local_files_only=True)
    assert loaded.get_vocab() == tokenizer.get_vocab() and loaded.eos_token == "<eos>"
    assert encode(loaded, "A < B") == encode(tokenizer, "A < B")
    assert load_tokenizer(tmp_path).get_vocab() == tokenizer.get_vocab()
    with pytest.raises(SourceError, match=r"nowhere: no such tokenizer folder$"):
        load_tokenizer(tmp_path / "nowhere")


def test_a_tokenizer_that_does_not_cover_a_task_language_is_named_by_its_folder():
    from icml26.common.lm.tokenizer import check_covers

    tok = task_tokenizer({"A", "B", "OK"})
    check_covers(tok, {"A", "OK"}, "/models/mine", language="the puzzles", writer="make_tokenizer()")
    with pytest.raises(
        SourceError,
        match=r"^/models/mine: .* no token for 2 words of the puzzles \(e.g. C D\); "
        r"write it with make_tokenizer\(\)$",
    ):
        check_covers(tok, {"A", "C", "D"}, "/models/mine", language="the puzzles", writer="make_tokenizer()")
    tok.sep_token = None
    with pytest.raises(SourceError, match="lacks one of the bos, eos, sep and pad tokens"):
        check_covers(tok, {"A"}, "/models/mine", language="the puzzles", writer="make_tokenizer()")
