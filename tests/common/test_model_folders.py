"""Every loader of a user's model refuses, with one line naming the folder or file, a model of another
architecture (a causal-LM folder with its tokenizer), truncated weights, garbage weights and weights of another
size -- never a raw library exception, never a model initialised at random (issue 53)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from icml26.common.lm import model as lm
from icml26.common.lm.tokenizer import task_tokenizer
from icml26.common.sources import SourceError

FAULTS = ("wrong architecture", "truncated weights", "garbage weights", "weights of another size")


def causal_lm(folder: Path, hidden: int = 32, layers: int = 2) -> Path:
    """A Llama folder with its tokenizer: what a user may point any loader at by mistake."""
    tokenizer = task_tokenizer(["a", "b", "c"])
    settings = lm.ModelSettings(hidden_size=hidden, intermediate_size=64, layers=layers, heads=2, context=32)
    lm.save_checkpoint(lm.build_model(settings, tokenizer, 0), tokenizer, folder)
    return folder


def clip(folder: Path, hidden: int = 16) -> Path:
    from icml26.crl_bpt import blackbox

    tokenizer = blackbox.tokenizer()
    settings = blackbox.EncoderSettings(hidden_size=hidden, layers=1, heads=2, intermediate_size=32, projection_dim=8)
    lm.save_checkpoint(blackbox.build_encoder(settings, tokenizer, 32, seed=0), tokenizer, folder)
    return folder


def block_diffusion(folder: Path, hidden: int = 32) -> Path:
    from icml26.focus_dllm.model import BlockDiffusionConfig, BlockDiffusionLM, save

    torch.manual_seed(0)
    config = BlockDiffusionConfig(
        vocab_size=20, mask_token_id=19, hidden_size=hidden, layers=2, heads=4, intermediate_size=64, block_size=4
    )
    save(BlockDiffusionLM(config), folder)
    return folder


SHEAF = {"layers": 1, "heads": 2, "width": 16, "mlp_width": 32}


def sheaf_state(path: Path, width: int = 16) -> Path:
    from icml26.common.io import write_npz
    from icml26.sheaf_repulsion.rules import _architecture

    net = _architecture({**SHEAF, "width": width}, 8).build()
    write_npz(path, **{k: v.numpy() for k, v in net.state_dict().items()})
    return path


def netdiff_model(path: Path, dim: int = 16) -> Path:
    from icml26.netdiff import experiments, training
    from icml26.netdiff.denoiser import Denoiser
    from icml26.netdiff.diffusion import MarginalTransitions

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    model = Denoiser(training.denoiser_settings(4, dim=dim, edge_dim=8, heads=2, layers=1))
    edge, parity = (MarginalTransitions(torch.tensor([0.5, 0.5]), 8) for _ in range(2))
    experiments.save(experiments.Trained(model, edge, parity, []), str(path), {"model": "netdiff"})
    return path


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garble(path: Path) -> None:
    path.write_bytes(b"\x00 not weights " * 64)


@dataclass
class Loader:
    name: str
    make: Callable[[Path], Path]  # a good model at this path
    make_other_size: Callable[[Path], Path]
    weights: Callable[[Path], Path]  # the weights file of what make returned
    load: Callable[[Path], object]


def _netdiff_load(path: Path):
    from icml26.netdiff.rules import _model

    return _model(str(path), "cpu")


def _other_size_netdiff(path: Path) -> Path:
    """Weights of a wider denoiser under the metadata of the configured one."""
    from safetensors import safe_open
    from safetensors.torch import save_file

    narrow, wide = netdiff_model(path.with_suffix(".narrow"), 16), netdiff_model(path.with_suffix(".wide"), 32)
    with safe_open(str(narrow), "pt") as f:
        metadata = f.metadata()
    with safe_open(str(wide), "pt") as f:
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    save_file(tensors, str(path), metadata=metadata)
    return path


LOADERS = [
    Loader(
        "common.lm.load_model",
        lambda p: causal_lm(p / "m"),
        lambda p: causal_lm(p / "m", hidden=64),
        lambda folder: folder / "model.safetensors",
        lm.load_model,
    ),
    Loader(
        "crl_bpt.load_encoder",
        lambda p: clip(p / "m"),
        lambda p: clip(p / "m", hidden=8),
        lambda folder: folder / "model.safetensors",
        lambda folder: __import__("icml26.crl_bpt.blackbox", fromlist=["x"]).load_encoder(str(folder)),
    ),
    Loader(
        "focus_dllm.load",
        lambda p: block_diffusion(p / "m"),
        lambda p: block_diffusion(p / "m", hidden=64),
        lambda folder: folder / "model.safetensors",
        lambda folder: __import__("icml26.focus_dllm.model", fromlist=["x"]).load(folder),
    ),
    Loader(
        "sheaf_repulsion.load_model",
        lambda p: sheaf_state(p / "m.npz"),
        lambda p: sheaf_state(p / "m.npz", width=32),
        lambda path: path,
        lambda path: __import__("icml26.sheaf_repulsion.rules", fromlist=["x"]).load_model(str(path), SHEAF, 8),
    ),
    Loader(
        "netdiff model",
        lambda p: netdiff_model(p / "m.safetensors"),
        lambda p: _other_size_netdiff(p / "m.safetensors"),
        lambda path: path,
        _netdiff_load,
    ),
]


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.name)
@pytest.mark.parametrize("fault", FAULTS)
def test_a_damaged_or_foreign_model_is_one_line_naming_it(loader, fault, tmp_path):
    good = loader.make(tmp_path / "good")
    loader.load(good)  # the intact model loads
    if fault == "wrong architecture":
        # a causal LM with its tokenizer; the LM toolkit gets a CLIP folder instead
        target = clip(tmp_path / "clip") if loader.name == "common.lm.load_model" else causal_lm(tmp_path / "lm")
    elif fault == "weights of another size":
        target = good
        other = loader.make_other_size(tmp_path / "other")
        shutil.copy(loader.weights(other), loader.weights(good))
    else:
        target = good
        (truncate if fault == "truncated weights" else garble)(loader.weights(good))
    with pytest.raises(ValueError) as raised:  # SourceError and the loaders' ValueErrors: the runner's one line
        loader.load(target)
    message = str(raised.value)
    assert "\n" not in message.strip() and str(target) in message, message


def test_weights_that_leave_part_of_the_model_uncovered_are_refused(tmp_path):
    """Two layers configured, one stored: the second would be random (Hugging Face only warns)."""
    folder = causal_lm(tmp_path / "two")
    shutil.copy(causal_lm(tmp_path / "one", layers=1) / "model.safetensors", folder / "model.safetensors")
    with pytest.raises(SourceError, match=r"two: weights do not match the model: \d+ tensor\(s\) missing"):
        lm.load_model(folder)


def test_a_clip_folder_refuses_a_causal_lm_by_its_model_type(tmp_path):
    from icml26.crl_bpt.blackbox import load_encoder

    with pytest.raises(SourceError, match="not a CLIP model .config.json says model_type 'llama'; expected clip"):
        load_encoder(str(causal_lm(tmp_path / "lm")))


def test_the_focus_loader_names_missing_and_unexpected_tensors(tmp_path):
    from safetensors.torch import load_file, save_file

    from icml26.focus_dllm.model import load

    folder = block_diffusion(tmp_path / "m")
    tensors = load_file(str(folder / "model.safetensors"))
    dropped = sorted(tensors)[0]
    save_file(
        {**{k: v for k, v in tensors.items() if k != dropped}, "extra.weight": torch.zeros(2)},
        str(folder / "model.safetensors"),
    )
    with pytest.raises(SourceError, match=rf"1 tensor\(s\) missing \(e.g. {dropped}\); 1 tensor\(s\) unexpected"):
        load(folder)


def test_pickled_weights_are_refused_by_name(tmp_path):
    """A Hugging Face folder whose weights are a pickle (pytorch_model.bin, as older hub snapshots ship) is one
    line saying that only safetensors are read (it was a raw UnpicklingError); with safetensors beside, it loads."""
    from safetensors.torch import load_file

    folder = causal_lm(tmp_path / "pickled")
    state = load_file(folder / "model.safetensors")
    torch.save(state, folder / "pytorch_model.bin")
    lm.load_model(folder)  # safetensors present: read, the pickle ignored
    (folder / "model.safetensors").unlink()
    with pytest.raises(SourceError, match=r"pickled: holds pickled weights \(pytorch_model.bin\); only safetensors"):
        lm.load_model(folder)


def test_weights_holding_nan_are_refused_naming_the_tensor(tmp_path):
    """A diverged or damaged checkpoint loaded without a word and made every later number NaN (issue 79)."""
    from safetensors.torch import load_file, save_file

    folder = causal_lm(tmp_path / "m")
    weights = folder / "model.safetensors"
    tensors = load_file(str(weights))
    name = sorted(k for k in tensors if k.endswith("mlp.up_proj.weight"))[0]
    tensors[name][0, 0] = float("nan")
    save_file(tensors, str(weights), metadata={"format": "pt"})
    with pytest.raises(SourceError, match=rf"m: weights hold NaN or infinite values \({name}\)"):
        lm.load_model(folder)
