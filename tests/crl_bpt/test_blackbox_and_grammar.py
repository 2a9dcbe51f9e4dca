"""The black box: a call counter that never exceeds its budget, invalid templates scored (never a crash), the
reward; the images and the template grammar; the user's CLIP by path."""

import copy
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from icml26.common.sources import SourceError
from icml26.crl_bpt import blackbox as bb
from icml26.crl_bpt import grammar, scenes


def test_budget_refuses_the_call_past_its_limit():
    budget = bb.CallBudget(3)
    for _ in range(3):
        budget.spend()
    with pytest.raises(bb.BudgetExhausted, match="budget of 3"):
        budget.spend()
    assert budget.used == 3 and budget.remaining == 0
    with pytest.raises(ValueError):
        bb.CallBudget(0)


def test_score_spends_one_call_and_invalid_templates_are_defined(tiny_encoder, target_images):
    model, tok = tiny_encoder
    box = bb.BlackBox(bb.Classifier(model, tok, *target_images), bb.CallBudget(4))
    batch = np.arange(16)
    accuracy, margin = box.score("a photo of a {} .", batch)
    assert 0 <= accuracy <= 1 and -1 <= margin <= 1
    assert box.score("a photo of a thing .", batch) == bb.INVALID  # no slot
    assert box.score("{} {} .", batch) == bb.INVALID  # two slots
    assert box.score("", batch) == bb.INVALID
    assert box.budget.used == 4
    with pytest.raises(bb.BudgetExhausted):
        box.score("a photo of a {} .", batch)
    assert bb.reward(*bb.INVALID) == -10.0 and bb.reward(1.0, 1.0) == 40.0


def test_margin_and_accuracy_match_the_softmax_by_hand(tiny_encoder, target_images):
    model, tok = tiny_encoder
    classifier = bb.Classifier(model, tok, *target_images)
    index = np.arange(10)
    p = classifier.probabilities("itap of a {} .", index).numpy()
    labels = target_images[1][:10]
    right = p[np.arange(10), labels]
    wrong = np.where(np.eye(20, dtype=bool)[labels], -1, p).max(axis=1)
    accuracy, margin = classifier.accuracy_margin("itap of a {} .", index)
    assert accuracy == pytest.approx((p.argmax(1) == labels).mean())
    assert margin == pytest.approx((right - wrong).mean(), abs=1e-6)


def test_text_ids_frame_each_text_and_pool_at_its_end(tiny_encoder):
    model, tok = tiny_encoder
    ids, mask = bb.text_ids(tok, ["a red circle .", "itap of a blue square ."], limit=24)
    assert ids[0, 0] == tok.bos_token_id and ids[0, mask[0].sum() - 1] == tok.eos_token_id
    assert mask.sum(1).tolist() == [6, 8]
    long_ids, long_mask = bb.text_ids(tok, [" ".join(["a"] * 40)], limit=10)
    assert long_ids.shape[1] == 10 and long_ids[0, -1] == tok.eos_token_id
    # padding after the end token changes nothing: features pooled at the last attended token
    one = bb.text_features(model, *bb.text_ids(tok, ["a red circle ."], 24))
    assert np.allclose(one.detach().numpy(), bb.text_features(model, ids, mask)[:1].detach().numpy(), atol=1e-5)


def test_users_clip_loads_by_path(tmp_path, tiny_encoder, target_images):
    from icml26.common.lm.model import save_checkpoint

    model, tok = tiny_encoder
    save_checkpoint(model, tok, tmp_path / "clip")
    loaded, loaded_tok = bb.load_encoder(str(tmp_path / "clip"))
    a = bb.Classifier(model, tok, *target_images).probabilities("a photo of a {} .")
    b = bb.Classifier(loaded, loaded_tok, *target_images).probabilities("a photo of a {} .")
    assert np.allclose(a.numpy(), b.numpy(), atol=1e-6)


