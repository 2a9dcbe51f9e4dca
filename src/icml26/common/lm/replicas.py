"""Tiny models and tokenizers in exactly the formats of the papers' real ones, for tests and ``make gpu-check``.

The papers' own models (GPT-2 small, Qwen2.5 instruct models, ...) cannot be downloaded here, so their code paths
are proved on replicas written the way the real folders are: ``save_pretrained`` with safetensors, a ``config.json``
naming the real ``model_type``, and a byte-level BPE tokenizer (``tokenizer.json`` + ``tokenizer_config.json``)
with the real special-token conventions. A replica goes through :func:`icml26.common.lm.model.load_model` and
:func:`icml26.common.lm.tokenizer.load_tokenizer` exactly as a fetched model does; only its sizes and its
(random) weights differ.

- GPT-2: ``<|endoftext|>`` is begin, end and unknown token; no pad, no separator.
- Qwen2 (Qwen2.5): no begin token; ``<|im_end|>`` ends an answer; ``<|endoftext|>`` pads.
- LLaDA 2.0 (focus_dllm): the ``llada2_moe`` config and tensor names of ``inclusionAI/LLaDA2.0-mini``, written by
  name (no ``transformers`` class exists for it); ``<|mask|>`` and the Bailing role markers.
- SDAR (focus_dllm): Qwen3's weights under ``model_type`` ``sdar``; the Qwen2.5 tokens plus ``<|MASK|>`` as the
  mask token, and a chat template in Qwen's format (the prompts go through it, as SDAR's own ``generate.py``'s do).
- CLIP: ``CLIPModel`` with ``<|startoftext|>`` / ``<|endoftext|>`` around every text (its merges are byte-level
  here, where the real tokenizer lower-cases and marks word ends: the special tokens and classes are the real ones);
  its ``preprocessor_config.json`` with CLIP's normalisation, as are DINOv2's (``Dinov2Model``) and SAM's
  (``SamModel``) folders, vision models without a tokenizer (prism_moe's teachers).

:func:`sources` writes one replica per entry of a paper's ``fetch:`` list, so ``make fetch FROM=<folder>`` brings
them in where the real models would go, and the paper-scale config reads them unchanged (tests, ``make gpu-check``).

The merges are learnt here from the task's own words on a small vocabulary, so task words split into several
tokens, as they do in the real tokenizers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

import torch

FLAVOURS = ("gpt2", "qwen2", "sdar", "llada2", "clip")
LLADA2_CHAT_TEMPLATE = (  # the Bailing chat format's role markers, as the LLaDA 2.0 tokenizer's template writes them
    "{% for m in messages %}<role>{{ m['role'] | upper }}</role>{{ m['content'] }}<|role_end|>{% endfor %}"
    "{% if add_generation_prompt %}<role>ASSISTANT</role>{% endif %}"
)
CHAT_TEMPLATE = (  # Qwen's chat format, as the SDAR tokenizers carry it (their system prompt left out)
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
BYTES = 256


def bpe_tokenizer(corpus: Iterable[str], flavour: str = "gpt2", merges: int = 40):
    """A byte-level BPE tokenizer of ``flavour`` with ``merges`` merges learnt from ``corpus`` (few, so that
    words split into several tokens), wrapped in the Hugging Face class the real model ships with."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    if flavour not in FLAVOURS:
        raise ValueError(f"flavour must be one of {FLAVOURS}, got {flavour!r}")
    specials = {
        "gpt2": ["<|endoftext|>"],
        "qwen2": ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        "sdar": ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|MASK|>"],
        "llada2": ["<|endoftext|>", "<role>", "</role>", "<|role_end|>", "<|mask|>"],
        "clip": ["<|startoftext|>", "<|endoftext|>"],
    }[flavour]
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=BYTES + len(specials) + merges,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(sorted(set(corpus)), trainer)
    if flavour == "gpt2":
        from transformers import GPT2TokenizerFast

        return GPT2TokenizerFast(
            tokenizer_object=core, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>"
        )
    if flavour == "clip":
        from transformers import CLIPTokenizerFast

        return CLIPTokenizerFast(
            tokenizer_object=core,
            bos_token="<|startoftext|>",
            eos_token="<|endoftext|>",
            pad_token="<|endoftext|>",
            unk_token="<|endoftext|>",
        )
    from transformers import Qwen2TokenizerFast

    if flavour == "llada2":
        from transformers import PreTrainedTokenizerFast

        tokenizer = PreTrainedTokenizerFast(
            tokenizer_object=core, eos_token="<|endoftext|>", pad_token="<|endoftext|>", mask_token="<|mask|>"
        )
        tokenizer.chat_template = LLADA2_CHAT_TEMPLATE
        return tokenizer
    if flavour == "sdar":
        tokenizer = Qwen2TokenizerFast(
            tokenizer_object=core,
            bos_token=None,
            eos_token="<|im_end|>",
            pad_token="<|endoftext|>",
            mask_token="<|MASK|>",
            unk_token=None,
        )
        tokenizer.chat_template = CHAT_TEMPLATE
        return tokenizer
    return Qwen2TokenizerFast(
        tokenizer_object=core, bos_token=None, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None
    )


