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


WORDS = ["A<B", "pos(E)=2", "OK", "malformed", "A", "B", "C", "D", "E", "feedback", "3+4", "low", "high"]


@pytest.fixture(scope="module", params=["gpt2", "qwen2"])
def real_format(request):
    """A byte-level BPE tokenizer with GPT-2's or Qwen2.5's special-token conventions, few merges: task words
    split into several tokens (icml26.common.lm.replicas)."""
    from icml26.common.lm.replicas import bpe_tokenizer

    return bpe_tokenizer(WORDS, request.param)


def test_a_real_format_tokenizer_splits_task_words_and_reads_them_back(real_format):
    from icml26.common.lm.tokenizer import check_reads

    assert max(len(encode(real_format, w)) for w in WORDS) >= 3  # several tokens per word: the case to handle
    text = " ".join(WORDS)
    assert decode(real_format, encode(real_format, text)) == text
    check_reads(real_format, WORDS, "/models/mine", language="the puzzles")  # no error


def test_prompts_are_framed_with_what_each_tokenizer_has():
    from icml26.common.lm.replicas import bpe_tokenizer
    from icml26.common.lm.tokenizer import SEPARATOR, bos_ids, pad_id, sep_ids

    ours, gpt2, qwen = task_tokenizer(WORDS), bpe_tokenizer(WORDS, "gpt2"), bpe_tokenizer(WORDS, "qwen2")
    assert (bos_ids(ours), sep_ids(ours), pad_id(ours)) == ([1], [3], 0)  # the special tokens, as before
    assert bos_ids(gpt2) == [gpt2.eos_token_id] and pad_id(gpt2) == gpt2.eos_token_id  # <|endoftext|> for all
    assert bos_ids(qwen) == [] and pad_id(qwen) == qwen.convert_tokens_to_ids("<|endoftext|>")
    for tok in (gpt2, qwen):
        assert tok.sep_token_id is None and decode(tok, sep_ids(tok)) == SEPARATOR


def test_answer_budget_counts_the_tokenizers_tokens_and_a_short_budget_is_one_line():
    from icml26.common.lm.replicas import bpe_tokenizer
    from icml26.common.lm.tokenizer import answer_budget, check_budget

    answers = ["A<B pos(E)=2", "OK"]
    assert answer_budget(task_tokenizer(WORDS), answers) == 3  # two words and <eos>
    gpt2 = bpe_tokenizer(WORDS, "gpt2")
    need = len(encode(gpt2, "A<B pos(E)=2")) + 1
    assert answer_budget(gpt2, answers) == need > 3
    check_budget(need, need, "evaluation.max_new_tokens", "/models/mine")
    with pytest.raises(
        ValueError,
        match=rf"^evaluation.max_new_tokens: 3 new tokens cannot hold the longest answer in the tokenizer of "
        rf"/models/mine \({need} tokens with its end-of-text token\); raise evaluation.max_new_tokens to at least "
        rf"{need}$",
    ):
        check_budget(3, need, "evaluation.max_new_tokens", "/models/mine")


def test_a_tokenizer_that_cannot_read_a_task_language_back_is_named_by_its_folder():
    from tokenizers import normalizers

    from icml26.common.lm.tokenizer import check_reads

    tok = task_tokenizer({"A", "B", "OK"})
    check_reads(tok, {"A", "OK"}, "/models/mine", language="the puzzles")
    with pytest.raises(
        SourceError, match=r"^/models/mine: its tokenizer does not read back 2 words of the puzzles \(e.g. C D\)"
    ):
        check_reads(tok, {"A", "C", "D"}, "/models/mine", language="the puzzles")
    from icml26.common.lm.replicas import bpe_tokenizer

    lossy = bpe_tokenizer(WORDS, "gpt2")
    lossy.backend_tokenizer.normalizer = normalizers.Lowercase()  # writes "ok" for "OK"
    with pytest.raises(SourceError, match=r"does not read back .* words of the puzzles \(e.g. A A<B B C D\)"):
        check_reads(lossy, WORDS, "/models/mine", language="the puzzles")
    tok.eos_token = None
    with pytest.raises(SourceError, match="no end-of-text"):
        check_reads(tok, {"A"}, "/models/mine", language="the puzzles")
