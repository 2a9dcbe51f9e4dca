"""FOCUS's choice of the block tokens worth computing, as pure functions on one block (spec:
``shared/papers/focus_dllm.md``, "Decoding").

At layers 0 and 1 every masked token ``j`` gets an importance from the attention of the masked tokens,
``I_j = Σ_h Σ_i softmax_j(maxpool3(q_i·k_j·scale))``; FOCUS keeps the tokens whose importance grows from layer 0 to
layer 1 (``Δ = I⁽¹⁾ − I⁽⁰⁾``), as many as the decoder has recently been able to decode per step, and evicts the rest
from layers ≥ 2.

Definitions that are ours where the spec leaves them open:
- the max-pool runs over the masked keys in position order (window 3, stride 1, edges padded with -inf), so a key
  is as important as its most attended neighbour among the masked tokens;
- the threshold ``mean + std`` uses the population standard deviation of ``Δ`` over the masked tokens, and top-K
  breaks ties towards the left (the earlier position);
- "block progress" is the first masked position: the enforcement retains every masked token from there up to the
  rightmost retained one.
"""

from __future__ import annotations

import math

import torch


def importance(q: torch.Tensor, k: torch.Tensor, masked: torch.Tensor, scale: float) -> torch.Tensor:
    """``I_j`` for every masked position ``j`` (0 elsewhere). ``q``, ``k``: ``[heads, n, d]`` over the block's
    ``n`` positions; ``masked``: ``[n]`` bool. Each head and query contributes a softmax over the masked keys,
    so ``Σ_j I_j = heads · |M|``."""
    index = torch.nonzero(masked, as_tuple=True)[0]
    out = torch.zeros(masked.shape[0], dtype=q.dtype, device=q.device)
    if index.numel() == 0:
        return out
    scores = torch.einsum("hid,hjd->hij", q[:, index], k[:, index]) * scale  # [H, |M|, |M|]
    pooled = torch.nn.functional.max_pool1d(
        torch.nn.functional.pad(scores, (1, 1), value=-math.inf).reshape(-1, 1, index.numel() + 2), 3, stride=1
    ).reshape(scores.shape)
    out[index] = torch.softmax(pooled, dim=-1).sum(dim=(0, 1))
    return out


def retain_target(masked: int, mean_decoded: float, alpha: float) -> int:
    """``K = min(|M|, max(1, ⌈α · running mean of tokens decoded per step⌉))``."""
    if masked < 1:
        raise ValueError("a block step needs at least one masked token")
    return min(masked, max(1, math.ceil(alpha * mean_decoded)))


def select(delta: torch.Tensor, masked: torch.Tensor, k: int) -> torch.Tensor:
    """The masked positions kept by ``Δ``: those with ``Δ ≥ mean + std`` if there are at least ``k``, else the
    ``k`` largest (ties: leftmost). Returns a bool mask over the block."""
    index = torch.nonzero(masked, as_tuple=True)[0]
    values = delta[index]
    keep = torch.zeros_like(masked)
    threshold = values.mean() + values.std(correction=0)
    above = index[values >= threshold]
    if above.numel() >= k:
        keep[above] = True
    else:
        order = sorted(range(index.numel()), key=lambda i: (-float(values[i]), int(index[i])))[:k]
        keep[index[order]] = True
    return keep


def enforce(keep: torch.Tensor, masked: torch.Tensor) -> torch.Tensor:
    """The enforcement rules: never retain none (the first masked position, then); retain the right neighbour
    of every retained token that is masked; retain every masked token from the block progress (the first
    masked position) to the rightmost retained one."""
    keep = keep & masked
    index = torch.nonzero(masked, as_tuple=True)[0]
    if index.numel() == 0:
        return keep
    if not keep.any():
        keep[index[0]] = True
    right = torch.zeros_like(keep)
    right[1:] = keep[:-1]
    keep = keep | (right & masked)
    rightmost = int(torch.nonzero(keep, as_tuple=True)[0].max())
    span = torch.zeros_like(keep)
    span[int(index[0]) : rightmost + 1] = True
    return keep | (span & masked)