def _save(model_class, config, tokenizer, folder: str | os.PathLike) -> Path:
    """A ``model_class`` of ``config`` with random weights under seed 0 (the caller's random stream untouched),
    saved with ``tokenizer`` as the hub ships a model: ``save_pretrained``, safetensors."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = model_class(config)
    folder = Path(folder)
    model.save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    return folder


def gpt2(
    folder: str | os.PathLike, tokenizer, *, layers: int = 2, width: int = 32, heads: int = 2, context: int = 1024
):
    """A ``GPT2LMHeadModel`` folder (random weights under seed 0) with ``tokenizer``, as GPT-2 small's is laid out."""
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=context,
        n_embd=width,
        n_layer=layers,
        n_head=heads,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return _save(GPT2LMHeadModel, config, tokenizer, folder)


def qwen2(
    folder: str | os.PathLike, tokenizer, *, layers: int = 2, width: int = 32, heads: int = 2, context: int = 32768
):
    """A ``Qwen2ForCausalLM`` folder (the Qwen2.5 architecture: grouped-query attention, tied embeddings at small
    sizes; random weights under seed 0) with ``tokenizer``."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=width,
        intermediate_size=2 * width,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=1,
        max_position_embeddings=context,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    return _save(Qwen2ForCausalLM, config, tokenizer, folder)


def sdar(
    folder: str | os.PathLike,
    tokenizer,
    *,
    layers: int = 3,  # FOCUS compacts from layer 2 on
    width: int = 32,
    heads: int = 4,
    kv_heads: int = 2,
    tied: bool = True,
    max_shard_size: str | None = None,
):
    """An SDAR folder as ``JetLM/SDAR-*-Chat`` ships one: Qwen3's weights (grouped-query attention, per-head q/k
    norms; random weights under seed 0) saved with ``save_pretrained``, ``config.json`` naming ``model_type``
    ``sdar`` and ``SDARForCausalLM``; ``max_shard_size`` splits the weights into shards with an index, as the 8B
    model's are. ``tied``: the 1.7B model ties its output matrix to the embedding, the 8B does not."""
    import json

    from transformers import Qwen3Config, Qwen3ForCausalLM

    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=width,
        intermediate_size=2 * width,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=width // heads * 2,  # Qwen3's head size is not hidden / heads (8B: 4096 / 32 heads of 128)
        tie_word_embeddings=tied,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = Qwen3ForCausalLM(config)
    folder = Path(folder)
    shards = {"max_shard_size": max_shard_size} if max_shard_size else {}
    model.save_pretrained(folder, safe_serialization=True, **shards)
    tokenizer.save_pretrained(folder)
    path = folder / "config.json"
    written = json.loads(path.read_text())
    path.write_text(json.dumps(written | {"model_type": "sdar", "architectures": ["SDARForCausalLM"]}, indent=2))
    return folder


