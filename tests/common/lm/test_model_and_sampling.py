"""The model factory and sampling: cached generation against full recomputes, log-probabilities that add up,
checkpoints that are byte-identical and load back, bad paths and over-long prompts as one-line errors."""

import hashlib
import json

import pytest
import torch

from icml26.common.lm.model import ModelSettings, build_model, load_model, model_from_settings, save_checkpoint
from icml26.common.lm.sampling import continuation_logprobs, generate
from icml26.common.sources import SourceError
from tests.common.lm.conftest import TINY

PROMPTS = [[1, 6, 7, 8], [1, 9], [1, 10, 6, 11, 9]]  # bos then digits; different lengths (left padding)


def stop_and_pad(tokenizer):
    return {"stop_ids": [tokenizer.eos_token_id], "pad_id": tokenizer.pad_token_id}


def full_forward_logits(model, ids):
    with torch.no_grad():
        return model(input_ids=torch.as_tensor([ids])).logits[0].float()


def test_cached_generation_matches_full_recomputes_and_greedy_is_the_stepwise_argmax(model, tokenizer):
    samples = generate(model, PROMPTS, max_new_tokens=6, greedy=True, raw_logits=True, **stop_and_pad(tokenizer))
    for row, prompt in enumerate(PROMPTS):
        ids = list(prompt)
        for step in range(int(samples.lengths[row])):
            logits = full_forward_logits(model, ids)[-1]
            assert torch.allclose(samples.raw_logits[row, step], logits, atol=1e-5)
            ids.append(int(logits.argmax()))
            assert int(samples.tokens[row, step]) == ids[-1]


def test_logprob_of_a_sampled_continuation_is_the_sum_of_its_sampled_token_logprobs(model, tokenizer):
    samples = generate(model, PROMPTS * 4, max_new_tokens=8, temperature=1.0, seed=3, **stop_and_pad(tokenizer))
    logprobs, mask = continuation_logprobs(model, PROMPTS * 4, samples.continuations(), tokenizer.pad_token_id)
    assert torch.equal(mask, samples.mask[:, : mask.shape[1]])
    assert torch.allclose((logprobs * mask).sum(1), samples.logprobs.sum(1), atol=1e-5)


