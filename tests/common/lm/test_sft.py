"""SFT learns: a copy task reaches exact match, with the loss on answer tokens only."""

import torch

from icml26.common.lm.model import ModelSettings, build_model
from icml26.common.lm.sampling import generate
from icml26.common.lm.sft import IGNORE, SFTSettings, answer_batch, sft
from icml26.common.lm.tokenizer import encode, task_tokenizer


def test_labels_cover_the_answer_tokens_only():
    batch = answer_batch([([1, 7, 8, 3], [7, 8, 2]), ([1, 9, 3], [9, 2])], pad_id=0, device="cpu")
    assert batch["labels"].tolist() == [[IGNORE] * 4 + [7, 8, 2], [IGNORE] * 3 + [9, 2, IGNORE, IGNORE]]
    assert batch["attention_mask"].sum(1).tolist() == [7, 5]


def test_sft_on_a_copy_task_reaches_exact_match():
    tokenizer = task_tokenizer("abcd", "char")
    generator = torch.Generator().manual_seed(0)
    words = ["".join("abcd"[i] for i in torch.randint(4, (4,), generator=generator)) for _ in range(400)]
    examples = [(encode(tokenizer, f"<bos>{w}<sep>"), encode(tokenizer, f"{w}<eos>")) for w in words]
    model = build_model(
        ModelSettings(hidden_size=32, layers=1, heads=4, intermediate_size=64, context=16), tokenizer, seed=0
    )
    lines = []
    losses = sft(
        model,
        examples[:300],
        SFTSettings(steps=150, batch_size=32, lr=3e-3, warmup_steps=20, log_every=50),
        seed=0,
        pad_id=tokenizer.pad_token_id,
        log=lines.append,
    )
    assert len(lines) == 3 and lines[-1].startswith("sft step 150/150: loss")
    assert losses[-1] < losses[0] / 10
    held_out = examples[300:]
    samples = generate(
        model,
        [p for p, _ in held_out],
        max_new_tokens=5,
        greedy=True,
        stop_ids=[tokenizer.eos_token_id],
        pad_id=tokenizer.pad_token_id,
    )
    exact = [c == a for c, (_, a) in zip(samples.continuations(), held_out)]
    assert sum(exact) / len(exact) > 0.99


def test_the_same_training_gives_a_byte_identical_checkpoint(tmp_path):
    from icml26.common.lm.model import save_checkpoint

    tokenizer = task_tokenizer("abcd", "char")
    examples = [
        (encode(tokenizer, f"<bos>{w}<sep>"), encode(tokenizer, f"{w}<eos>")) for w in ("abc", "dca", "bad", "cab")
    ]
    settings = SFTSettings(steps=6, batch_size=3, lr=1e-2, warmup_steps=2, log_every=100)
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):  # c: another shuffling seed, same initial weights
        model = build_model(
            ModelSettings(hidden_size=32, layers=1, heads=2, intermediate_size=64, context=16), tokenizer, seed=0
        )
        sft(model, examples, settings, seed=seed, pad_id=tokenizer.pad_token_id, log=lambda line: None)
        save_checkpoint(model, tokenizer, tmp_path / name)
    weights = {name: (tmp_path / name / "model.safetensors").read_bytes() for name in "abc"}
    assert weights["a"] == weights["b"] != weights["c"]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all((tmp_path / "a" / p.name).read_bytes() == p.read_bytes() for p in (tmp_path / "b").iterdir())


def test_window_means_average_each_logging_window_and_drop_a_partial_one():
    from icml26.common.lm.sft import window_means

    assert window_means([4.0, 2.0, 1.0, 3.0, 9.0], 2) == ([2, 4], [3.0, 2.0])
    assert window_means([1.0], 2) == ([], [])


def test_sft_with_progress_prefixes_each_line_and_times_the_run(capsys):
    from icml26.common.lm.sft import sft_with_progress

    tokenizer = task_tokenizer("ab", "char")
    examples = [(encode(tokenizer, "<bos>a<sep>"), encode(tokenizer, "b<eos>"))] * 8
    model = build_model(ModelSettings(hidden_size=8, layers=1, heads=2, intermediate_size=8, context=8), tokenizer, 0)
    settings = SFTSettings(steps=4, batch_size=4, warmup_steps=1, log_every=2)
    losses, seconds = sft_with_progress(model, examples, settings, seed=0, pad_id=tokenizer.pad_token_id, label="x")
    lines = capsys.readouterr().out.splitlines()
    assert len(losses) == 4 and seconds > 0
    assert [line.split(":")[0] for line in lines] == ["x sft step 2/4", "x sft step 4/4"]
    assert all(line.endswith(" s)") for line in lines)
