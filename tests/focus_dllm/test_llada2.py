"""The paper's LLaDA 2.0 (mixture-of-experts) model read from a Hugging Face folder in its own format (a replica
written tensor by tensor under the checkpoint's names, icml26.common.lm.replicas.llada2): with dense layers only and
full rotation it is Qwen3 (transformers' class, its fused projection split in three); the router and a sparse layer
against closed forms; the FOCUS decoder and the paper-scale rules over it."""

import json

import pandas as pd
import pytest
import torch

from icml26.common.lm import replicas
from icml26.common.sources import SourceError
from icml26.focus_dllm import llada2, rules
from icml26.focus_dllm.decoding import DecodeSettings, decode
from icml26.focus_dllm.model import block_causal_mask

CORPUS = ["Compute $2 + 3$.", "\\boxed{5}", "Tom has 3 apples"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return replicas.llada2(tmp_path_factory.mktemp("llada2") / "LLaDA2-tiny", replicas.bpe_tokenizer(CORPUS, "llada2"))


def _config(**changes) -> llada2.LLaDA2Config:
    base = dict(
        vocab_size=10,
        hidden_size=8,
        intermediate_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=4,
        rms_norm_eps=1e-6,
        rope_theta=10000.0,
        partial_rotary_factor=0.5,
        tie_word_embeddings=False,
        num_experts=8,
        num_shared_experts=1,
        num_experts_per_tok=2,
        moe_intermediate_size=4,
        n_group=4,
        topk_group=2,
        routed_scaling_factor=2.5,
        first_k_dense_replace=1,
        block_size=4,
        mask_token_id=9,
    )
    return llada2.LLaDA2Config(**(base | changes))


def _gate(**changes) -> llada2.LLaDA2Gate:
    gate = llada2.LLaDA2Gate(_config(**changes))
    with torch.no_grad():
        gate.weight.copy_(torch.eye(8))  # logits = the row itself
    return gate


def test_the_router_picks_the_best_experts_of_the_best_groups_and_weighs_them_unbiased():
    row = torch.tensor([[5.0, 4.0, -5.0, -5.0, 3.0, -5.0, -5.0, -5.0]])
    s = torch.sigmoid(row[0])
    experts, weights = _gate()(row)
    assert experts.tolist() == [[0, 1]]
    assert torch.allclose(weights, 2.5 * torch.stack([s[0], s[1]]) / (s[0] + s[1]))
    gate = _gate()
    gate.expert_bias[4] = 10.0  # the bias chooses expert 4 (and its group) but never weighs it
    experts, weights = gate(row)
    assert experts.tolist() == [[4, 0]]
    assert torch.allclose(weights, 2.5 * torch.stack([s[4], s[0]]) / (s[4] + s[0]))


def test_an_expert_outside_the_chosen_groups_is_never_picked():
    row = torch.tensor([[5.0, -5.0, 4.9, 4.9, 4.95, -5.0, -5.0, -5.0]])  # expert 0 scores best; its group does not
    experts, _ = _gate(topk_group=1)(row)
    assert sorted(experts[0].tolist()) == [2, 3]


def test_a_sparse_layer_of_identical_experts_is_that_expert_scaled_plus_the_shared_one():
    config = _config()
    block = llada2.LLaDA2SparseMoeBlock(config)
    torch.manual_seed(0)
    with torch.no_grad():
        block.gate.weight.normal_()
        for expert in block.experts[1:]:
            expert.load_state_dict(block.experts[0].state_dict())
    x = torch.randn(3, 5, config.hidden_size)
    expected = 2.5 * block.experts[0](x) + block.shared_experts(x)
    assert torch.allclose(block(x), expected, atol=1e-6)


def test_with_dense_layers_and_full_rotation_llada2_is_qwen3(tmp_path):
    from transformers import Qwen3Config, Qwen3ForCausalLM

    tokenizer = replicas.bpe_tokenizer(CORPUS, "llada2")
    torch.manual_seed(0)
    qwen = Qwen3ForCausalLM(
        Qwen3Config(
            vocab_size=len(tokenizer),
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            head_dim=16,
            tie_word_embeddings=False,
            rope_parameters={"rope_theta": 600000.0, "rope_type": "default"},
        )
    ).eval()
    state, names = qwen.state_dict(), {}
    for i in range(2):
        at = f"model.layers.{i}"
        names[f"{at}.attention.query_key_value.weight"] = torch.cat(
            [state[f"{at}.self_attn.{p}_proj.weight"] for p in "qkv"]
        )
        for ours, theirs in (("query_layernorm", "q_norm"), ("key_layernorm", "k_norm"), ("dense", "o_proj")):
            names[f"{at}.attention.{ours}.weight"] = state[f"{at}.self_attn.{theirs}.weight"]
        for key in ("input_layernorm", "post_attention_layernorm", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"):
            names[f"{at}.{key}.weight"] = state[f"{at}.{key}.weight"]
    names |= {"model.word_embeddings.weight": state["model.embed_tokens.weight"]}
    names |= {k: state[k] for k in ("model.norm.weight", "lm_head.weight")}
    from safetensors.torch import save_file

    save_file({k: v.contiguous() for k, v in names.items()}, str(tmp_path / "model.safetensors"))
    sizes = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}
    (tmp_path / "config.json").write_text(
        json.dumps(
            {
                "model_type": "llada2_moe",
                "vocab_size": len(tokenizer),
                **sizes,
                "num_key_value_heads": 2,
                "head_dim": 16,
                "num_experts": 4,
                "num_experts_per_tok": 2,
                "moe_intermediate_size": 8,
                "n_group": 2,
                "topk_group": 1,
                "first_k_dense_replace": 2,  # every layer dense
                "partial_rotary_factor": 1.0,
                "rope_theta": 600000.0,
            }
        )
    )
    tokenizer.save_pretrained(tmp_path)
    ours = llada2.load(tmp_path, block_size=1)
    ids = torch.randint(0, ours.config.mask_token_id, (2, 9), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits, _ = ours(ids, torch.arange(9).expand(2, 9), mask=block_causal_mask(9, 1))
        assert torch.allclose(logits, qwen(ids).logits, atol=1e-5)


def test_the_replica_loads_under_its_tensor_names_and_decodes_with_focus(folder):
    model = llada2.load(folder, block_size=4)
    assert isinstance(model.layers[0].mlp, llada2.SwiGLU) and len(model.layers[1].mlp.experts) == 8
    assert model.config.rope_dim == model.config.head_dim // 2
    prompts = torch.randint(0, model.config.mask_token_id, (3, 8), generator=torch.Generator().manual_seed(2))
    dense, _ = decode(model, prompts, 2, DecodeSettings(threshold=0.9))
    kept, _ = decode(model, prompts, 2, DecodeSettings(threshold=0.9, alpha=1e9))
    assert torch.equal(dense, kept)
    _, stats = decode(model, prompts, 2, DecodeSettings(threshold=1.0, alpha=1.0))
    assert any(e["retained"] < e["masked"] for e in stats.events)


def test_a_folder_that_is_not_llada2_is_one_line_naming_it(folder, tmp_path):
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    config = json.loads((bad / "config.json").read_text())
    (bad / "config.json").write_text(json.dumps(config | {"score_function": "softmax"}))
    with pytest.raises(SourceError, match="config.json: expected LLaDA 2.0's projections without biases"):
        llada2.load(bad, block_size=4)
    (bad / "config.json").write_text(json.dumps(config | {"n_group": 3}))
    with pytest.raises(SourceError, match="8 experts do not split into 3 groups"):
        llada2.load(bad, block_size=4)
    (bad / "config.json").write_text(json.dumps(config | {"num_experts": 16}))
    with pytest.raises(SourceError, match="bad: weights do not match the model: .* missing"):
        llada2.load(bad, block_size=4)


def test_the_paper_scale_rules_decode_a_benchmark_with_the_llada2_folder(folder, tmp_path):
    from icml26.focus_dllm.benchmarks import write_replica

    layout = {"block_size": 4, "prompt_blocks": 1, "answer_blocks": 2}
    data = write_replica("openai/gsm8k", tmp_path / "gsm8k")
    examples = tmp_path / "examples.json"
    rules.examples(
        str(examples), tasks=["gsm8k"], lengths={}, counts={"train": 1, "test": 4}, layout=layout, seed=0,
        benchmarks={"gsm8k": str(data)},
    )  # fmt: skip
    rules.train(
        str(examples), [str(folder)], str(tmp_path / "model"), str(tmp_path / "loss.csv"),
        layout=layout, model={}, training={}, seed=0,
    )  # fmt: skip
    assert json.loads((tmp_path / "model" / "source.json").read_text())["model"] == "llada2"
    decoder = {"name": "focus", "threshold": 0.9, "alpha": 1.5}
    rules.decode_quality(
        str(examples), str(tmp_path / "model"), str(tmp_path / "runs.csv"),
        decoder=decoder, layout=layout, batch_size=3, seed=0,
    )  # fmt: skip
    runs = pd.read_csv(tmp_path / "runs.csv")
    assert len(runs) == 4 and set(runs["task"]) == {"gsm8k"} and runs["batch"].tolist() == [0, 0, 0, 1]


def test_only_the_first_half_of_each_head_turns_with_position(folder):
    model = llada2.load(folder, block_size=4)
    layer, half = model.layers[0], model.config.rope_dim
    x = model.embed(torch.tensor([[5, 5]]))
    with torch.no_grad():
        q, k, _ = layer.project(x, model.rotary(torch.tensor([[0, 7]])))
    for t in (q, k):
        assert torch.allclose(t[:, :, 0, half:], t[:, :, 1, half:])  # the same token at positions 0 and 7
        assert not torch.allclose(t[:, :, 0, :half], t[:, :, 1, :half])
