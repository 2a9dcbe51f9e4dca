"""A small pre-LayerNorm transformer whose forward pass is its edge graph.

Written here rather than hooked into TransformerLens: circuit discovery needs every destination's input
rebuilt as a mask-weighted sum of every upstream component's output (each head's query, key and value
input separately), once per optimisation step; on a model this small that is one matrix product per
destination group, while TransformerLens 4 (which can host such a model offline, through Hugging Face)
costs ~20 s to import per job and brings wandb, datasets and accelerate into the environment.

``forward(tokens)`` is the ordinary model: each layer's heads read the residual stream, add their
outputs to it one by one, then the MLP reads it and adds its own. ``forward(tokens, mask)`` takes one
weight per edge of :class:`~icml26.sheaf_repulsion.graph.EdgeGraph` and gives every destination the
weighted sum of its sources, so an all-ones mask reproduces the ordinary pass to round-off (the spec's
"exactly": 1e-12 in float64, tested) and a zero weight removes a source (zero ablation, the spec's choice).

GPT-2 (:mod:`~icml26.sheaf_repulsion.gpt2`) is this architecture with two options: each layer's attention output
bias (``output_bias``: not a component, so no edge carries it; it reaches every destination downstream, in the
ordinary and the masked pass alike, as GPT-2's layer norms do) and the tanh approximation of GELU. Our own model
has neither, and its state and outputs are as they were.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .graph import EdgeGraph


class EdgeTransformer(nn.Module):
    """Token and position embedding, ``layers`` blocks of ``heads`` attention heads and a GELU MLP, a final
    LayerNorm and an unembedding; no bias on a head's output projection, so every source is one
    component's output."""

    def __init__(
        self,
        vocab: int,
        context: int,
        layers: int,
        heads: int,
        width: int,
        mlp_width: int,
        *,
        output_bias: bool = False,
        gelu_tanh: bool = False,
    ):
        super().__init__()
        if width % heads:
            raise ValueError(f"width {width} is not a multiple of heads {heads}")
        self.graph = EdgeGraph(layers, heads)
        self.heads, self.head_width = heads, width // heads
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Embedding(context, width)
        self.ln_attn = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        self.w_qkv = nn.ParameterList(
            nn.Parameter(torch.empty(3, heads, width, self.head_width)) for _ in range(layers)
        )
        self.b_qkv = nn.ParameterList(nn.Parameter(torch.zeros(3, heads, self.head_width)) for _ in range(layers))
        self.w_out = nn.ParameterList(nn.Parameter(torch.empty(heads, self.head_width, width)) for _ in range(layers))
        self.ln_mlp = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        gelu = "tanh" if gelu_tanh else "none"
        self.mlp = nn.ModuleList(
            nn.Sequential(nn.Linear(width, mlp_width), nn.GELU(approximate=gelu), nn.Linear(mlp_width, width))
            for _ in range(layers)
        )
        self.b_out = nn.ParameterList(nn.Parameter(torch.zeros(width)) for _ in range(layers)) if output_bias else None
        self.ln_final = nn.LayerNorm(width)
        self.unembed = nn.Linear(width, vocab, bias=False)
        for weight in [*self.w_qkv, *self.w_out]:
            nn.init.normal_(weight, std=1 / math.sqrt(width))
        self._layer_edges = self._edge_slices()
        self._logit_edges = slice(self._layer_edges[-1][1].stop if layers else 0, len(self.graph))

    @property
    def layers(self) -> int:
        return self.graph.layers

    @property
    def device(self) -> torch.device:
        return self.unembed.weight.device

    def _edge_slices(self) -> list[tuple[slice, slice]]:
        """Per layer, the mask entries of its head inputs and of its MLP input (the logits' follow)."""
        slices, start = [], 0
        for layer in range(self.layers):
            n_qkv = 3 * self.heads * len(self.graph.sources(layer))
            n_mlp = len(self.graph.sources(layer, mlp_input=True))
            slices.append((slice(start, start + n_qkv), slice(start + n_qkv, start + n_qkv + n_mlp)))
            start += n_qkv + n_mlp
        return slices

    def forward(self, tokens: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """Logits (batch, position, vocab); ``mask``: one weight per edge (None: the ordinary model)."""
        if mask is not None and mask.shape != (len(self.graph),):
            raise ValueError(f"mask must have one entry per edge ({len(self.graph)}), got shape {tuple(mask.shape)}")
        positions = torch.arange(tokens.shape[-1], device=tokens.device)
        outputs = [self.embed(tokens) + self.position(positions)]  # the sources so far, in stream order
        stream, biases = outputs[0], None  # biases: the output biases so far (always on; GPT-2 only)

        def masked(weights: torch.Tensor) -> torch.Tensor:
            summed = _weighted_sum(outputs, weights)
            return summed if biases is None else summed + biases

        for layer, (qkv_edges, mlp_edges) in enumerate(self._layer_edges):
            if mask is None:
                qkv_in = stream[:, :, None, None, :].expand(-1, -1, 3, self.heads, -1).contiguous()
            else:
                qkv_in = masked(mask[qkv_edges].view(self.heads, 3, len(outputs)).transpose(0, 1))
            head_outputs = self._attention(layer, qkv_in)
            for i in range(self.heads):
                outputs.append(head_outputs[:, :, i])
                stream = stream + head_outputs[:, :, i]
            if self.b_out is not None:
                stream = stream + self.b_out[layer]
                biases = self.b_out[layer] if biases is None else biases + self.b_out[layer]
            mlp_in = stream if mask is None else masked(mask[mlp_edges])
            outputs.append(self.mlp[layer](self.ln_mlp[layer](mlp_in)))
            stream = stream + outputs[-1]
        final = stream if mask is None else masked(mask[self._logit_edges])
        return self.unembed(self.ln_final(final))

    @classmethod
    def from_state(cls, state: dict) -> EdgeTransformer:
        """The model a state dict was saved from, its sizes read off the tensors' shapes (a GPT-2 conversion has
        output biases, and with them GPT-2's tanh GELU)."""
        layers = len({k.split(".")[1] for k in state if k.startswith("w_qkv.")})
        _, heads, width, _ = state["w_qkv.0"].shape
        bias = "b_out.0" in state
        net = cls(
            *state["embed.weight"].shape[:1],
            state["position.weight"].shape[0],
            layers,
            heads,
            width,
            state["mlp.0.0.weight"].shape[0],
            output_bias=bias,
            gelu_tanh=bias,
        )
        net.load_state_dict({k: torch.as_tensor(v) for k, v in state.items()})
        return net

    def _attention(self, layer: int, qkv_in: torch.Tensor) -> torch.Tensor:
        """Every head of ``layer`` from its own query, key and value inputs (batch, pos, 3, heads, width);
        returns each head's output in the residual basis (batch, pos, heads, width)."""
        normed = self.ln_attn[layer](qkv_in)
        q, k, v = (
            torch.einsum("bphd,hde->bphe", normed[:, :, j], self.w_qkv[layer][j]) + self.b_qkv[layer][j]
            for j in range(3)
        )
        scores = torch.einsum("bqhe,bkhe->bhqk", q, k) / math.sqrt(self.head_width)
        length = scores.shape[-1]
        causal = torch.ones(length, length, dtype=torch.bool, device=scores.device).tril()
        pattern = F.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
        mixed = torch.einsum("bhqk,bkhe->bqhe", pattern, v)
        return torch.einsum("bqhe,hed->bqhd", mixed, self.w_out[layer])


def _weighted_sum(outputs: list[torch.Tensor], weights: torch.Tensor) -> torch.Tensor:
    """sum_n weights[..., n] * outputs[n] for weights of shape (*destinations, n): (batch, pos,
    *destinations, width), a strided view. One matrix product of the weights with the sources stacked
    source-first (a plain copy, so the product runs over contiguous rows): 2-3 times faster than the same
    sum as an einsum over sources stacked last, itself about four times less CPU time in a discovery step
    (profiled) than adding the sources one by one in stream order, which would make an all-ones mask equal
    the ordinary pass bit for bit instead of to round-off."""
    stacked = torch.stack(outputs, dim=0)  # (n, batch, pos, width)
    flat = weights.reshape(-1, weights.shape[-1]).to(stacked.dtype)
    summed = (flat @ stacked.reshape(len(outputs), -1)).reshape(*weights.shape[:-1], *stacked.shape[1:])
    return summed.movedim(tuple(range(weights.dim() - 1)), tuple(range(2, weights.dim() + 1)))
