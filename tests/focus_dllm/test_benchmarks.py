"""The paper's evaluation sets read from files in the hub's formats (GSM8K parquet, MATH-500 jsonl, ShareGPT json),
their strict graders, the chat prompts of an SDAR tokenizer, and one-line errors for files of another format."""

import json

import pandas as pd
import pytest
import torch

from icml26.common.lm import replicas
from icml26.common.sources import SourceError
from icml26.focus_dllm import benchmarks
from icml26.focus_dllm.benchmarks import ChatPrompts, Problem, correct, last_boxed, read, write_replica


def test_the_replica_sets_read_as_the_hub_ships_them(tmp_path):
    gsm8k = read("gsm8k", write_replica("openai/gsm8k", tmp_path / "gsm8k"), count=100, seed=0)
    math = read("math", write_replica("HuggingFaceH4/MATH-500", tmp_path / "math500"), count=100, seed=0)
    assert len(gsm8k) == len(math) == benchmarks.REPLICA_ROWS
    assert gsm8k[0] == Problem("gsm8k", gsm8k[0].prompt, "5") and gsm8k[0].prompt.endswith(benchmarks.INSTRUCTION)
    assert math[0].answer == "5" and "$2 + 3$" in math[0].prompt


def test_a_seed_draws_which_problems_without_replacement(tmp_path):
    folder = write_replica("openai/gsm8k", tmp_path / "gsm8k")
    first, again, other = (read("gsm8k", folder, 3, seed) for seed in (0, 0, 1))
    assert first == again and len({p.prompt for p in first}) == 3
    assert [p.prompt for p in first] != [p.prompt for p in other]


def test_math_without_an_answer_column_takes_the_last_box_of_the_solution(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps({"problem": "p", "solution": "so $\\boxed{1}$ then $\\boxed{\\frac{1}{2}}$"}) + "\n")
    assert read("math", path, 5, 0)[0].answer == "\\frac{1}{2}"


def test_sharegpt_prompts_are_first_human_turns_without_a_reference(tmp_path):
    path = tmp_path / "sharegpt.json"
    rows = [
        {"conversations": [{"from": "human", "value": "Write a poem"}, {"from": "gpt", "value": "..."}]},
        {"conversations": [{"from": "gpt", "value": "no human turn"}]},
    ]
    path.write_text(json.dumps(rows))
    assert read("sharegpt", path, 5, 0) == [Problem("sharegpt", "Write a poem", None)]
    assert correct(Problem("sharegpt", "Write a poem", None), "anything") is None


@pytest.mark.parametrize(
    ("task", "gold", "generation", "right"),
    [
        ("gsm8k", "1200", "so the total is \\boxed{1,200}.", True),
        ("gsm8k", "18", "16 - 3 - 4 = 9 eggs, 9 * 2 = 18", True),  # no box: the last number
        ("gsm8k", "18", "the answer is 18, I think, or 17", False),
        ("gsm8k", "7", "\\boxed{7.0}", True),
        ("math", "\\frac{1}{2}", "thus $\\boxed{\\dfrac{1}{2}}$", True),
        ("math", "(3, 4)", "\\boxed{\\left( 3,4 \\right)}", True),
        ("math", "\\frac{1}{2}", "\\boxed{0.5}", False),  # strict: no numeric equivalence for MATH
        ("math", "5", "the answer is 5", False),  # MATH needs the box
    ],
)
def test_the_strict_graders(task, gold, generation, right):
    assert correct(Problem(task, "q", gold), generation) is right


def test_last_boxed_balances_braces():
    assert last_boxed("\\boxed{a} and \\boxed{\\frac{x}{\\sqrt{2}}}") == "\\frac{x}{\\sqrt{2}}"
    assert last_boxed("\\boxed{unclosed") is None and last_boxed("none") is None


def test_a_file_of_another_format_is_one_line_naming_it(tmp_path):
    wrong = tmp_path / "wrong.parquet"
    pd.DataFrame({"problem": ["p"], "solution": ["s"]}).to_parquet(wrong)
    with pytest.raises(SourceError, match="wrong.parquet: a gsm8k row without question, answer"):
        read("gsm8k", wrong, 5, 0)
    no_marker = tmp_path / "no_marker.jsonl"
    no_marker.write_text(json.dumps({"question": "q", "answer": "7"}) + "\n")
    with pytest.raises(SourceError, match="no_marker.jsonl: a gsm8k answer without '#### <number>'"):
        read("gsm8k", no_marker, 5, 0)
    with pytest.raises(SourceError, match="empty: holds no math file"):
        (tmp_path / "empty").mkdir()
        read("math", tmp_path / "empty", 5, 0)
    with pytest.raises(SourceError, match="absent: no such gsm8k file or folder .*make fetch PAPER=focus_dllm"):
        read("gsm8k", tmp_path / "absent", 5, 0)
    garbage = tmp_path / "test.jsonl"
    garbage.write_text("{not json\n")
    with pytest.raises(SourceError, match="test.jsonl: not readable"):
        read("math", garbage, 5, 0)


def test_chat_prompts_pad_left_to_whole_blocks_and_read_up_to_the_end_of_turn(tmp_path):
    tokenizer = replicas.bpe_tokenizer(["Compute $2 + 3$.", "\\boxed{5}"], "sdar")
    tokenizer.save_pretrained(tmp_path)
    prompts = ChatPrompts(tmp_path, block_size=8)
    problems = [Problem("math", "Compute $2 + 3$.", "5"), Problem("math", "Hi", "5")]
    ids, valid = prompts.prompts(problems)
    lengths = [len(prompts.encode(p)) for p in problems]
    assert ids.shape[1] % 8 == 0 and ids.shape[1] - 8 < max(lengths) <= ids.shape[1]
    assert valid.sum(dim=1).tolist() == lengths and bool(valid[:, -1].all())  # real tokens at the right
    text = tokenizer.decode(ids[0][valid[0]])
    assert text.startswith("<|im_start|>user\nCompute") and text.endswith("<|im_start|>assistant\n")
    answer = tokenizer.encode("so \\boxed{5}") + [tokenizer.eos_token_id] + tokenizer.encode(" \\boxed{4}")
    assert prompts.answer_span(problems[0], answer) == len(tokenizer.encode("so \\boxed{5}")) + 1
    assert prompts.correct(problems[0], answer)  # what follows the end of turn is not read
    assert not prompts.correct(problems[0], torch.tensor(tokenizer.encode("\\boxed{4}")).tolist())
