"""Block-by-block decoding of a block-diffusion LM: Fast-dLLM threshold decoding (the dense baseline) and FOCUS.

Each generated block starts fully masked. A step runs the block's *processing set* through the model with the
prefix KV cache, then unmasks every masked token whose confidence (top-1 probability) exceeds ``threshold``, or the
single most confident one when none does (so ``threshold = 1`` unmasks exactly one token per step). A decoded
position leaves the processing set once it and its right neighbour are decoded ("delayed cache"): its keys and
values, computed in a step where its input was already the decoded token, are kept and attended to from then on.
When the block is complete it is run once more, clean, and appended to the prefix cache.

FOCUS (``alpha`` set) runs layers 0 and 1 on the whole processing set, scores the masked tokens by the growth of
their attention importance (:mod:`.selection`), and runs layers >= 2 only on the retained masked tokens and the
processing set's decoded ones: physical compaction, fewer rows through most of the network. Only retained tokens
can be decoded in that step. With ``alpha`` large enough to retain every masked token, FOCUS computes exactly what
the dense decoder does (a test checks the tokens are identical).

Ours where the spec leaves it open: a step's rows are packed, the batch's real rows one after another, through
the projections and the MLP (as the reference packs rows ragged per request); attention alone sees them padded
to the batch's widest row set (padding rows masked out as keys, their outputs dropped), since each sequence reads
only its own prefix and block. ``rows`` counts the real rows each layer processes, the deterministic compute
measure beside wall-clock throughput, and ``padding`` the rows attention pads. Each layer's keys and values live
in one buffer per block (prefix, settled rows, this step's rows), so a step writes its rows instead of
concatenating the prefix again; the rotary tables are computed once per row set, not per layer. Every step is a
fixed number of tensor operations whatever the batch size (no loop over sequences), so the wall-clock comparison
of FOCUS and dense decoding measures the rows saved, not Python overhead.

Any model with the interface of :class:`.model.BlockDiffusionLM` decodes here (the paper's SDAR models,
:mod:`.sdar`): key and value buffers hold the model's key-value heads (grouped-query attention; FOCUS's importance
reads each query head against its group's key head), in the model's dtype. Prompts of different lengths come
left-padded to whole blocks with ``valid`` marking the real tokens: padding is never attended to (a padding row
sees itself only) and each sequence's positions start at its first real token, as if it were decoded alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from . import selection
from .model import KV, BlockDiffusionLM, block_causal_mask, extend_cache

FOCUS_LAYERS = 2  # layers 0 and 1 see every row; FOCUS compacts from layer 2 on


@dataclass(frozen=True)
class DecodeSettings:
    threshold: float = 0.9
    alpha: float | None = None  # None: dense; else FOCUS's retain factor
    max_steps_per_block: int | None = None  # default: the block size (a step always unmasks at least one)
    observe: bool = False  # record every masked token's importances, confidence and fate (dense runs too)


@dataclass
class DecodeStats:
    steps: int = 0  # block steps, summed over blocks (the batch shares them)
    decoded: list[int] = field(default_factory=list)  # tokens decoded per sequence and step, flattened
    masked: list[int] = field(default_factory=list)  # masked tokens per sequence at each step
    rows: int = 0  # real rows through attention + MLP, summed over layers and steps (final clean passes too)
    padding: int = 0  # rows attention sees only to pad a sequence's rows to the batch's widest (never the MLP)
    events: list[dict] = field(default_factory=list)  # per sequence and step: masked, retained, decoded (FOCUS)
    observed: list[dict] = field(default_factory=list)  # with ``observe``: per sequence and step, per masked token


def _gather(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Rows ``index`` ``[batch, m]`` of ``x`` ``[batch, n, ...]``."""
    shape = (*index.shape, *x.shape[2:])
    return torch.gather(x, 1, index.view(*index.shape, *([1] * (x.dim() - 2))).expand(shape))


class _Packed:
    """A step's rows two ways: padded ``(index, valid)`` ``[batch, width]`` as :func:`selection.front` lays them
    out, and packed, the real rows one after another (by sequence, then position): ``sequence`` and
    ``positions`` (block positions) per packed row."""

    def __init__(self, index: torch.Tensor, valid: torch.Tensor):
        self.index, self.valid = index, valid
        self.sequence, self.slot = torch.nonzero(valid, as_tuple=True)
        self.positions = index[self.sequence, self.slot]
        self.count = int(self.sequence.numel())

    def pad(self, packed: torch.Tensor) -> torch.Tensor:
        """``[1, heads, rows, d]`` packed -> ``[batch, heads, width, d]``, zeros on padding."""
        out = packed.new_zeros((*self.valid.shape[:1], packed.shape[1], self.valid.shape[1], packed.shape[3]))
        out[self.sequence, :, self.slot] = packed[0].transpose(0, 1)
        return out

    def pack(self, padded: torch.Tensor) -> torch.Tensor:
        """``[batch, heads, width, d]`` -> ``[1, heads, rows, d]``, the real rows only."""
        return padded[self.sequence, :, self.slot].transpose(0, 1)[None]

    def unpack(self, packed: torch.Tensor) -> torch.Tensor:
        """``[1, rows, hidden]`` -> ``[batch, width, hidden]``, zeros on padding."""
        out = packed.new_zeros((*self.valid.shape, packed.shape[-1]))
        out[self.sequence, self.slot] = packed[0]
        return out


