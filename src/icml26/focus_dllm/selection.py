"""FOCUS's choice of the block tokens worth computing, as pure batched functions: every argument has a leading
batch dimension, one row per sequence's block (spec: ``shared/papers/focus_dllm.md``, "Decoding"). Batched so a
step's selection costs a few tensor operations whatever the batch size: per-sequence Python loops here made
FOCUS slower than the rows it saves.

At layers 0 and 1 every masked token ``j`` gets an importance from the attention of the masked tokens,
``I_j = Σ_h Σ_i softmax_j(maxpool3(q_i·k_j·scale))``; FOCUS keeps the tokens whose importance grows from layer 0 to
layer 1 (``Δ = I⁽¹⁾ − I⁽⁰⁾``), as many as the decoder has recently been able to decode per step, and evicts the rest
from layers ≥ 2.

Definitions that are ours where the spec leaves them open:
- the max-pool runs over the masked keys in position order (window 3, stride 1, edges padded with -inf), so a key
  is as important as its most attended neighbour among the masked tokens;
- the threshold ``mean + std`` uses the population standard deviation of ``Δ`` over the masked tokens, and top-K
  breaks ties towards the left (the earlier position).

The enforcement rules follow the reference implementation (sands-lab/FOCUS, SGLang's ``_focus_enforce_rules`` and
its Triton twin), where the spec's one-line summary differs: the *left* neighbour of a retained masked token is
retained when it is masked (the spec says the right one); a row that would retain nothing retains every masked
token; and the evicted tokens left of the rightmost retained one are retained only beyond the *block progress*,
the rightmost position an earlier step of this block ran through every layer (:class:`Progress`), not from the
first masked position (which retained 80-97 % of the masked tokens on the trained quick model).
"""

from __future__ import annotations

import math

import torch


