"""How a model is trained at paper scale (ModelSettings: LoRA, bfloat16 autocast, gradient checkpointing): each
option does what it says, and all off leaves the model exactly as it was."""

import copy

import pytest
import torch

from icml26.common.config import ConfigError
from icml26.common.lm.model import ModelSettings, build_model, prepare_for_training, trained_weights
from icml26.common.lm.sampling import continuation_logprobs, generate
from icml26.common.lm.sft import SFTSettings, sft
from icml26.common.lm.tokenizer import task_tokenizer

TINY = ModelSettings(hidden_size=16, layers=1, heads=2, intermediate_size=32, context=16)
EXAMPLES = [([1, 6, 3], [7, 2]), ([1, 7, 3], [6, 2])] * 4
STEPS = SFTSettings(steps=5, batch_size=4, lr=1e-2, warmup_steps=1, log_every=5)


@pytest.fixture
def model():
    return build_model(TINY, task_tokenizer("ab"), seed=0)


def test_all_options_off_leave_the_model_as_it_was(model):
    assert prepare_for_training(model, TINY) is model and "forward" not in model.__dict__


def test_lora_trains_the_adapters_alone_and_merges_back(model):
    before = {k: v.clone() for k, v in model.state_dict().items()}
    tuned = prepare_for_training(model, ModelSettings(**{**TINY.__dict__, "lora": {"r": 4, "alpha": 8}}))
    trainable = [n for n, p in tuned.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    sft(tuned, EXAMPLES, STEPS, seed=0, pad_id=0, log=lambda line: None)
    merged = trained_weights(tuned)
    assert set(merged.state_dict()) == set(before)  # a plain Llama again: saves and loads like any
    changed = [k for k in before if not torch.equal(before[k], merged.state_dict()[k])]
    assert changed and all(k.endswith("proj.weight") for k in changed)  # only the adapted linear layers moved


def test_bfloat16_autocast_runs_the_forward_in_bfloat16_with_float32_weights(model):
    tuned = prepare_for_training(model, ModelSettings(**{**TINY.__dict__, "precision": "bfloat16"}))
    logits = tuned(input_ids=torch.tensor([[1, 6, 3]])).logits
    assert logits.dtype == torch.bfloat16 and all(p.dtype == torch.float32 for p in tuned.parameters())
    logprobs, _ = continuation_logprobs(tuned, [[1, 6, 3]], [[7, 2]], pad_id=0)
    assert logprobs.dtype == torch.float32 and logprobs.requires_grad  # the toolkit's log-probs stay float32
    assert sft(tuned, EXAMPLES, STEPS, seed=0, pad_id=0, log=lambda line: None)[-1] < float("inf")
    assert generate(tuned, [[1, 6, 3]], max_new_tokens=2, stop_ids=[2], pad_id=0, greedy=True).tokens.shape[0] == 1
    assert "forward" not in trained_weights(tuned).__dict__


def test_gradient_checkpointing_gives_the_same_gradients(model):
    plain, checkpointed = (
        copy.deepcopy(model),
        prepare_for_training(copy.deepcopy(model), ModelSettings(**{**TINY.__dict__, "gradient_checkpointing": True})),
    )
    assert checkpointed.is_activation_checkpointing
    grads = []
    for net in (plain, checkpointed):
        net.train()
        net(input_ids=torch.tensor([[1, 6, 3, 7]]), labels=torch.tensor([[1, 6, 3, 7]])).loss.backward()
        grads.append(torch.cat([p.grad.flatten() for p in net.parameters()]))
    torch.testing.assert_close(grads[0], grads[1])


def test_bad_options_are_one_line_naming_the_key():
    with pytest.raises(ConfigError, match=r"^model.precision: 'float16' is not one of float32, bfloat16$"):
        ModelSettings.from_config({"precision": "float16"})
    with pytest.raises(ConfigError, match=r"^model.lora: needs exactly r and alpha"):
        ModelSettings.from_config({"lora": {"r": 4}})