def llada2(
    folder: str | os.PathLike,
    tokenizer,
    *,
    layers: int = 3,
    width: int = 32,
    heads: int = 4,
    kv_heads: int = 2,
    experts: int = 8,
    groups: int = 4,
):
    """A LLaDA 2.0 folder as ``inclusionAI/LLaDA2.0-mini`` ships one, in miniature: ``config.json`` with its keys
    (``model_type`` ``llada2_moe``; the first layer dense, the others sparse: ``experts`` experts in ``groups``
    groups, 2 per row from 2 groups, one shared expert; half of each head rotated) and ``model.safetensors`` with
    random weights (seed 0) under the checkpoint's tensor names, written here by name, not by our module."""
    import json

    from safetensors.torch import save_file

    head = 2 * width // heads
    config = {
        "architectures": ["LLaDA2MoeModelLM"],
        "model_type": "llada2_moe",
        "vocab_size": len(tokenizer),
        "hidden_size": width,
        "intermediate_size": 2 * width,
        "moe_intermediate_size": width // 2,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv_heads,
        "head_dim": head,
        "num_experts": experts,
        "num_shared_experts": 1,
        "num_experts_per_tok": 2,
        "n_group": groups,
        "topk_group": 2,
        "routed_scaling_factor": 2.5,
        "score_function": "sigmoid",
        "first_k_dense_replace": 1,
        "partial_rotary_factor": 0.5,
        "rope_theta": 600000.0,
        "rms_norm_eps": 1e-6,
        "use_qkv_bias": False,
        "use_bias": False,
        "tie_word_embeddings": False,
        "hidden_act": "silu",
        "torch_dtype": "float32",
    }
    generator = torch.Generator().manual_seed(0)

    def normal(*shape):
        return (0.02 * torch.randn(*shape, generator=generator)).contiguous()

    def swiglu(prefix: str, inner: int) -> dict:
        return {
            f"{prefix}.gate_proj.weight": normal(inner, width),
            f"{prefix}.up_proj.weight": normal(inner, width),
            f"{prefix}.down_proj.weight": normal(width, inner),
        }

    tensors = {"model.word_embeddings.weight": normal(len(tokenizer), width)}
    for i in range(layers):
        at = f"model.layers.{i}"
        tensors |= {
            f"{at}.attention.query_key_value.weight": normal((heads + 2 * kv_heads) * head, width),
            f"{at}.attention.query_layernorm.weight": 1 + normal(head),
            f"{at}.attention.key_layernorm.weight": 1 + normal(head),
            f"{at}.attention.dense.weight": normal(width, heads * head),
            f"{at}.input_layernorm.weight": 1 + normal(width),
            f"{at}.post_attention_layernorm.weight": 1 + normal(width),
        }
        if i < config["first_k_dense_replace"]:
            tensors |= swiglu(f"{at}.mlp", config["intermediate_size"])
            continue
        tensors |= {f"{at}.mlp.gate.weight": normal(experts, width), f"{at}.mlp.gate.expert_bias": normal(experts)}
        tensors |= swiglu(f"{at}.mlp.shared_experts", config["moe_intermediate_size"])
        for e in range(experts):
            tensors |= swiglu(f"{at}.mlp.experts.{e}", config["moe_intermediate_size"])
    tensors |= {"model.norm.weight": 1 + normal(width), "lm_head.weight": normal(len(tokenizer), width)}
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    tokenizer.save_pretrained(folder)
    return folder


