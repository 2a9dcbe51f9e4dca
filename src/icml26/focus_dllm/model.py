"""A small block-diffusion language model: a pre-norm transformer (RoPE, SwiGLU) whose attention is
block-causal — full inside a block, causal across blocks — with an exact prefix KV cache.

No library ships block diffusion, so the module is ours (torch and ``scaled_dot_product_attention``). Its interface
stays close to a Hugging Face causal LM (a config object, ``forward(input_ids, positions, past_key_values)``
returning logits and the new keys and values). Each layer also exposes its parts (:meth:`Layer.project`,
:meth:`Layer.attend`, ``out``, :meth:`Layer.feed_forward`) so the FOCUS decoder can read a layer's queries and
keys and run later layers on a subset of the rows. That is the decoder's whole interface to a model
(:mod:`.decoding`): the paper's SDAR models (:mod:`.sdar`) expose the same parts over their own weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

KV = tuple[torch.Tensor, torch.Tensor]  # keys, values: [batch, heads, positions, head_dim]


@dataclass(frozen=True)
class BlockDiffusionConfig:
    vocab_size: int
    mask_token_id: int
    hidden_size: int = 128
    layers: int = 4
    heads: int = 4
    intermediate_size: int = 384
    block_size: int = 16
    max_positions: int = 256
    rope_theta: float = 10000.0

    def __post_init__(self):
        if self.hidden_size % self.heads or (self.hidden_size // self.heads) % 2:
            raise ValueError(f"hidden_size {self.hidden_size} needs an even head size over {self.heads} heads")

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.heads

    @property
    def kv_heads(self) -> int:
        return self.heads  # one key and value head per query head (the SDAR models group them)


Rotary = tuple[torch.Tensor, torch.Tensor]  # cos, sin: [batch, 1, n, head_dim / 2]


def rotary(positions: torch.Tensor, config: BlockDiffusionConfig) -> Rotary:
    """The rotary tables of ``positions`` ``[batch, n]``, computed once for every layer that sees these rows."""
    d = config.head_dim
    freqs = config.rope_theta ** (-torch.arange(0, d, 2, dtype=torch.float32, device=positions.device) / d)
    angles = positions.to(torch.float32)[:, None, :, None] * freqs
    return angles.cos(), angles.sin()


def _rope(x: torch.Tensor, tables: Rotary) -> torch.Tensor:
    """Rotary position embedding of ``x`` ``[..., batch, heads, n, d]`` by its rows' ``tables``."""
    cos, sin = (t.to(x.dtype) for t in tables)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


class Layer(nn.Module):
    def __init__(self, config: BlockDiffusionConfig):
        super().__init__()
        self.config = config
        h = config.hidden_size
        self.attention_norm = nn.RMSNorm(h, eps=1e-6)
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h, bias=False)
        self.mlp_norm = nn.RMSNorm(h, eps=1e-6)
        self.gate_up = nn.Linear(h, 2 * config.intermediate_size, bias=False)
        self.down = nn.Linear(config.intermediate_size, h, bias=False)

    def project(self, x: torch.Tensor, tables: Rotary) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Queries, keys and values ``[batch, heads, n, d]`` of the rows ``x`` ``[batch, n, hidden]``, rotated by
        the rows' :func:`rotary` ``tables``."""
        b, n, _ = x.shape
        c = self.config
        qkv = self.qkv(self.attention_norm(x)).view(b, n, 3, c.heads, c.head_dim).permute(2, 0, 3, 1, 4)
        q, k = _rope(qkv[:2], tables).unbind(0)  # queries and keys rotated in one pass: the same numbers
        return q, k, qkv[2]

    @staticmethod
    def attend(q, keys, values, mask) -> torch.Tensor:
        """What the queries ``q`` ``[batch, heads, n, d]`` read from the keys and values they may see; ``mask``
        ``[batch or 1, 1, n, keys]`` bool, True where a row attends. ``[batch, heads, n, d]``."""
        return nn.functional.scaled_dot_product_attention(q, keys, values, attn_mask=mask)

    def feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = self.gate_up(self.mlp_norm(x)).chunk(2, dim=-1)
        return x + self.down(nn.functional.silu(gate) * up)