def test_a_missing_or_wrong_clip_folder_is_one_line(tmp_path):
    with pytest.raises(SourceError, match="no such CLIP model folder"):
        bb.load_encoder(str(tmp_path / "absent"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="not a CLIP model folder"):
        bb.load_encoder(str(tmp_path / "empty"))


def test_images_are_repeatable_and_the_colour_convention_depends_on_words_the_pixels_do_not_show():
    a = scenes.image_set(10, scenes.all_domains(), seed=5)
    b = scenes.image_set(10, scenes.all_domains(), seed=5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert a[0].shape == (10, 3, 16, 16) and a[0].min() >= 0 and a[0].max() <= 1
    old_faded, old_vivid = scenes.Domain("photo", "old", "faded"), scenes.Domain("sketch", "old", "vivid")
    assert [scenes.painted(c, old_faded) for c in scenes.COLOURS] == ["red", "blue", "green", "yellow"]
    assert [scenes.painted(c, old_vivid) for c in scenes.COLOURS] == ["yellow", "green", "blue", "red"]
    for era_finish in (("new", "vivid"), ("new", "faded")):
        assert all(scenes.painted(c, scenes.Domain("cartoon", *era_finish)) == c for c in scenes.COLOURS)
    with pytest.raises(ValueError, match="no domain"):
        scenes.Domain("photo", "ancient", "faded")


def test_human_templates_never_name_both_domain_words_and_captions_do():
    human = grammar.all_human_templates()
    assert grammar.BASELINE in human and all(grammar.readable(t) for t in human)
    for template in human:
        named = {w for w in template.split() if w in grammar.DOMAIN_ADJECTIVES}
        assert len(named) <= 1, template
    chosen = grammar.human_set(80, seed=0)
    assert len(chosen) == 80 and grammar.BASELINE in chosen and chosen == grammar.human_set(80, seed=0)
    rng = np.random.default_rng(0)
    captions = [grammar.caption(rng, 0, "photo", "old", "faded", truthful=1.0) for _ in range(50)]
    assert all("faded old" in c for c in captions if "N" not in c and ("faded" in c))
    assert sum("faded old" in c for c in captions) > 20


def test_readable_templates():
    assert grammar.readable("a faded old photo of a {} .")
    assert grammar.readable("an old photo of the {} .")
    for bad in (
        "a photo of a .",
        "a photo {} of a {} .",
        "a a {} .",
        "a {} . photo .",
        "a acc7 of a {} .",
        "a photo of a {}",
        " ".join(["a", "photo"] * 6) + " {} .",
    ):
        assert not grammar.readable(bad), bad


class _TextModelOnItsDevice(torch.nn.Module):
    """Stands in for CLIP's text tower, which cannot run on ``meta`` (its mask code reads a value): records the
    devices of what it is handed and answers hidden states on ``meta``."""

    def __init__(self, width: int):
        super().__init__()
        self.width, self.seen = width, set()

    def forward(self, input_ids, attention_mask):
        self.seen |= {input_ids.device.type, attention_mask.device.type}
        return SimpleNamespace(last_hidden_state=torch.zeros(*input_ids.shape, self.width, device="meta"))


def test_the_black_box_computes_on_the_device_of_its_model(tiny_encoder, target_images):
    """Images, captions and labels arrive as CPU arrays; the encoder may sit on a GPU. On torch's ``meta`` device
    (which refuses mixed devices as CUDA does) classifying and training stay on the model's device."""
    model, tok = tiny_encoder
    on_meta = copy.deepcopy(model).to("meta")
    on_meta.text_model = _TextModelOnItsDevice(model.config.text_config.hidden_size)
    classifier = bb.Classifier(on_meta, tok, *target_images)
    probabilities = classifier.probabilities("a photo of a {} .", np.arange(4))
    assert probabilities.device.type == "meta" and on_meta.text_model.seen == {"meta"}
    assert (classifier.labels.device.type, classifier.images.device.type) == ("meta", "meta")
    ids, mask = bb.text_ids(tok, ["a photo of a cat ."] * 4, 24)
    pooled = on_meta.vision_model(pixel_values=bb.pixels(on_meta, target_images[0][:4])).pooler_output
    loss = bb.clip_loss(on_meta, on_meta.visual_projection(pooled), bb.text_features(on_meta, ids, mask))
    assert loss.device.type == "meta"
