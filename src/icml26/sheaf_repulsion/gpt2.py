"""GPT-2 small, the paper's model, as an edge graph: a Hugging Face ``GPT2LMHeadModel`` folder read into
:class:`~icml26.sheaf_repulsion.model.EdgeTransformer`, and IOI in GPT-2's tokens.

GPT-2 is a pre-LayerNorm transformer like ours: learned token and position embeddings, per layer a fused query-key-
value projection (``c_attn``, a ``Conv1D``: ``x @ W + b``) split into heads, an output projection ``c_proj`` whose
bias belongs to no head, a tanh-GELU MLP, a final LayerNorm and the unembedding tied to the token embedding. The
weights are copied head by head (``w_qkv[j, h] = W[:, j·width + h·d : j·width + (h+1)·d]``, ``w_out[h]`` the
``c_proj`` rows of head ``h``), so the edge graph has GPT-2's nodes: the embedding, 12 x 12 heads, 12 MLPs and the
logits; the converted model's logits equal GPT-2's (tested on a 2-layer replica). Nothing of TransformerLens is
used: its 4.x no longer has ``HookedTransformer``, and the graph forward needs the weights in this layout anyway.

IOI prompts follow the standard templates of the IOI circuit work (Wang et al., 2022) in three frames of equal
length ("When/After/While A and B went to|were at the PLACE, S gave a OBJECT to"), with the names, places and
objects that are single GPT-2 tokens after a space; fewer than two names (or no place or object) is an error
naming the tokenizer's folder.
"""

from __future__ import annotations

import os

import numpy as np

from ..common.sources import fail
from .data import Language

FRAMES = (  # slots in braces; the text between them is tokenised as it stands
    "When {A} and {B} went to the {PLACE}, {S} gave a {OBJECT} to",
    "After {A} and {B} went to the {PLACE}, {S} gave a {OBJECT} to",
    "While {A} and {B} were at the {PLACE}, {S} gave a {OBJECT} to",
)
NAMES = (  # the IOI work's kind of names: common English first names
    "Mary", "John", "Tom", "James", "Dan", "Sid", "Martin", "Amy", "Kate", "Lisa", "Sarah", "Anna", "David", "Paul",
    "Mark", "Laura", "Emma", "Jack", "Michael", "Daniel", "Peter", "Alice", "Rachel", "Ben", "Chris", "Jessica",
    "Jennifer", "Richard", "Robert", "Steve", "Sam", "Max", "Joe", "Adam", "Eric", "Kevin", "Brian", "Andrew",
)  # fmt: skip
PLACES = ("store", "garden", "school", "hospital", "station", "restaurant", "office", "park", "house", "church")
OBJECTS = ("drink", "ring", "kiss", "bone", "book", "computer", "necklace", "basketball", "snack", "letter")
# What a tiny replica of GPT-2's tokenizer learns its merges from, so that its names, places and objects are
# single tokens as in GPT-2's (icml26.common.lm.replicas.sources reads it)
REPLICA_CORPUS = (*(f" {w}" for w in (*NAMES, *PLACES, *OBJECTS)), *FRAMES)


def _single(tokenizer, words) -> np.ndarray:
    """The ids of the words that are one token after a space (as they stand in a sentence)."""
    ids = [tokenizer(f" {w}", add_special_tokens=False)["input_ids"] for w in words]
    return np.array([i[0] for i in ids if len(i) == 1], dtype=np.int64)


def language(tokenizer, folder: str | os.PathLike) -> Language:
    """IOI in ``tokenizer``'s ids (the tokenizer of the GPT-2 folder ``folder``)."""
    names, places, objects = (_single(tokenizer, words) for words in (NAMES, PLACES, OBJECTS))
    if len(names) < 2 or not len(places) or not len(objects):
        fail(folder, f"its tokenizer has {len(names)} of the IOI names as single tokens (IOI needs 2), "
                     f"{len(places)} places, {len(objects)} objects")  # fmt: skip
    frames = []
    for frame in FRAMES:
        ids: list[int] = []
        for piece in frame.replace("{", "|{").replace("}", "}|").split("|"):
            if piece.startswith("{"):
                ids.append(Language.SLOT_IDS[piece[1:-1]])
            elif piece.strip():
                text = piece if not ids else piece.rstrip()  # a slot's own leading space stays with the slot
                ids += tokenizer(text.rstrip(" "), add_special_tokens=False)["input_ids"]
        frames.append(ids)
    if len({len(f) for f in frames}) != 1:
        fail(
            folder, f"its tokenizer writes the IOI frames in {sorted({len(f) for f in frames})} tokens, not one length"
        )
    return Language(np.array(frames, dtype=np.int64), names, places, objects)


def edge_model(folder: str | os.PathLike):
    """The GPT-2 in a Hugging Face folder as an edge graph (:class:`~.model.EdgeTransformer`), and IOI in its
    tokens (:class:`~.data.Language`); a folder of another
    architecture, damaged weights or weights that do not cover GPT-2 are one line naming it."""
    import torch
    from transformers import GPT2LMHeadModel

    from ..common.checkpoints import load_pretrained
    from ..common.lm.tokenizer import load_tokenizer
    from .model import EdgeTransformer

    hf = load_pretrained(GPT2LMHeadModel, folder, model_types={"gpt2"}, what="GPT-2 model")
    config = hf.config
    if config.activation_function not in ("gelu_new", "gelu_pytorch_tanh") or config.layer_norm_epsilon != 1e-5:
        fail(folder, f"a GPT-2 with activation {config.activation_function} and layer-norm epsilon "
                     f"{config.layer_norm_epsilon}: only GPT-2's own (tanh GELU, 1e-5) are read")  # fmt: skip
    width, heads = config.n_embd, config.n_head
    d = width // heads
    net = EdgeTransformer(
        config.vocab_size, config.n_positions, config.n_layer, heads, width, config.n_inner or 4 * width,
        output_bias=True, gelu_tanh=True,
    )  # fmt: skip
    gpt = hf.transformer
    with torch.no_grad():
        net.embed.weight.copy_(gpt.wte.weight)
        net.position.weight.copy_(gpt.wpe.weight)
        for layer, block in enumerate(gpt.h):
            w = block.attn.c_attn.weight.view(width, 3, heads, d).permute(1, 2, 0, 3)  # (3, heads, width, d)
            net.w_qkv[layer].copy_(w)
            net.b_qkv[layer].copy_(block.attn.c_attn.bias.view(3, heads, d))
            net.w_out[layer].copy_(block.attn.c_proj.weight.view(heads, d, width))
            net.b_out[layer].copy_(block.attn.c_proj.bias)
            net.ln_attn[layer].load_state_dict(block.ln_1.state_dict())
            net.ln_mlp[layer].load_state_dict(block.ln_2.state_dict())
            net.mlp[layer][0].weight.copy_(block.mlp.c_fc.weight.T)
            net.mlp[layer][0].bias.copy_(block.mlp.c_fc.bias)
            net.mlp[layer][2].weight.copy_(block.mlp.c_proj.weight.T)
            net.mlp[layer][2].bias.copy_(block.mlp.c_proj.bias)
        net.ln_final.load_state_dict(gpt.ln_f.state_dict())
        net.unembed.weight.copy_(hf.lm_head.weight)
    return net.eval(), language(load_tokenizer(folder), folder)