def front(select: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per row the positions where ``select`` ``[batch, n]`` holds, in position order, then the others:
    ``(index [batch, width], live [batch, width])`` with ``width`` the largest count (at least 1) and ``live``
    marking the selected ones. Each row of ``index`` is part of a permutation, so scattering through it is safe."""
    counts = select.sum(dim=1)
    width = max(1, int(counts.max()))
    index = torch.argsort((~select).to(torch.uint8), dim=1, stable=True)[:, :width]
    return index, torch.arange(width, device=select.device) < counts[:, None]


def _rows(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Rows ``index`` ``[batch, w]`` of ``x`` ``[batch, heads, n, d]``."""
    return torch.gather(x, 2, index[:, None, :, None].expand(-1, x.shape[1], -1, x.shape[3]))


def importance(q: torch.Tensor, k: torch.Tensor, masked: torch.Tensor, scale: float) -> torch.Tensor:
    """``I_j`` for every masked row ``j`` (0 elsewhere). ``q``, ``k``: ``[batch, heads, n, d]`` over ``n`` rows in
    position order; ``masked``: ``[batch, n]`` bool. Each head and masked query contributes a softmax over the
    masked keys, so a row's importances sum to ``heads · |M|``."""
    index, live = front(masked)
    scores = torch.einsum("bhid,bhjd->bhij", _rows(q, index), _rows(k, index)) * scale  # [B, H, w, w]
    keys = live[:, None, None, :]
    scores = scores.masked_fill(~keys, -math.inf)
    width = index.shape[1]
    pooled = torch.nn.functional.max_pool1d(
        torch.nn.functional.pad(scores, (1, 1), value=-math.inf).reshape(-1, 1, width + 2), 3, stride=1
    ).reshape(scores.shape)
    weights = torch.softmax(pooled.masked_fill(~keys, -math.inf), dim=-1)
    weights = torch.where(live[:, None, :, None] & keys, weights, 0.0)  # no masked token: all -inf, NaN
    out = torch.zeros(masked.shape, dtype=q.dtype, device=q.device)
    return out.scatter_(1, index, weights.sum(dim=(1, 2)))


class DecodeRate:
    """Each sequence's running mean of tokens decoded per step, over the steps it still had masked tokens (before
    its first step: 1). A finished sequence adds nothing, so a sequence's retain target never depends on what it is
    batched with (a pooled history would count the finished sequences' zeros)."""

    def __init__(self, batch: int):
        self.decoded = torch.zeros(batch, dtype=torch.float64)
        self.steps = torch.zeros(batch, dtype=torch.float64)

    def mean(self) -> torch.Tensor:
        return torch.where(self.steps > 0, self.decoded / self.steps.clamp(min=1), 1.0)

    def update(self, decoded: list[int], masked: list[int]) -> None:
        """One step: tokens decoded and tokens masked before it, per sequence."""
        active = torch.tensor(masked) > 0
        self.decoded += torch.tensor(decoded, dtype=torch.float64) * active
        self.steps += active


def retain_target(masked, mean_decoded, alpha: float):
    """``K = min(|M|, max(1, ⌈α · running mean of tokens decoded per step⌉))`` for a masked count ``masked`` (an int,
    or a tensor of counts ``[batch]``; a count of 0, a finished block, retains nothing) and its sequence's running
    mean ``mean_decoded`` (a float, or a tensor ``[batch]``: each sequence's own decode rate)."""
    if isinstance(mean_decoded, torch.Tensor):
        cap = torch.clamp(torch.ceil(alpha * mean_decoded), min=1).to(masked.dtype)
        return torch.minimum(masked, cap)
    cap = max(1, math.ceil(alpha * mean_decoded))
    return torch.clamp(masked, max=cap) if isinstance(masked, torch.Tensor) else min(masked, cap)


def select(delta: torch.Tensor, masked: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Per row the masked positions kept by ``Δ`` ``[batch, n]``: those with ``Δ ≥ mean + std`` if there are at
    least ``k`` ``[batch]``, else the ``k`` largest (ties: leftmost). Returns a bool mask over the block."""
    count = masked.sum(dim=1, keepdim=True).clamp(min=1)
    mean = torch.where(masked, delta, 0.0).sum(dim=1, keepdim=True) / count
    std = (torch.where(masked, (delta - mean) ** 2, 0.0).sum(dim=1, keepdim=True) / count).sqrt()
    above = masked & (delta >= mean + std)
    order = torch.sort(torch.where(masked, delta, -math.inf), dim=1, descending=True, stable=True).indices
    rank = torch.empty_like(order).scatter_(
        1, order, torch.arange(delta.shape[1], device=delta.device).expand_as(order)
    )
    top = masked & (rank < k[:, None])
    return torch.where((above.sum(dim=1) >= k)[:, None], above, top)


def rightmost(rows: torch.Tensor) -> torch.Tensor:
    """Per row the last position where ``rows`` ``[batch, n]`` holds, -1 where it holds nowhere."""
    n = rows.shape[1]
    return torch.where(rows.any(dim=1), n - 1 - rows.flip(1).to(torch.uint8).argmax(dim=1), -1)


def enforce(keep: torch.Tensor, masked: torch.Tensor, progress: torch.Tensor) -> torch.Tensor:
    """The reference's enforcement rules, per row: retain the left neighbour of every retained token when it is
    masked (one pass over the selection); a row that would retain none retains every masked token; retain every
    masked token left of the rightmost retained one and right of the block progress ``progress`` ``[batch]``
    (:class:`Progress`; -1 before the block's first step). A row with no masked token retains nothing."""
    position = torch.arange(keep.shape[1], device=keep.device)
    keep = keep & masked
    left = torch.zeros_like(keep)
    left[:, :-1] = keep[:, 1:]
    keep = keep | (left & masked)
    keep = keep | (masked & ~keep.any(dim=1, keepdim=True))
    last = rightmost(keep)[:, None]
    return keep | (masked & (position < last) & (position > progress.to(position.device)[:, None]))


class Progress:
    """Each sequence's block progress: the rightmost position of the current block that a step has run through
    every layer (a retained masked token, or a decoded one still in the processing set), -1 before the block's
    first step. Evicted tokens up to it are left evicted: the reference's ``rightmost_processed``."""

    def __init__(self, batch: int, device=None):
        self.position = torch.full((batch,), -1, dtype=torch.long, device=device)

    def update(self, kept: torch.Tensor) -> None:
        """One step's rows kept through every layer ``[batch, block]``."""
        self.position = torch.maximum(self.position, rightmost(kept))