class _Block:
    """One block's state for a batch: tokens, and per layer one key buffer and one value buffer laid out
    ``[prefix | the block's settled rows by position | this step's rows]``, so a layer writes only its step's rows
    instead of concatenating the whole prefix again (the prefix is copied in once per block)."""

    def __init__(self, model: BlockDiffusionLM, start: int, cache: list[KV] | None, prefix_valid: torch.Tensor, offset):
        c, (batch, self.prefix) = model.config, prefix_valid.shape
        self.model, self.start, self.size = model, start, c.block_size
        self.prefix_valid, self.offset = prefix_valid, offset  # real prefix positions; each sequence's padding
        self.device = device = model.embed.weight.device
        self.tokens = torch.full((batch, c.block_size), c.mask_token_id, dtype=torch.long, device=device)
        self.settled = torch.zeros((batch, c.block_size), dtype=torch.bool, device=device)
        self.progress = selection.Progress(batch, device)  # FOCUS's block progress
        self.padding = 0  # padding rows computed so far (DecodeStats.padding)
        shape, dtype = (batch, c.kv_heads, self.prefix + 2 * c.block_size, c.head_dim), model.embed.weight.dtype
        self.key_buffers = [torch.zeros(shape, device=device, dtype=dtype) for _ in range(c.layers)]
        self.value_buffers = [torch.zeros(shape, device=device, dtype=dtype) for _ in range(c.layers)]
        for layer, (k, v) in enumerate(cache or []):
            self.key_buffers[layer][:, :, : self.prefix] = k
            self.value_buffers[layer][:, :, : self.prefix] = v
        settled = slice(self.prefix, self.prefix + c.block_size)  # views: settle() writes through them
        self.keys = [buffer[:, :, settled] for buffer in self.key_buffers]
        self.values = [buffer[:, :, settled] for buffer in self.value_buffers]

    @property
    def masked(self) -> torch.Tensor:
        return self.tokens == self.model.config.mask_token_id

    def run(self, rows: torch.Tensor, keep_from_focus) -> tuple[torch.Tensor, list, int]:
        """Hidden states of the processing rows ``rows`` ``[batch, n]`` (bool over the block) through every
        layer; ``keep_from_focus(index, valid)`` may return a smaller row mask at layer 2 (its ``record`` sees
        the queries and keys of layers 0 and 1). Returns the final hidden states ``[batch, width, hidden]`` in
        the rows' padded layout ``(index, valid)`` (:func:`selection.front`), each layer's (index, valid, k,
        v), and the real rows processed.

        The rows are *packed* (the batch's real rows one after another, no padding) through the projections and
        the MLP, where nearly all the compute is; only attention, which reads each sequence's own keys, sees
        them padded to the batch's widest row set (:class:`_Packed`). Padding thus costs a few copies and some
        attention scores, not layers of matrix products."""
        rows_now = _Packed(*selection.front(rows))
        tables = self._rotary(rows_now)
        x = self.model.embed(self.tokens[rows_now.sequence, rows_now.positions])[None]  # [1, rows, hidden]
        saved, processed = [], 0
        mask = self._mask(rows_now.valid)
        for i, layer in enumerate(self.model.layers):
            if i == FOCUS_LAYERS and keep_from_focus is not None:
                keep = keep_from_focus(rows_now.index, rows_now.valid)
                if keep is not None:
                    x = x[:, keep[rows_now.sequence, rows_now.positions]]  # packed order is kept: by sequence, position
                    rows_now = _Packed(*selection.front(keep))
                    tables = self._rotary(rows_now)
                    mask = self._mask(rows_now.valid)
            q, k, v = (rows_now.pad(t) for t in layer.project(x, tables))
            if keep_from_focus is not None and i < FOCUS_LAYERS:
                keep_from_focus.record(i, q, k, rows_now.index, rows_now.valid)
            saved.append((rows_now.index, rows_now.valid, k, v))
            keys, values = self._keys(i, k, v)
            read = rows_now.pack(layer.attend(q, keys, values, mask))  # [1, heads, rows, d]
            x = x + layer.out(read.transpose(1, 2).reshape(1, rows_now.count, -1))
            x = layer.feed_forward(x)
            processed += rows_now.count
            self.padding += rows_now.valid.numel() - rows_now.count
        return rows_now.unpack(x), rows_now.index, rows_now.valid, saved, processed

    def _rotary(self, rows: _Packed):
        """The rotary tables of the packed rows, at their sequences' own positions."""
        return self.model.rotary((self.start + rows.positions - self.offset[rows.sequence])[None])

    def _mask(self, valid: torch.Tensor) -> torch.Tensor:
        """``[batch, 1, 1, keys]``: the real prefix, the settled rows and this step's real rows (every row sees the
        same keys)."""
        return torch.cat([self.prefix_valid, self.settled, valid], dim=1)[:, None, None, :]

    def _keys(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The keys and values this step's rows attend to: the layer's buffers with ``k``, ``v`` written after
        the settled rows."""
        end = self.prefix + self.size + k.shape[2]
        self.key_buffers[layer][:, :, self.prefix + self.size : end] = k
        self.value_buffers[layer][:, :, self.prefix + self.size : end] = v
        return self.key_buffers[layer][:, :, :end], self.value_buffers[layer][:, :, :end]

    def settle(self, saved, decoded_before: torch.Tensor) -> None:
        """Rows whose input was a decoded token this step and whose right neighbour is now decoded keep this
        step's keys and values."""
        done = ~self.masked
        right = torch.ones_like(done)
        right[:, :-1] = done[:, 1:]
        settle = decoded_before & right & ~self.settled
        for layer, (index, valid, k, v) in enumerate(saved):
            bs, slots = torch.nonzero(valid & torch.gather(settle, 1, index), as_tuple=True)
            self.keys[layer][bs, :, index[bs, slots]] = k[bs, :, slots]
            self.values[layer][bs, :, index[bs, slots]] = v[bs, :, slots]
        self.settled |= settle


class _Focus:
    """FOCUS's selection at layer 2 from the importances recorded at layers 0 and 1 (``alpha`` None: record them
    and select nothing, the dense decoder observed). When no sequence can evict anything this step (its retain
    target covers its masked tokens) the importances are not computed and nothing is compacted: the step is the
    dense one, as selecting every row would make it (the early exit the reference takes too)."""

    def __init__(self, block: _Block, alpha: float | None, mean_decoded: torch.Tensor, observe: bool = False):
        self.block, self.alpha, self.mean_decoded = block, alpha, mean_decoded
        self.importance: dict[int, torch.Tensor] = {}
        self.retained: torch.Tensor | None = None
        self.target = None
        self.evictable = False
        if alpha is not None:
            counts = block.masked.sum(dim=1)
            self.target = selection.retain_target(counts, mean_decoded, alpha)
            self.evictable = bool((self.target < counts).any())
        self.observing = observe or self.evictable

    def record(self, layer, q, k, index, valid) -> None:
        if not self.observing:
            return
        row_masked = _gather(self.block.masked, index) & valid
        k = k.repeat_interleave(q.shape[1] // k.shape[1], dim=1)  # each query head against its group's key head
        found = selection.importance(q.float(), k.float(), row_masked, q.shape[-1] ** -0.5)
        self.importance[layer] = torch.zeros(self.block.masked.shape, device=found.device).scatter_(1, index, found)

    def __call__(self, index, valid) -> torch.Tensor | None:
        if self.alpha is None:
            return None
        masked = self.block.masked
        rows = torch.zeros_like(masked).scatter_(1, index, valid)
        if not self.evictable:
            self.retained = masked
            self.block.progress.update(rows)
            return None
        delta = self.importance[1] - self.importance[0]
        selected = selection.select(delta, masked, self.target)
        self.retained = selection.enforce(selected, masked, self.block.progress.position)
        kept = self.retained | (rows & ~masked)  # the retained masked rows and the processing set's decoded rows
        self.block.progress.update(kept)
        return kept


def _observation(focus: _Focus, b: int, block: int, index, valid, masked, confidence, unmask, mean_decoded) -> dict:
    """One sequence's step, per masked token in position order (``position`` within block ``block``): I at layers 0
    and 1, confidence, decoded; ``sequence`` is the row of the batch."""
    rows = index[b][valid[b]]
    order = torch.argsort(rows)
    rows, conf, done = rows[order], confidence[b][valid[b]][order], unmask[b][valid[b]][order]
    keep = masked[b, rows]
    return {
        "sequence": b,
        "block": block,
        "position": rows[keep].tolist(),
        "i0": focus.importance[0][b, rows[keep]].tolist(),
        "i1": focus.importance[1][b, rows[keep]].tolist(),
        "confidence": conf[keep].tolist(),
        "decoded": done[keep].tolist(),
        "mean_decoded": float(mean_decoded[b]),
    }


@torch.no_grad()
def decode(
    model: BlockDiffusionLM,
    prompts: torch.Tensor,
    blocks: int,
    settings: DecodeSettings,
    prompt_valid: torch.Tensor | None = None,
):
    """Generate ``blocks`` blocks after ``prompts`` ``[batch, P]`` (P a multiple of the block size) on the model's
    device; ``prompt_valid`` ``[batch, P]`` marks the real tokens of left-padded prompts (default: all real).
    Returns the generated tokens ``[batch, blocks·block_size]`` (on the CPU) and :class:`DecodeStats`."""
    c, device = model.config, model.embed.weight.device
    prompts = prompts.to(device)
    if prompts.shape[1] % c.block_size:
        raise ValueError(f"prompt length {prompts.shape[1]} is not a multiple of the block size {c.block_size}")
    batch, length = prompts.shape
    limit = settings.max_steps_per_block or c.block_size
    stats = DecodeStats()
    mask = block_causal_mask(length, c.block_size, device)
    if prompt_valid is None:
        prompt_valid = torch.ones_like(prompts, dtype=torch.bool)
        clean = None  # every cached position and every row (forward's default)
    else:
        prompt_valid = prompt_valid.to(device)
        mask = mask & (prompt_valid[:, None, None, :] | torch.eye(length, dtype=torch.bool, device=device))
        clean = torch.ones((batch, c.block_size), dtype=torch.bool, device=device)
    offset = (~prompt_valid).sum(dim=1)  # left padding: each sequence's positions start at its first real token
    positions = (torch.arange(length, device=device) - offset[:, None]).clamp(min=0)
    _, cache = model(prompts, positions, mask=mask)
    stats.rows += batch * length * c.layers
    out = []
    rate = selection.DecodeRate(batch)
    for n in range(blocks):
        block = _Block(model, length + n * c.block_size, cache, prompt_valid, offset)
        for step in range(limit + 1):
            masked = block.masked
            if not masked.any():
                break
            if step == limit:
                raise RuntimeError(f"block {n} still has masked tokens after {limit} steps")
            focus = None
            mean = rate.mean().to(device)
            if settings.alpha is not None or settings.observe:
                focus = _Focus(block, settings.alpha, mean, settings.observe)
            decoded_before = ~masked
            x, index, valid, saved, processed = block.run(~block.settled, focus)
            stats.rows += processed
            logits = model.logits(x).float()
            logits[..., c.mask_token_id] = -torch.inf  # a token is never decoded to the mask
            probs = torch.softmax(logits, dim=-1)
            confidence, choice = probs.max(dim=-1)
            candidate = _gather(masked, index) & valid
            if focus is not None and focus.retained is not None:
                candidate &= _gather(focus.retained, index)
            confidence = torch.where(candidate, confidence, torch.full_like(confidence, -1.0))
            unmask = candidate & (confidence > settings.threshold)
            best = confidence.argmax(dim=1)
            none = ~unmask.any(dim=1) & candidate.any(dim=1)
            unmask[none, best[none]] = True
            block.tokens.scatter_(1, index, torch.where(unmask, choice, _gather(block.tokens, index)))
            counts, masked_counts = unmask.sum(dim=1).tolist(), masked.sum(dim=1).tolist()
            stats.decoded += counts
            stats.masked += masked_counts
            rate.update(counts, masked_counts)
            if focus is not None and focus.retained is not None:
                retained = focus.retained.sum(dim=1).tolist()
                stats.events += [
                    {"masked": m, "retained": r, "decoded": d} for m, r, d in zip(masked_counts, retained, counts)
                ]
            if settings.observe:
                stats.observed += [
                    _observation(focus, b, n, index, valid, masked, confidence, unmask, mean)
                    for b in range(batch)
                    if masked_counts[b]  # a finished sequence has nothing to observe
                ]
            stats.steps += 1
            block.settle(saved, decoded_before)
        positions = block.start + torch.arange(c.block_size, device=device) - offset[:, None]
        stats.padding += block.padding
        keys = None if clean is None else torch.cat([prompt_valid, clean], dim=1)[:, None, None, :]
        _, own = model(block.tokens, positions, cache, mask=keys)
        prompt_valid = torch.cat([prompt_valid, torch.ones_like(block.settled)], dim=1)
        stats.rows += batch * c.block_size * c.layers
        cache = extend_cache(cache, own)
        out.append(block.tokens)
    return torch.cat(out, dim=1).cpu(), stats
