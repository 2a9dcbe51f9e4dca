"""The paper's teachers read from Hugging Face folders (replicas in the real format: CLIP, SAM, DINOv2 written with
``save_pretrained``): each gives the map its own model's API gives, only its vision part is read, and a wrong folder
is one line naming it."""

import json

import pytest
import torch
from torch.nn import functional as F

from icml26.common.lm import replicas
from icml26.common.sources import SourceError
from icml26.prism_moe.teachers import Teacher
from icml26.prism_moe.vfm import FoundationTeacher


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("vfm")
    tokenizer = replicas.bpe_tokenizer(replicas.CORPUS, "clip")
    return {
        "clip": replicas.clip(root / "clip", tokenizer),
        "sam": replicas.sam(root / "sam"),
        "dinov2": replicas.dinov2(root / "dinov2"),
    }


def _normalised(folder, images, size):
    processor = json.loads((folder / "preprocessor_config.json").read_text())
    mean = torch.tensor(processor["image_mean"]).reshape(1, 3, 1, 1)
    std = torch.tensor(processor["image_std"]).reshape(1, 3, 1, 1)
    resized = F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False, antialias=True)
    return (resized - mean) / std


def test_each_teacher_gives_its_own_models_patch_features_as_a_map(folders):
    from transformers import CLIPModel, Dinov2Model, SamModel

    images = torch.rand(2, 3, 20, 20, generator=torch.Generator().manual_seed(0))
    clip = FoundationTeacher(folders["clip"])
    whole = CLIPModel.from_pretrained(folders["clip"]).eval()  # the whole checkpoint, text tower and all
    tokens = whole.vision_model(pixel_values=_normalised(folders["clip"], images, 32)).last_hidden_state
    expected = tokens[:, 1:].reshape(2, 4, 4, -1).permute(0, 3, 1, 2)  # row-major patches, class token dropped
    assert clip.size == 32 and torch.allclose(clip(images), expected, atol=1e-5)
    sam = FoundationTeacher(folders["sam"])
    embeddings = (
        SamModel.from_pretrained(folders["sam"]).eval().get_image_embeddings(_normalised(folders["sam"], images, 32))
    )
    assert sam.size == 32 and torch.allclose(sam(images), embeddings, atol=1e-5)  # SAM's image embeddings
    dino = FoundationTeacher(folders["dinov2"])
    hidden = Dinov2Model.from_pretrained(folders["dinov2"]).eval()(_normalised(folders["dinov2"], images, 28))
    expected = hidden.last_hidden_state[:, 1:].reshape(2, 4, 4, -1).permute(0, 3, 1, 2)
    assert dino.size == 28 and torch.allclose(dino(images), expected, atol=1e-5)


def test_a_foundation_teacher_is_standardised_onto_the_students_grid(folders):
    teacher = Teacher(FoundationTeacher(folders["dinov2"]), torch.zeros(16), torch.ones(16), grid=8)
    out = teacher(torch.randint(0, 256, (3, 3, 32, 32), dtype=torch.uint8))
    assert out.shape == (3, 16, 8, 8) and torch.isfinite(out).all()


def test_a_folder_that_is_not_a_teacher_fails_naming_it(folders, tmp_path):
    gpt2 = replicas.causal_lm(tmp_path / "gpt2", replicas.CORPUS)
    with pytest.raises(SourceError, match="model_type 'gpt2' is not a teacher this pipeline reads"):
        FoundationTeacher(gpt2)
    with pytest.raises(SourceError, match="no config.json"):
        FoundationTeacher(tmp_path)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "config.json").write_text((folders["dinov2"] / "config.json").read_text())
    with pytest.raises(SourceError, match="no preprocessor_config.json"):
        FoundationTeacher(bare)
    (bare / "preprocessor_config.json").write_text("{}")
    with pytest.raises(SourceError, match="needs image_mean and image_std"):
        FoundationTeacher(bare)
    (bare / "preprocessor_config.json").write_text((folders["dinov2"] / "preprocessor_config.json").read_text())
    with pytest.raises(SourceError, match=str(bare)):  # no weights: refused, never a randomly initialised teacher
        FoundationTeacher(bare)


def test_a_teacher_given_twice_is_a_settings_error():
    from pathlib import Path

    from icml26.common.config import paper_section
    from icml26.prism_moe.settings import problems

    config = Path(__file__).resolve().parents[2] / "config" / "papers" / "prism_moe.yaml"
    quick = paper_section(config, "quick")
    quick["teachers"]["programs"]["semantic"] = str(config)  # an existing file
    quick["teachers"]["hub"]["semantic"] = "external/prism_moe/clip"
    assert "teachers.hub.semantic: the semantic teacher is also given as a program; give one of the two" in list(
        problems(quick)
    )
    paper = paper_section(config, "paper")
    assert paper["teachers"]["hub"] == {
        "semantic": "external/prism_moe/clip",
        "geometric": "external/prism_moe/sam",
        "texture": "external/prism_moe/dinov2",
    }
