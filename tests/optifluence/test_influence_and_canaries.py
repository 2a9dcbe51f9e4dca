"""Self-influence against leave-one-out retraining (the spec's oracle), and the canary sets' invariants."""

import numpy as np
import torch
from scipy.stats import spearmanr

from icml26.optifluence.canaries import all_types, membership, seed_sets
from icml26.optifluence.influence import self_influence

DAMPING = 0.05


def _fit(x, y, classes):
    """Softmax regression minimising mean cross-entropy + damping/2 |theta|^2, to convergence (float64)."""
    weight = torch.zeros(classes, x.shape[1], dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(classes, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS(
        [weight, bias], max_iter=500, tolerance_grad=1e-12, tolerance_change=1e-14, line_search_fn="strong_wolfe"
    )

    def closure():
        optimiser.zero_grad()
        loss = torch.nn.functional.cross_entropy(x @ weight.T + bias, y)
        loss = loss + 0.5 * DAMPING * ((weight**2).sum() + (bias**2).sum())
        loss.backward()
        return loss

    optimiser.step(closure)
    return weight.detach(), bias.detach()


def _loss(weight, bias, x, y):
    return torch.nn.functional.cross_entropy(x @ weight.T + bias, y, reduction="none")


def test_self_influence_ranks_points_like_leave_one_out_retraining():
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.normal(size=(40, 3)))
    y = torch.tensor((x[:, 0] + 0.5 * x[:, 1] > 0).long().numpy() + (x[:, 2] > 1).long().numpy())
    y[:4] = (y[:4] + 1) % 3  # a few hard points, so the scores spread
    weight, bias = _fit(x, y, 3)
    scores = self_influence(x, y, weight, bias, x, y, DAMPING).numpy()
    own = _loss(weight, bias, x, y)
    left_out = []
    for i in range(len(x)):
        keep = torch.arange(len(x)) != i
        w, b = _fit(x[keep], y[keep], 3)
        left_out.append(float(_loss(w, b, x[i : i + 1], y[i : i + 1])[0] - own[i]))
    assert spearmanr(scores, left_out).statistic > 0.9


def test_seed_sets_share_no_image_and_take_the_influence_ranking_in_turn():
    rng = np.random.default_rng(1)
    cand_x, cand_y = rng.random((60, 4, 4)).astype(np.float32), rng.integers(0, 3, 60)
    influence = rng.random(60)
    sets = seed_sets(cand_x, cand_y, influence, per_type=5, ablation=[2], classes=3, seed=0)
    assert list(sets) == all_types([2])
    used = np.concatenate([s["source"] for s in sets.values() if (s["source"] >= 0).all()])
    assert len(used) == len(set(used.tolist())) == 5 * 6
    ranking = np.argsort(-influence)
    assert sets["ifinit"]["source"].tolist() == ranking[0:15:3].tolist()
    assert sets["optifluence"]["source"].tolist() == ranking[1:15:3].tolist()
    assert (sets["mislabeled"]["y"] != cand_y[sets["mislabeled"]["source"]]).all()
    assert (sets["random_in"]["y"] == cand_y[sets["random_in"]["source"]]).all()
    assert (sets["ood"]["source"] == -1).all() and 0 <= sets["ood"]["x"].min() and sets["ood"]["x"].max() <= 1


def test_membership_puts_every_canary_in_exactly_half_of_the_models():
    member = membership(10, 7, seed=3)
    assert member.shape == (10, 7) and (member.sum(axis=0) == 5).all()
    assert len({tuple(col) for col in member.T}) > 1  # independent halves, not one split for all