def _stacked_scores_reference(model, prompts, *, max_new_tokens, stop_ids, pad_id, greedy, temperature, top_k, seed):
    """The sampler as it was before issue 56: transformers' own warpers, every step's processed scores kept
    (``output_scores``), stacked and normalised once at the end."""
    from transformers import GenerationConfig

    from icml26.common.lm.sampling import _up_to_first_stop, left_padded

    ids, attention = left_padded(prompts, pad_id, model.device)
    config = GenerationConfig(
        max_new_tokens=max_new_tokens,
        do_sample=not greedy,
        temperature=None if greedy else temperature,
        top_k=top_k if (top_k and not greedy) else None,
        top_p=None,
        eos_token_id=list(stop_ids),
        pad_token_id=pad_id,
        return_dict_in_generate=True,
        output_scores=True,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        out = model.generate(input_ids=ids, attention_mask=attention, generation_config=config)
    tokens = out.sequences[:, ids.shape[1] :]
    logprobs = torch.log_softmax(torch.stack(out.scores, dim=1).float(), dim=-1).gather(-1, tokens[..., None])[..., 0]
    mask = _up_to_first_stop(tokens, stop_ids)
    return tokens.masked_fill(~mask, pad_id), logprobs.masked_fill(~mask, 0.0)


@pytest.mark.parametrize(
    "draw", [{"greedy": True}, {"temperature": 1.0}, {"temperature": 0.7, "top_k": 3}, {"temperature": 1.3}]
)
def test_stepwise_logprobs_equal_those_of_the_stacked_scores_with_the_same_tokens(model, tokenizer, draw):
    settings = {"greedy": False, "temperature": 1.0, "top_k": 0} | draw
    ours = generate(model, PROMPTS * 3, max_new_tokens=8, seed=5, **settings, **stop_and_pad(tokenizer))
    tokens, logprobs = _stacked_scores_reference(
        model, PROMPTS * 3, max_new_tokens=8, seed=5, **settings, **stop_and_pad(tokenizer)
    )
    assert torch.equal(ours.tokens, tokens)
    assert torch.allclose(ours.logprobs, logprobs, atol=1e-6, rtol=0) and ours.raw_logits is None


def test_sampling_draws_from_the_whole_vocabulary_beyond_transformers_default_top_50():
    from icml26.common.lm.tokenizer import task_tokenizer

    wide = task_tokenizer([f"w{i}" for i in range(120)])
    net = build_model(TINY, wide, seed=1)
    prompts = [[1, 7, 9], [1, 60, 100, 8]] * 16
    samples = generate(net, prompts, max_new_tokens=10, seed=0, stop_ids=[], pad_id=wide.pad_token_id, raw_logits=True)
    rank = (samples.raw_logits > samples.raw_logits.gather(-1, samples.tokens[..., None])).sum(-1)
    assert int(rank.max()) >= 50  # an untrained model spreads its mass: under a silent top-50 no draw ranks past 49
    logprobs, mask = continuation_logprobs(net, prompts, samples.continuations(), wide.pad_token_id)
    assert torch.allclose((logprobs * mask).sum(1), samples.logprobs.sum(1), atol=1e-4)


def test_sampling_is_reproducible_from_its_seed_and_leaves_the_callers_stream_alone(model, tokenizer):
    before = torch.get_rng_state()
    a = generate(model, PROMPTS, max_new_tokens=8, seed=11, top_k=3, raw_logits=True, **stop_and_pad(tokenizer))
    assert torch.equal(torch.get_rng_state(), before)
    b = generate(model, PROMPTS, max_new_tokens=8, seed=11, top_k=3, **stop_and_pad(tokenizer))
    assert torch.equal(a.tokens, b.tokens) and torch.equal(a.logprobs, b.logprobs)
    # top-k: every drawn token is among the k largest raw logits of its step
    top3 = a.raw_logits.topk(3, dim=-1).indices
    assert bool(((top3 == a.tokens.unsqueeze(-1)).any(-1) | ~a.mask).all())


def test_generation_stops_at_a_stop_token_and_masks_what_follows():
    samples_tokens = torch.tensor([[5, 2, 7, 2], [5, 6, 7, 8]])
    from icml26.common.lm.sampling import _up_to_first_stop

    assert _up_to_first_stop(samples_tokens, [2]).tolist() == [[True, True, False, False], [True] * 4]


def test_a_prompt_that_does_not_fit_the_context_names_both_lengths(model, tokenizer):
    with pytest.raises(
        ValueError, match=r"prompt of 30 tokens plus 8 new tokens does not fit the model's context of 32"
    ):
        generate(model, [[1] * 30], max_new_tokens=8, **stop_and_pad(tokenizer))
    with pytest.raises(ValueError, match=r"context of 32"):
        continuation_logprobs(model, [[1] * 20], [[6] * 20], tokenizer.pad_token_id)


def digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_same_seed_gives_a_byte_identical_checkpoint_that_loads_through_the_config_path(tokenizer, tmp_path):
    for name in ("a", "b"):
        save_checkpoint(build_model(TINY, tokenizer, seed=5), tokenizer, tmp_path / name)
    assert digests(tmp_path / "a") == digests(tmp_path / "b")
    save_checkpoint(build_model(TINY, tokenizer, seed=6), tokenizer, tmp_path / "c")
    assert digests(tmp_path / "c")["model.safetensors"] != digests(tmp_path / "a")["model.safetensors"]
    loaded = model_from_settings(ModelSettings(checkpoint=str(tmp_path / "a")), tokenizer, seed=0)
    fresh = build_model(TINY, tokenizer, seed=5)
    ours = generate(loaded, PROMPTS, max_new_tokens=5, greedy=True, **stop_and_pad(tokenizer))
    theirs = generate(fresh, PROMPTS, max_new_tokens=5, greedy=True, **stop_and_pad(tokenizer))
    assert torch.equal(ours.tokens, theirs.tokens)


def test_a_checkpoint_path_that_is_missing_or_not_a_causal_lm_is_one_line_naming_it(tmp_path):
    with pytest.raises(SourceError, match=r"missing: no such causal language model folder$"):
        load_model(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match=r"empty: not a causal language model folder \(no config.json\)"):
        load_model(tmp_path / "empty")
    (tmp_path / "vision").mkdir()
    (tmp_path / "vision" / "config.json").write_text(json.dumps({"model_type": "vit"}))
    with pytest.raises(SourceError, match=r"vision: not a causal language model \(config.json says model_type 'vit'"):
        load_model(tmp_path / "vision")
    (tmp_path / "no_weights").mkdir()
    (tmp_path / "no_weights" / "config.json").write_text(json.dumps({"model_type": "llama"}))
    no_weights = r"no_weights: cannot read the causal language model's weights \(no \*.safetensors\): OSError"
    with pytest.raises(SourceError, match=no_weights):
        load_model(tmp_path / "no_weights")


def test_model_settings_name_the_bad_key():
    from icml26.common.config import ConfigError

    with pytest.raises(ConfigError, match=r"^model.width: unknown setting$"):
        ModelSettings.from_config({"width": 3})
    with pytest.raises(ConfigError, match=r"^model.hidden_size: 30 is not a multiple of model.heads \(4\)$"):
        ModelSettings.from_config({"hidden_size": 30, "heads": 4})