def clip(folder: str | os.PathLike, tokenizer, *, width: int = 32, layers: int = 1, image_size: int = 32):
    """A ``CLIPModel`` folder (ViT vision tower with patches of 8, text transformer; random weights under seed 0)."""
    from transformers import CLIPConfig, CLIPModel

    sizes = {
        "hidden_size": width,
        "intermediate_size": 2 * width,
        "num_hidden_layers": layers,
        "num_attention_heads": 2,
    }
    config = CLIPConfig(
        text_config={
            **sizes,
            "vocab_size": len(tokenizer),
            "max_position_embeddings": 77,
            "bos_token_id": tokenizer.bos_token_id,
            "eos_token_id": tokenizer.eos_token_id,
            "pad_token_id": tokenizer.pad_token_id,
        },
        vision_config={**sizes, "image_size": image_size, "patch_size": 8},
        projection_dim=width,
    )
    folder = _save(CLIPModel, config, tokenizer, folder)
    _processor(folder, OPENAI_CLIP, image_size)
    return folder


OPENAI_CLIP = ([0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711])  # CLIP's processor
IMAGENET = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])  # DINOv2's and SAM's


def _processor(folder: Path, normalisation: tuple[list[float], list[float]], crop: int | None) -> None:
    """The ``preprocessor_config.json`` a vision model's hub folder holds: its normalisation and input crop."""
    mean, std = normalisation
    processor = {"image_mean": mean, "image_std": std, "do_normalize": True, "do_resize": True}
    if crop is not None:
        processor["crop_size"] = {"height": crop, "width": crop}
    (folder / "preprocessor_config.json").write_text(json.dumps(processor, indent=2))


def dinov2(folder: str | os.PathLike, tokenizer=None, *, width: int = 16, image_size: int = 28) -> Path:
    """A ``Dinov2Model`` folder (patches of 7 on a 28-pixel crop: a 4 x 4 grid; random weights under seed 0)."""
    from transformers import Dinov2Config, Dinov2Model

    config = Dinov2Config(
        hidden_size=width,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=2 * width,
        image_size=image_size,
        patch_size=7,
    )
    folder = _save_vision(Dinov2Model, config, folder)
    _processor(folder, IMAGENET, image_size)
    return folder


def sam(folder: str | os.PathLike, tokenizer=None, *, width: int = 16, image_size: int = 32) -> Path:
    """A ``SamModel`` folder (image encoder with patches of 8 and an 8-channel neck, prompt encoder, mask decoder;
    random weights under seed 0); SAM's processor resizes the long side to the encoder's input, so no crop."""
    from transformers import SamConfig, SamModel

    config = SamConfig(
        vision_config={
            "hidden_size": width,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "image_size": image_size,
            "patch_size": 8,
            "output_channels": 8,
            "mlp_dim": 2 * width,
            "global_attn_indexes": [0],
            "window_size": 2,
        },
        prompt_encoder_config={"hidden_size": 8, "image_size": image_size, "patch_size": 8},
        mask_decoder_config={
            "hidden_size": 8,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "mlp_dim": 16,
            "iou_head_hidden_dim": 8,
        },
    )
    folder = _save_vision(SamModel, config, folder)
    _processor(folder, IMAGENET, None)
    return folder


