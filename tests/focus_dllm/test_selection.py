"""The spec's oracles for FOCUS's token choice: the importance sums to heads·|M|, K and the enforcement rules on
hand-built vectors; and a batch gives each row what that row gives alone."""

import pytest
import torch

from icml26.focus_dllm import selection as s


def _rows(mask: list[int]) -> torch.Tensor:
    return torch.tensor([mask], dtype=torch.bool)


def _kept(keep: torch.Tensor) -> list[list[int]]:
    return [row.nonzero().flatten().tolist() for row in keep]


def test_front_lists_the_selected_positions_first_in_order():
    index, live = s.front(torch.tensor([[0, 1, 0, 1, 1], [0, 0, 0, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.bool))
    assert index.tolist() == [[1, 3, 4], [0, 1, 2], [0, 1, 2]]
    assert live.tolist() == [[True, True, True], [False, False, False], [True, False, False]]


def test_importance_sums_to_heads_times_masked_and_is_zero_elsewhere():
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(1, 4, 10, 8, generator=g), torch.randn(1, 4, 10, 8, generator=g)
    masked = _rows([0, 1, 1, 0, 1, 1, 1, 0, 1, 1])
    found = s.importance(q, k, masked, scale=8**-0.5)
    assert float(found.sum()) == pytest.approx(4 * 7, rel=1e-6)
    assert (found[~masked] == 0).all() and (found[masked] > 0).all()
    assert s.importance(q, k, torch.zeros(1, 10, dtype=torch.bool), 1.0).abs().sum() == 0


def test_importance_max_pools_over_neighbouring_masked_keys():
    # one head, two masked queries; raw scores favour key 0 only, so after the window-3 max-pool keys 0 and 1
    # tie (both see score 10), key 2 sees only its neighbour 1's score
    q = torch.tensor([[[1.0, 0.0], [1.0, 0.0]]])
    k = torch.tensor([[[10.0, 0.0], [0.0, 0.0], [0.0, 0.0]]])
    q = torch.cat([q, q[:, :1]], dim=1)  # three positions, all masked
    found = s.importance(q[None], k[None], _rows([1, 1, 1]), scale=1.0)[0]
    assert found[0] == pytest.approx(found[1]) and found[2] < found[1]


def test_a_batch_gives_each_row_what_it_gives_alone():
    g = torch.Generator().manual_seed(1)
    q, k = torch.randn(3, 2, 8, 4, generator=g), torch.randn(3, 2, 8, 4, generator=g)
    masked = torch.tensor([[1, 1, 0, 1, 1, 1, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 1, 1, 0]]).bool()
    together = s.importance(q, k, masked, scale=0.5)
    delta = torch.randn(3, 8, generator=g)
    k_row = s.retain_target(masked.sum(dim=1), mean_decoded=1.2, alpha=1.5)
    progress = torch.tensor([2, -1, -1])
    kept = s.enforce(s.select(delta, masked, k_row), masked, progress)
    for b in range(3):
        alone = s.importance(q[b : b + 1], k[b : b + 1], masked[b : b + 1], scale=0.5)
        torch.testing.assert_close(together[b : b + 1], alone, rtol=1e-6, atol=1e-7)
        keep = s.enforce(
            s.select(delta[b : b + 1], masked[b : b + 1], k_row[b : b + 1]), masked[b : b + 1], progress[b : b + 1]
        )
        assert keep.tolist() == kept[b : b + 1].tolist()
    assert not kept[1].any()  # a finished block retains nothing


def test_retain_target():
    assert s.retain_target(masked=10, mean_decoded=2.3, alpha=1.5) == 4  # ceil(3.45)
    assert s.retain_target(masked=3, mean_decoded=2.3, alpha=2.0) == 3  # capped at |M|
    assert s.retain_target(masked=10, mean_decoded=0.0, alpha=1.0) == 1  # at least one
    assert s.retain_target(torch.tensor([10, 3, 0]), 2.3, 2.0).tolist() == [5, 3, 0]  # 0: a finished block
    per_sequence = s.retain_target(torch.tensor([10, 10]), torch.tensor([0.5, 2.3], dtype=torch.float64), 2.0)
    assert per_sequence.tolist() == [1, 5]  # each sequence its own rate


def test_a_sequence_that_finishes_first_leaves_the_others_retain_target_as_if_alone():
    """Sequence A decodes 2, 1, 1, 3 tokens per step; B (batched with it) decodes 8 then finishes. A's running mean,
    hence its retain target, is A's alone: 7 / 4, never pulled down by B's zeros after B finished (a pooled history
    gives (7 + 8) / 7 = 2.14 after four steps, and 1.75 only by accident of the mix)."""
    alone, batched = s.DecodeRate(1), s.DecodeRate(2)
    masked_a = [16, 14, 13, 12]
    for step, (a, b) in enumerate([(2, 8), (1, 0), (1, 0), (3, 0)]):
        assert batched.mean()[0] == alone.mean()[0]
        k_alone = s.retain_target(torch.tensor([masked_a[step]]), alone.mean(), 1.5)
        k_batched = s.retain_target(torch.tensor([masked_a[step], 8 if step == 0 else 0]), batched.mean(), 1.5)
        assert k_batched[0] == k_alone[0]
        alone.update([a], [masked_a[step]])
        batched.update([a, b], [masked_a[step], 8 if step == 0 else 0])
    assert alone.mean().tolist() == [7 / 4] and batched.mean().tolist() == [7 / 4, 8.0]
    assert s.DecodeRate(3).mean().tolist() == [1.0, 1.0, 1.0]  # before the first step


def test_select_uses_the_threshold_when_it_keeps_enough_else_top_k():
    masked = _rows([1] * 6)
    delta = torch.tensor([[0.0, 5.0, 0.0, 4.0, 0.0, 0.0]])  # mean 1.5, std 2.14: threshold 3.64 keeps 1 and 3
    assert _kept(s.select(delta, masked, torch.tensor([2]))) == [[1, 3]]
    assert _kept(s.select(delta, masked, torch.tensor([3]))) == [[0, 1, 3]]  # top-3: tie at 0 -> leftmost
    partly = _rows([1, 1, 0, 1, 1, 1])
    assert _kept(s.select(delta, partly, torch.tensor([1]))) == [[1]]  # position 2 is not masked


def _at(*positions: int, n: int = 8) -> torch.Tensor:
    keep = torch.zeros(1, n, dtype=torch.bool)
    keep[0, list(positions)] = True
    return keep


BEFORE_THE_BLOCK = torch.tensor([-1])  # no step of this block has run yet


def test_enforcement_rules_on_hand_built_vectors():
    """The reference's rules (sands-lab/FOCUS, ``_focus_enforce_rules``): left neighbour, never none, evicted
    tokens left of the rightmost retained one kept only beyond the block progress."""
    masked = _rows([0, 1, 1, 1, 1, 1, 1, 1])
    none = torch.zeros(1, 8, dtype=torch.bool)
    assert _kept(s.enforce(none, masked, BEFORE_THE_BLOCK)) == [[1, 2, 3, 4, 5, 6, 7]]  # none: every masked one
    # 4's left neighbour 3; then every masked token before the rightmost retained (4) beyond the progress (-1)
    assert _kept(s.enforce(_at(4), masked, BEFORE_THE_BLOCK)) == [[1, 2, 3, 4]]
    # a step already ran up to position 2: 1 and 2 stay evicted, 3 is 4's left neighbour anyway
    assert _kept(s.enforce(_at(4), masked, torch.tensor([2]))) == [[3, 4]]
    assert _kept(s.enforce(_at(6), masked, torch.tensor([2]))) == [[3, 4, 5, 6]]
    # the left neighbour is one pass over the selection: 6 brings 5, not 4
    assert _kept(s.enforce(_at(6), masked, torch.tensor([4]))) == [[5, 6]]
    # the right neighbour is not retained (the spec's summary says right; the reference retains the left)
    assert _kept(s.enforce(_at(2), masked, torch.tensor([7]))) == [[1, 2]]
    gap = _rows([0, 0, 1, 0, 1, 1, 0, 1])
    # decoded positions never retained; 7's left neighbour 6 is decoded, so nothing is added for it
    assert _kept(s.enforce(_at(7), gap, BEFORE_THE_BLOCK)) == [[2, 4, 5, 7]]
    assert _kept(s.enforce(_at(7), gap, torch.tensor([4]))) == [[5, 7]]
    assert _kept(s.enforce(_at(0, 1), _rows([0] * 8), BEFORE_THE_BLOCK)) == [[]]  # a finished block: nothing


def test_the_block_progress_is_the_rightmost_row_run_through_every_layer_and_never_moves_back():
    progress = s.Progress(2)
    assert progress.position.tolist() == [-1, -1]
    progress.update(torch.tensor([[1, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0]], dtype=torch.bool))
    assert progress.position.tolist() == [4, -1]
    progress.update(torch.tensor([[1, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], dtype=torch.bool))
    assert progress.position.tolist() == [4, 1]
