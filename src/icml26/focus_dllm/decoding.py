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

Ours where the spec leaves it open: rows are batched by padding each sequence's row set to the batch's largest
(padding rows stand at positions outside the set, are masked out as keys and their outputs dropped); ``rows``
counts the real rows each layer processes, the deterministic compute measure beside wall-clock throughput. Every
step is a fixed number of tensor operations whatever the batch size (no loop over sequences), so the wall-clock
comparison of FOCUS and dense decoding measures the rows saved, not Python overhead.
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
    events: list[dict] = field(default_factory=list)  # per sequence and step: masked, retained, decoded (FOCUS)
    observed: list[dict] = field(default_factory=list)  # with ``observe``: per sequence and step, per masked token


def _gather(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Rows ``index`` ``[batch, m]`` of ``x`` ``[batch, n, ...]``."""
    shape = (*index.shape, *x.shape[2:])
    return torch.gather(x, 1, index.view(*index.shape, *([1] * (x.dim() - 2))).expand(shape))


class _Block:
    """One block's state for a batch: tokens, and the settled rows' keys and values per layer."""

    def __init__(self, model: BlockDiffusionLM, batch: int, start: int):
        c = model.config
        self.model, self.start, self.size = model, start, c.block_size
        self.device = device = model.embed.weight.device
        self.tokens = torch.full((batch, c.block_size), c.mask_token_id, dtype=torch.long, device=device)
        self.settled = torch.zeros((batch, c.block_size), dtype=torch.bool, device=device)
        shape = (batch, c.heads, c.block_size, c.head_dim)
        self.keys = [torch.zeros(shape, device=device) for _ in range(c.layers)]
        self.values = [torch.zeros(shape, device=device) for _ in range(c.layers)]

    @property
    def masked(self) -> torch.Tensor:
        return self.tokens == self.model.config.mask_token_id

    def run(self, rows: torch.Tensor, cache: list[KV] | None, keep_from_focus) -> tuple[torch.Tensor, list, int]:
        """Hidden states of the processing rows ``rows`` ``[batch, n]`` (bool over the block) through every
        layer; ``keep_from_focus(index, valid)`` may return a smaller row mask at layer 2 (its ``record`` sees
        the queries and keys of layers 0 and 1). Returns
        the final hidden states by block position, each layer's (index, k, v), and the real rows processed."""
        index, valid = selection.front(rows)
        positions = self.start + index
        x = self.model.embed(_gather(self.tokens, index))
        saved, processed = [], 0
        for i, layer in enumerate(self.model.layers):
            if i == FOCUS_LAYERS and keep_from_focus is not None:
                keep = keep_from_focus(index, valid)
                if keep is not None:
                    new_index, new_valid = selection.front(keep)
                    slots = torch.arange(index.shape[1], device=self.device).expand_as(index)
                    slot_of = torch.zeros_like(self.tokens).scatter_(1, index, slots)  # block position -> row
                    where = torch.gather(slot_of, 1, new_index)
                    x, index, valid, positions = _gather(x, where), new_index, new_valid, self.start + new_index
            q, k, v = layer.project(x, positions)
            if keep_from_focus is not None and i < FOCUS_LAYERS:
                keep_from_focus.record(i, q, k, index, valid)
            saved.append((index, valid, k, v))
            keys, values, mask = self._keys(i, cache, k, v, valid)
            x = layer.feed_forward(layer.attend(x, q, keys, values, mask))
            processed += int(valid.sum())
        return x, index, valid, saved, processed

    def _keys(self, layer: int, cache, k, v, valid):
        batch = k.shape[0]
        parts_k, parts_v, masks = [], [], []
        if cache is not None:
            parts_k.append(cache[layer][0])
            parts_v.append(cache[layer][1])
            masks.append(torch.ones((batch, cache[layer][0].shape[2]), dtype=torch.bool, device=self.device))
        parts_k += [self.keys[layer], k]
        parts_v += [self.values[layer], v]
        masks += [self.settled, valid]
        mask = torch.cat(masks, dim=1)[:, None, None, :]  # every row sees the same keys
        return torch.cat(parts_k, dim=2), torch.cat(parts_v, dim=2), mask

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
    and select nothing, the dense decoder observed)."""

    def __init__(self, block: _Block, alpha: float | None, mean_decoded: torch.Tensor):
        self.block, self.alpha, self.mean_decoded = block, alpha, mean_decoded
        self.importance: dict[int, torch.Tensor] = {}
        self.retained: torch.Tensor | None = None

    def record(self, layer, q, k, index, valid) -> None:
        row_masked = _gather(self.block.masked, index) & valid
        found = selection.importance(q, k, row_masked, q.shape[-1] ** -0.5)
        self.importance[layer] = torch.zeros(self.block.masked.shape, device=found.device).scatter_(1, index, found)

    def __call__(self, index, valid) -> torch.Tensor | None:
        if self.alpha is None:
            return None
        masked = self.block.masked
        k = selection.retain_target(masked.sum(dim=1), self.mean_decoded, self.alpha)
        delta = self.importance[1] - self.importance[0]
        self.retained = selection.enforce(selection.select(delta, masked, k), masked)
        rows = torch.zeros_like(masked).scatter_(1, index, valid)
        return self.retained | (rows & ~masked)  # the retained masked rows and the processing set's decoded rows


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
def decode(model: BlockDiffusionLM, prompts: torch.Tensor, blocks: int, settings: DecodeSettings):
    """Generate ``blocks`` blocks after ``prompts`` ``[batch, P]`` (P a multiple of the block size) on the model's
    device. Returns the generated tokens ``[batch, blocks·block_size]`` (on the CPU) and :class:`DecodeStats`."""
    c, device = model.config, model.embed.weight.device
    prompts = prompts.to(device)
    if prompts.shape[1] % c.block_size:
        raise ValueError(f"prompt length {prompts.shape[1]} is not a multiple of the block size {c.block_size}")
    batch = prompts.shape[0]
    limit = settings.max_steps_per_block or c.block_size
    stats = DecodeStats()
    positions = torch.arange(prompts.shape[1], device=device).expand(batch, -1)
    _, cache = model(prompts, positions, mask=block_causal_mask(prompts.shape[1], c.block_size, device))
    stats.rows += batch * prompts.shape[1] * c.layers
    out = []
    rate = selection.DecodeRate(batch)
    for n in range(blocks):
        block = _Block(model, batch, prompts.shape[1] + n * c.block_size)
        for step in range(limit + 1):
            masked = block.masked
            if not masked.any():
                break
            if step == limit:
                raise RuntimeError(f"block {n} still has masked tokens after {limit} steps")
            focus = None
            mean = rate.mean().to(device)
            if settings.alpha is not None or settings.observe:
                focus = _Focus(block, settings.alpha, mean)
            decoded_before = ~masked
            x, index, valid, saved, processed = block.run(~block.settled, cache, focus)
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
        positions = (block.start + torch.arange(c.block_size, device=device)).expand(batch, -1)
        _, own = model(block.tokens, positions, cache)
        stats.rows += batch * c.block_size * c.layers
        cache = extend_cache(cache, own)
        out.append(block.tokens)
    return torch.cat(out, dim=1).cpu(), stats