def _save_vision(model_class, config, folder: str | os.PathLike) -> Path:
    """A vision model of ``config`` with random weights under seed 0, saved as the hub ships it (no tokenizer)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = model_class(config)
    folder = Path(folder)
    model.save_pretrained(folder, safe_serialization=True)
    return folder


# Which replica stands in for a hub repository, by the start of its id.
BY_HUB = {
    "Qwen/": "qwen2",
    "openai-community/gpt2": "gpt2",
    "openai/clip-": "clip",
    "facebook/dinov2-": "dinov2",
    "facebook/sam-": "sam",
    "JetLM/SDAR": "sdar",
    "inclusionAI/LLaDA2": "llada2",
}
CORPUS = ("a photo of a {} .", "write a template : acc7", "A<B pos(E)=2 OK malformed feedback", "( map x ( add 3 ) )")


def sources(slug: str, folder: str | os.PathLike, root: Path | None = None) -> Path:
    """``folder/<name>``: a replica of every entry of ``slug``'s ``fetch:`` list (paper scale), for
    ``make fetch PAPER=<slug> FROM=<folder>``; a data set's replica comes from the paper's own ``replica_data``
    (focus_dllm's evaluation sets). An entry with no replica here is an error."""
    import importlib

    from ..fetch import ROOT, entries

    folder = Path(folder)
    paper = importlib.import_module(f"icml26.{slug}")
    # a paper whose code needs words to be single tokens says so (e.g. sheaf_repulsion's IOI names)
    corpus = (*CORPUS, *getattr(paper, "REPLICA_CORPUS", ()))
    for entry in entries(slug, root=root or ROOT):
        if entry.kind == "dataset":
            paper.replica_data(entry.origin, folder / entry.name)
            continue
        flavour = next((f for prefix, f in BY_HUB.items() if entry.hub.startswith(prefix)), None)
        if flavour is None:
            raise ValueError(f"{slug}: no replica of {entry.hub} (icml26.common.lm.replicas.BY_HUB)")
        vision = flavour in ("dinov2", "sam")  # image encoders ship no tokenizer
        tokenizer = None if vision else bpe_tokenizer(corpus, flavour, merges=40 + 20 * (len(corpus) - len(CORPUS)))
        build = {
            "gpt2": gpt2,
            "qwen2": qwen2,
            "sdar": sdar,
            "llada2": llada2,
            "clip": clip,
            "dinov2": dinov2,
            "sam": sam,
        }[flavour]
        build(folder / entry.name, tokenizer)
    return folder


MODEL_PATH_KEYS = {"max_new_tokens", "precision", "lora", "gradient_checkpointing"}  # budgets, how the model trains


def overlay(slug: str, root: Path | None = None) -> dict:
    """The config overlay that runs ``slug``'s paper-scale model path at smoke size: the settings of its ``paper:``
    section that read a fetched folder, its generation budgets and how its model trains (:data:`MODEL_PATH_KEYS`),
    and the keys the paper names in ``REPLICA_KEYS`` (focus_dllm's task list), with the paper's ``REPLICA_SIZES``
    over them (optifluence's residual networks, narrower), under ``<slug>:``; with
    ``--configfile config/smoke.yaml <overlay>`` the smoke DAG reads the replicas `make fetch FROM=` put in place."""
    import importlib

    from ..config import load_yaml, merged, paper_section
    from ..fetch import ROOT

    module = importlib.import_module(f"icml26.{slug}")
    reader = getattr(module, "FETCH_OVERLAY", None)  # a paper whose fetched data a ready overlay reads (dvm_ad)
    extra = load_yaml(((root or ROOT) / reader).read_text(encoding="utf-8"))[slug] if reader else None
    section = paper_section((root or ROOT) / "config" / "papers" / f"{slug}.yaml", "paper", extra)
    targets = {entry["into"] for entry in section.get("fetch", {}).values()}
    kept = MODEL_PATH_KEYS | set(getattr(module, "REPLICA_KEYS", ()))

    def keep(block: dict) -> dict:
        found = {}
        for key, value in block.items():
            if key == "fetch":
                continue
            if key in kept:
                found[key] = value
            elif isinstance(value, dict):
                value = keep(value)
                if value:
                    found[key] = value
            elif isinstance(value, str) and value in targets:
                found[key] = value
        return found

    # a paper whose models are too large for CPU at the paper's width gives the same architectures smaller
    return {slug: merged(keep(section), getattr(module, "REPLICA_SIZES", {}))}


def causal_lm(folder: str | os.PathLike, corpus: Iterable[str], flavour: str = "gpt2", **sizes) -> Path:
    """A tiny causal LM of ``flavour`` whose tokenizer learnt its merges from ``corpus``: a user's checkpoint folder
    in miniature."""
    tokenizer = bpe_tokenizer(corpus, flavour)
    return (gpt2 if flavour == "gpt2" else qwen2)(folder, tokenizer, **sizes)
