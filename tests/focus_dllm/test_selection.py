"""The spec's oracles for FOCUS's token choice: the importance sums to heads·|M|, K and the enforcement rules on
hand-built vectors."""

import pytest
import torch

from icml26.focus_dllm import selection as s


def test_importance_sums_to_heads_times_masked_and_is_zero_elsewhere():
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(4, 10, 8, generator=g), torch.randn(4, 10, 8, generator=g)
    masked = torch.tensor([0, 1, 1, 0, 1, 1, 1, 0, 1, 1], dtype=torch.bool)
    found = s.importance(q, k, masked, scale=8**-0.5)
    assert float(found.sum()) == pytest.approx(4 * 7, rel=1e-6)
    assert (found[~masked] == 0).all() and (found[masked] > 0).all()
    assert s.importance(q, k, torch.zeros(10, dtype=torch.bool), 1.0).abs().sum() == 0


def test_importance_max_pools_over_neighbouring_masked_keys():
    # one head, two masked queries; raw scores favour key 0 only, so after the window-3 max-pool keys 0 and 1
    # tie (both see score 10), key 2 sees only its neighbour 1's score
    q = torch.tensor([[[1.0, 0.0], [1.0, 0.0]]])
    k = torch.tensor([[[10.0, 0.0], [0.0, 0.0], [0.0, 0.0]]])
    q = torch.cat([q, q[:, :1]], dim=1)  # three positions, all masked
    found = s.importance(q, k, torch.ones(3, dtype=torch.bool), scale=1.0)
    assert found[0] == pytest.approx(found[1]) and found[2] < found[1]


def test_retain_target():
    assert s.retain_target(masked=10, mean_decoded=2.3, alpha=1.5) == 4  # ceil(3.45)
    assert s.retain_target(masked=3, mean_decoded=2.3, alpha=2.0) == 3  # capped at |M|
    assert s.retain_target(masked=10, mean_decoded=0.0, alpha=1.0) == 1  # at least one
    with pytest.raises(ValueError):
        s.retain_target(0, 1.0, 1.0)


def test_select_uses_the_threshold_when_it_keeps_enough_else_top_k():
    masked = torch.ones(6, dtype=torch.bool)
    delta = torch.tensor([0.0, 5.0, 0.0, 4.0, 0.0, 0.0])  # mean 1.5, std 2.14: threshold 3.64 keeps 1 and 3
    assert s.select(delta, masked, k=2).nonzero().flatten().tolist() == [1, 3]
    assert s.select(delta, masked, k=3).nonzero().flatten().tolist() == [0, 1, 3]  # top-3: tie at 0 -> leftmost
    partly = torch.tensor([1, 1, 0, 1, 1, 1], dtype=torch.bool)
    assert s.select(delta, partly, k=1).nonzero().flatten().tolist() == [1]  # position 2 is not masked


def test_enforcement_rules():
    masked = torch.tensor([0, 1, 1, 1, 1, 1, 1, 1], dtype=torch.bool)
    none = torch.zeros(8, dtype=torch.bool)
    assert s.enforce(none, masked).nonzero().flatten().tolist() == [1, 2]  # never none: first masked + neighbour
    keep = torch.zeros(8, dtype=torch.bool)
    keep[4] = True
    # 4's right neighbour 5; then every masked token from the progress (1) to the rightmost retained (5)
    assert s.enforce(keep, masked).nonzero().flatten().tolist() == [1, 2, 3, 4, 5]
    gap = torch.tensor([0, 0, 1, 0, 1, 1, 0, 1], dtype=torch.bool)
    keep = torch.zeros(8, dtype=torch.bool)
    keep[7] = True
    assert s.enforce(keep, gap).nonzero().flatten().tolist() == [2, 4, 5, 7]  # decoded positions never retained