class BlockDiffusionLM(nn.Module):
    def __init__(self, config: BlockDiffusionConfig):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(Layer(config) for _ in range(config.layers))
        self.norm = nn.RMSNorm(config.hidden_size, eps=1e-6)
        self.head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.head.weight = self.embed.weight  # tied, as the toolkit's models are
        self.apply(self._init)

    @staticmethod
    def _init(module: nn.Module) -> None:
        if isinstance(module, nn.Linear | nn.Embedding):
            nn.init.normal_(module.weight, std=0.02)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.norm(x))

    def rotary(self, positions: torch.Tensor) -> Rotary:
        return rotary(positions, self.config)

    def with_layers(self, layers: int) -> BlockDiffusionLM:
        """A model of this one's width at depth ``layers``, random weights (the depth measurement)."""
        import dataclasses

        return BlockDiffusionLM(dataclasses.replace(self.config, layers=layers))

    def forward(
        self,
        input_ids: torch.Tensor,
        positions: torch.Tensor,
        past_key_values: list[KV] | None = None,
        mask: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, list[KV]]:
        """Logits of the rows ``input_ids`` ``[batch, n]`` at ``positions`` ``[batch, n]``, attending to the cached
        ``past_key_values`` (one ``(keys, values)`` per layer) and to each other under ``mask`` ``[.., n, past +
        n]`` (default: every cached position and every row, i.e. one block after its prefix). Returns the logits
        and this call's own keys and values per layer (what a cache appends once the block is final)."""
        return run_layers(self, input_ids, positions, past_key_values, mask)


def run_layers(model, input_ids, positions, past_key_values, mask) -> tuple[torch.Tensor, list[KV]]:
    """``model``'s forward pass through the decoder's interface (``embed``, ``rotary``, each layer's ``project``,
    ``attend``, ``out``, ``feed_forward``, ``logits``): the one forward every architecture here shares."""
    x = model.embed(input_ids)
    tables = model.rotary(positions)
    own = []
    for i, layer in enumerate(model.layers):
        q, k, v = layer.project(x, tables)
        own.append((k, v))
        if past_key_values is not None:
            k = torch.cat([past_key_values[i][0], k], dim=2)
            v = torch.cat([past_key_values[i][1], v], dim=2)
        read = layer.attend(q, k, v, mask)
        x = layer.feed_forward(x + layer.out(read.transpose(1, 2).reshape(*x.shape[:2], -1)))
    return model.logits(x), own


def block_causal_mask(length: int, block_size: int, device=None) -> torch.Tensor:
    """``[1, 1, length, length]`` bool: position i attends to j iff j's block is not after i's."""
    blocks = torch.arange(length, device=device) // block_size
    return (blocks[None, :] <= blocks[:, None])[None, None]


def extend_cache(cache: list[KV] | None, new: list[KV]) -> list[KV]:
    if cache is None:
        return [(k, v) for k, v in new]
    return [(torch.cat([ck, k], dim=2), torch.cat([cv, v], dim=2)) for (ck, cv), (k, v) in zip(cache, new)]


def save(model: BlockDiffusionLM, folder) -> None:
    """``config.json`` and ``model.safetensors`` in ``folder``, written beside it and renamed into place (the same
    weights give byte-identical files)."""
    import dataclasses
    import shutil
    from pathlib import Path

    from safetensors.torch import save_model

    from ..common.io import temporary_sibling, write_json

    folder = Path(folder)
    tmp = temporary_sibling(folder)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    write_json(tmp / "config.json", dataclasses.asdict(model.config))
    save_model(model, str(tmp / "model.safetensors"))
    if folder.exists():
        shutil.rmtree(folder)
    tmp.rename(folder)


def load(folder) -> BlockDiffusionLM:
    """A model saved by :func:`save` (ours, or a user's of this architecture). A missing or malformed folder, a
    config of another architecture, damaged weights or weights that do not cover the model are one line naming
    the folder or file (:mod:`..common.checkpoints`)."""
    from pathlib import Path

    from ..common.checkpoints import load_state
    from ..common.io import read_json
    from ..common.sources import fail

    folder = Path(folder)
    if not (folder / "config.json").is_file() or not (folder / "model.safetensors").is_file():
        fail(folder, "not a block-diffusion model folder (config.json and model.safetensors)")
    try:
        config = BlockDiffusionConfig(**read_json(folder / "config.json"))
        model = BlockDiffusionLM(config)
    except (TypeError, ValueError, RuntimeError) as error:
        fail(folder / "config.json", f"not a block-diffusion model config ({str(error).splitlines()[0]})")
    return load_state(model, folder / "model.safetensors").eval()
