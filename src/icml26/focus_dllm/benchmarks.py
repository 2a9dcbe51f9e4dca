"""The paper's evaluation sets, read from files (``paper`` scale): GSM8K and MATH for quality, ShareGPT prompts
for throughput alone, as the paper evaluates SDAR and LLaDA 2.0.

Formats, as the hub ships them (``make fetch PAPER=focus_dllm``) or as a user has them:

- ``gsm8k``: rows with ``question`` and ``answer`` (the worked answer ending ``#### <number>``), in ``.parquet``
  (``openai/gsm8k``'s ``main/test-*.parquet``) or ``.jsonl`` (the original release's ``test.jsonl``);
- ``math``: rows with ``problem`` and ``answer`` (``HuggingFaceH4/MATH-500``'s ``test.jsonl``), or ``solution``
  with a ``\\boxed{...}`` answer (the original MATH);
- ``sharegpt``: a JSON list of ``{"conversations": [{"from": "human", "value": ...}, ...]}``; the first human turn is
  the prompt, and there is no reference answer (no accuracy: a throughput prompt).

A path is a file or a folder holding files of its format. Each problem is asked as SDAR's own evaluation asks it
(the question, then "Please reason step by step, and put your final answer within \\boxed{}."). Grading is ours and
strict: the last ``\\boxed{}`` of the generation (for GSM8K, else its last number) must equal the reference, as a
number for GSM8K, as a normalised string for MATH (spaces, ``\\left``/``\\right``, ``\\dfrac``/``\\tfrac`` and a few
LaTeX spacings removed). The paper grades with OpenCompass, whose MATH equivalence is looser; a strict grader can
only lower both decoders' accuracy alike, and the claim compares FOCUS with dense decoding under one grader.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TASKS = ("gsm8k", "math", "sharegpt")
SUFFIXES = {"gsm8k": (".parquet", ".jsonl"), "math": (".jsonl", ".parquet"), "sharegpt": (".json",)}
END_TOKENS = ("<|endoftext|>", "<|im_end|>", "<|role_end|>")  # end of text; Qwen's and Bailing's end of turn
INSTRUCTION = "Please reason step by step, and put your final answer within \\boxed{}."


@dataclass(frozen=True)
class Problem:
    task: str
    prompt: str  # the user turn, before the chat template
    answer: str | None  # the reference; None: none (ShareGPT)


def _files(task: str, path: Path) -> list[Path]:
    from ..common.sources import fail

    if path.is_file():
        return [path]
    if not path.is_dir():
        fail(path, f"no such {task} file or folder (run `make fetch PAPER=focus_dllm`, or give a local path)")
    found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES[task] and p.is_file())
    if task == "gsm8k":
        found = [p for p in found if "train" not in p.name] or found  # the test split, where both are present
    if not found:
        fail(path, f"holds no {task} file ({' or '.join(SUFFIXES[task])})")
    return found


def _rows(path: Path) -> list[dict]:
    import pandas as pd

    from ..common.sources import fail

    try:
        if path.suffix == ".parquet":
            return pd.read_parquet(path).to_dict("records")
        if path.suffix == ".jsonl":
            return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        rows = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        fail(path, f"not readable ({type(error).__name__}: {str(error).splitlines()[0][:120]})")
    if not isinstance(rows, list):
        fail(path, "expected a JSON list of conversations")
    return rows


def _problem(task: str, row: dict, path: Path) -> Problem | None:
    from ..common.sources import fail

    def need(*keys):
        missing = [k for k in keys if not isinstance(row.get(k), str)]
        if missing:
            fail(path, f"a {task} row without {', '.join(missing)} (expected {', '.join(keys)})")

    if task == "gsm8k":
        need("question", "answer")
        if "####" not in row["answer"]:
            fail(path, "a gsm8k answer without '#### <number>'")
        gold = row["answer"].rsplit("####", 1)[1].strip().replace(",", "")
        return Problem(task, f"{row['question']}\n{INSTRUCTION}", gold)
    if task == "math":
        if not isinstance(row.get("answer"), str):
            need("problem", "solution")
            gold = last_boxed(row["solution"])
            if gold is None:
                fail(path, "a math solution without \\boxed{...}")
        else:
            need("problem")
            gold = row["answer"]
        return Problem(task, f"{row['problem']}\n{INSTRUCTION}", gold)
    turns = row.get("conversations") if isinstance(row, dict) else None
    if not isinstance(turns, list):
        fail(path, "a sharegpt row without conversations")
    first = next((t.get("value") for t in turns if isinstance(t, dict) and t.get("from") == "human"), None)
    return Problem(task, first, None) if isinstance(first, str) and first.strip() else None


def read(task: str, path: str | os.PathLike, count: int, seed: int) -> list[Problem]:
    """``count`` problems of ``task`` from ``path`` drawn without replacement by ``seed`` (all of them, in file
    order, when there are no more); a file of another format is one line naming it."""
    from ..common.sources import fail

    if task not in TASKS:
        raise ValueError(f"unknown benchmark {task!r}: expected one of {TASKS}")
    problems = []
    for file in _files(task, Path(path)):
        problems += [p for row in _rows(file) if (p := _problem(task, row, file)) is not None]
    if not problems:
        fail(path, f"holds no {task} problem")
    if count >= len(problems):
        return problems
    chosen = np.random.default_rng(seed).choice(len(problems), size=count, replace=False)
    return [problems[i] for i in sorted(chosen)]


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` (braces balanced), or None."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 0, start + len("\\boxed")
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1 : j]
    return None


def _normalise(answer: str) -> str:
    answer = re.sub(r"\\(left|right|!|,|;|:)|\s|\$", "", answer)
    answer = re.sub(r"\\[dt]frac", r"\\frac", answer)
    answer = re.sub(r"\\text\{(.*?)\}", r"\1", answer)
    return answer.rstrip(".")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").strip().rstrip("."))
    except ValueError:
        return None


def correct(problem: Problem, generation: str) -> bool | None:
    """Whether ``generation`` answers ``problem`` (None: ShareGPT, no reference)."""
    if problem.answer is None:
        return None
    boxed = last_boxed(generation)
    if problem.task == "gsm8k":
        if boxed is None:
            numbers = re.findall(r"-?\d[\d,]*(?:\.\d+)?", generation)
            boxed = numbers[-1] if numbers else None
        found, gold = _number(boxed or ""), _number(problem.answer)
        return found is not None and gold is not None and abs(found - gold) < 1e-6
    return boxed is not None and _normalise(boxed) == _normalise(problem.answer)


class ChatPrompts:
    """Problems as a chat model reads them: each prompt through the tokenizer's chat template (one user turn and the
    assistant's start, as SDAR's ``generate.py`` builds it), a batch left-padded to whole blocks with ``valid``
    marking the real tokens; a generation read up to its first stop token (the tokenizer's end of text, or an end
    of turn: :data:`END_TOKENS`). The same interface as :class:`.encoding.Codec`'s (``prompts``, ``correct``,
    ``answer_span``)."""

    def __init__(self, folder: str | os.PathLike, block_size: int):
        from ..common.lm.tokenizer import load_tokenizer, pad_id
        from ..common.sources import fail

        self.tokenizer = load_tokenizer(folder)
        if not self.tokenizer.chat_template:
            fail(folder, "the tokenizer has no chat template (SDAR's chat models carry one)")
        self.block_size, self.pad = block_size, pad_id(self.tokenizer)
        vocabulary = self.tokenizer.get_vocab()
        stops = {self.tokenizer.eos_token_id, *(vocabulary.get(token) for token in END_TOKENS)}
        self.stops = sorted(s for s in stops if isinstance(s, int))

    def encode(self, problem: Problem) -> list[int]:
        text = self.tokenizer.apply_chat_template(
            [{"role": "user", "content": problem.prompt}], add_generation_prompt=True, tokenize=False
        )
        return self.tokenizer.encode(text, add_special_tokens=False)

    def prompts(self, problems) -> tuple:
        """``(ids, valid)`` ``[batch, P]``: left-padded to the longest prompt, rounded up to whole blocks."""
        import torch

        encoded = [self.encode(p) for p in problems]
        width = -(-max(map(len, encoded)) // self.block_size) * self.block_size
        ids = torch.full((len(encoded), width), self.pad, dtype=torch.long)
        valid = torch.zeros((len(encoded), width), dtype=torch.bool)
        for row, tokens in enumerate(encoded):
            ids[row, width - len(tokens) :] = torch.tensor(tokens, dtype=torch.long)
            valid[row, width - len(tokens) :] = True
        return ids, valid

    def answer_span(self, problem: Problem, ids) -> int:
        """Generated tokens up to and including the first stop token (all of them when none stops)."""
        ids = list(ids)
        return next((i + 1 for i, t in enumerate(ids) if t in self.stops), len(ids))

    def text(self, ids) -> str:
        from ..common.lm.tokenizer import decode

        return decode(self.tokenizer, list(ids)[: self.answer_span(None, ids)])

    def correct(self, problem: Problem, ids) -> bool | None:
        return correct(problem, self.text(ids))


REPLICA_ROWS = 6


def write_replica(hub: str, folder: str | os.PathLike) -> Path:
    """A few problems in exactly the file layout of the hub's ``openai/gsm8k`` (``main/test-*.parquet``) or
    ``HuggingFaceH4/MATH-500`` (``test.jsonl``), for tests and ``make gpu-check`` (the real sets cannot be fetched
    here). The problems are simple sums written the way each set writes its answers."""
    import pandas as pd

    folder = Path(folder)
    sums = [(a, b) for a in range(2, 2 + REPLICA_ROWS) for b in (3,)]
    if hub == "openai/gsm8k":
        rows = [
            {"question": f"Tom has {a} apples and buys {b} more. How many apples does he have?",
             "answer": f"He has {a} + {b} = <<{a}+{b}={a + b}>>{a + b} apples.\n#### {a + b}"}
            for a, b in sums
        ]  # fmt: skip
        (folder / "main").mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).to_parquet(folder / "main" / "test-00000-of-00001.parquet", index=False)
        return folder
    if hub == "HuggingFaceH4/MATH-500":
        folder.mkdir(parents=True, exist_ok=True)
        lines = [
            json.dumps({"problem": f"Compute ${a} + {b}$.", "solution": f"${a} + {b} = \\boxed{{{a + b}}}$.",
                        "answer": str(a + b), "subject": "Prealgebra", "level": 1, "unique_id": f"replica/{a}.json"})
            for a, b in sums
        ]  # fmt: skip
        (folder / "test.jsonl").write_text("\n".join(lines) + "\n")
        return folder
    raise ValueError(f"no replica of the data set {hub}")
