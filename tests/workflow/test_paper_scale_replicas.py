"""The paper-scale model and data paths, end to end on tiny replicas (icml26.common.lm.replicas; the papers' own
``replica_data`` for data sets: focus_dllm's evaluation sets, cox_subgroups' C-MAPSS files, seizure_benchmark's
EEG in BIDS, optifluence's CIFAR-10 batches, prism_moe's NYUD-v2 and PASCAL-Context folders).

In a repository copy with git and DVC, `make fetch PAPER=<slug> FROM=<folder>` brings in a replica of every model
the paper's `paper:` section names (Qwen2.5 and CLIP folders written with `save_pretrained`, byte-level BPE
tokenizers whose merges split the task words), exactly where the real ones go; then the smoke DAG runs with the
paper section's model keys and budgets (`replicas.overlay`) and reaches claims.json through the same code a real
checkpoint takes. What each test checks is that the replica, not a stand-in built here, is what ran.
"""

import json
import re
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

from icml26.common.claims import STATES
from icml26.common.io import read_npz
from icml26.common.lm import replicas
from icml26.complex_mcp import public_replica
from tests.conftest import copy_repository, run, snakemake

pytestmark = pytest.mark.workflow
PAPERS = [
    "text_feedback_rl",
    "generalization_spectrum",
    "crl_bpt",
    "complex_mcp",
    "sheaf_repulsion",
    "focus_dllm",
    "cox_subgroups",
    "seizure_benchmark",
    "dvm_ad",
    "manifold_microscope",
    "optifluence",
    "prism_moe",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    where = tmp_path_factory.mktemp("replicas")
    repo = copy_repository(where / "icml26")
    run(["git", "init", "-q", "-b", "main"], repo)
    run(["git", "add", "-A"], repo)
    run(["git", "commit", "-qm", "snapshot"], repo)
    overlay = {}
    for slug in PAPERS:
        source = replicas.sources(slug, where / "hub" / slug, root=repo)
        run(["make", "fetch", f"PAPER={slug}", f"FROM={source}", f"VENV={sys.prefix}"], repo)
        overlay |= replicas.overlay(slug, root=repo)
    with public_replica.Sandbox() as servers:  # the reference's sandbox, small
        overlay["complex_mcp"]["public"]["servers"] = servers
        (repo / "replicas.yaml").write_text(yaml.safe_dump(overlay))
        snakemake(repo, *PAPERS, "--cores", "2", "--configfile", "config/smoke.yaml", "replicas.yaml")
    return repo


def claims(repo, slug) -> list[dict]:
    found = json.loads((repo / "results" / "smoke" / slug / "claims.json").read_text())
    assert found and all(c["state"] in STATES for c in found)
    return found


def model_type(folder) -> str:
    return json.loads((folder / "config.json").read_text())["model_type"]


def test_paper_scale_replica_fetch_is_checksummed_and_dvc_tracked(built):
    for folder in ("text_feedback_rl/policy", "generalization_spectrum/base", "crl_bpt/agent", "crl_bpt/clip"):
        record = json.loads((built / "external" / f"{folder}.fetch.json").read_text())
        assert record["received"].startswith("copied from") and "model.safetensors" in record["files"]
        assert (built / "external" / f"{folder}.dvc").is_file()
    status = run(["git", "status", "--porcelain", "--ignored", "external"], built).stdout
    assert "!! external/crl_bpt/agent/" in status  # the weights stay out of git; DVC has them


def test_paper_scale_replica_text_feedback_rl(built):
    found = claims(built, "text_feedback_rl")
    assert all("model.checkpoint = external/text_feedback_rl/policy" in c["substitution"] for c in found)
    warm = built / "data" / "smoke" / "text_feedback_rl" / "permutation" / "warmstart"
    assert model_type(warm) == "qwen2"  # the fetched Qwen2.5 replica, warm-started
    assert json.loads((warm / "tokenizer_config.json").read_text())["eos_token"] == "<|im_end|>"


def test_paper_scale_replica_generalization_spectrum(built):
    found = claims(built, "generalization_spectrum")
    assert all("model.checkpoint = external/generalization_spectrum/base" in c["substitution"] for c in found)
    base = built / "data" / "smoke" / "generalization_spectrum" / "base"
    fetched = built / "external" / "generalization_spectrum" / "base"
    assert (base / "model.safetensors").read_bytes() == (fetched / "model.safetensors").read_bytes()  # as it is


def test_paper_scale_replica_crl_bpt(built):
    found = claims(built, "crl_bpt")
    assert all("model.checkpoint = external/crl_bpt/agent" in c["substitution"] for c in found)
    data = built / "data" / "smoke" / "crl_bpt"
    assert model_type(data / "agent") == "qwen2" and model_type(data / "blackbox") == "clip"
    log = (built / "logs" / "smoke" / "crl_bpt" / "agent.log").read_text()
    total, trained = (int(n.replace(",", "")) for n in re.findall(r"(?:SFT of|training) ([\d,]+) parameters", log))
    assert 0 < trained < total and "(bfloat16)" in log  # the LoRA adapters alone (base frozen), under bf16 autocast
    calls = pd.read_csv(data / "runs" / "crl_bpt_e2" / "seed0.calls.csv")
    assert (calls["role"] == "sample").any()  # the agent wrote templates through the replica's tokenizer
    images = read_npz(data / "target_images.npz")
    assert images["classes"].tolist() == ["red disc", "green disc", "blue disc", "yellow disc"]  # the CoOp set's
    assert images["train"].dtype == np.uint8 and images["train"].shape == (20, 3, 32, 32)  # 5 shots of 4, CLIP's size
    kinds = set(pd.read_csv(built / "results" / "smoke" / "crl_bpt" / "tables" / "calibration.csv")["kind"])
    assert kinds == {"baseline", "human"}  # no procedural domain to name


def test_paper_scale_replica_sheaf_repulsion(built):
    found = claims(built, "sheaf_repulsion")
    assert all("model.checkpoint = external/sheaf_repulsion/gpt2" in c["substitution"] for c in found)
    stored = read_npz(built / "data" / "smoke" / "sheaf_repulsion" / "model.npz")
    assert "b_out.0" in stored and stored["ioi.frames"].shape == (3, 14)  # GPT-2 as an edge graph, its IOI frames
    circuits = read_npz(built / "data" / "smoke" / "sheaf_repulsion" / "circuits" / "oasr.npz")["edges"]
    # over the replica's edges (2 layers of 2 heads): q/k/v from 1 then 4 sources, MLPs from 3 and 6, logits from 7
    assert circuits.shape[1] == 3 * 2 * 1 + 3 * 2 * 4 + 3 + 6 + 7


def test_paper_scale_replica_complex_mcp(built):
    judged = {c["id"]: c for c in claims(built, "complex_mcp")}
    assert judged["llm_agent_below_60_percent"]["measured"]["episodes"] > 0  # the paper's headline, on the LLM
    episodes = pd.read_csv(built / "data" / "smoke" / "complex_mcp" / "episodes_agents.csv")
    assert (episodes["agent"] == "llm").sum() > 0  # the fetched LLM replica played beside the scripted agents
    public = pd.read_csv(built / "results" / "smoke" / "complex_mcp" / "tables" / "public_summary.csv")
    assert public.set_index("agent").loc["replay", "success"] == 1.0  # the fetched task file, over HTTP MCP
    assert set(public["agent"]) == {"replay", "llm"}


def test_paper_scale_replica_focus_dllm(built):
    found = claims(built, "focus_dllm")
    assert all("model.checkpoint = external/focus_dllm/sdar" in c["substitution"] for c in found)
    data = built / "data" / "smoke" / "focus_dllm" / "seed0"
    source = json.loads((data / "model" / "source.json").read_text())
    assert source == {"checkpoint": "external/focus_dllm/sdar", "model": "sdar", "layers": 3}  # the fetched folder
    assert model_type(built / "external" / "focus_dllm" / "sdar") == "sdar"
    test = json.loads((data / "examples.json").read_text())["test"]
    assert {e["task"] for e in test} == {"gsm8k", "math"} and len(test) == 12  # every problem of both replica sets
    assert test[0]["answer"] == "5" and "\\boxed{}" in test[0]["prompt"]  # GSM8K's '#### 5', SDAR's instruction
    summary = pd.read_csv(built / "results" / "smoke" / "focus_dllm" / "tables" / "summary.csv")
    rows = summary.groupby("decoder")["rows_per_token"].first()
    assert rows["focus_a1.5"] < rows["dense_t0.9"]  # FOCUS compacted the replica's layer 2 rows


def test_paper_scale_replica_cox_subgroups(built):
    claims(built, "cox_subgroups")
    engines = pd.read_csv(built / "data" / "smoke" / "cox_subgroups" / "datasets" / "cmapss.csv")
    altitudes = engines.groupby("subset")["op_setting_1"].agg(lambda a: a.round().nunique())
    assert altitudes.to_dict() == {"FD001": 1, "FD002": 6, "FD003": 1, "FD004": 6}  # FD001-FD004 combined
    record = json.loads((built / "external" / "cox_subgroups" / "cmapss.fetch.json").read_text())
    assert sorted(record["files"]) == sorted(f"{n}_FD00{k}.txt" for n in ("train", "test", "RUL") for k in range(1, 5))
    case = pd.read_csv(built / "results" / "smoke" / "cox_subgroups" / "tables" / "case_study.csv")
    assert set(case["dataset"]) >= {"speeds_by_op_setting"}  # the paper's pairing, on the altitude subgroups


def test_paper_scale_replica_seizure_benchmark(built):
    claims(built, "seizure_benchmark")
    log = (built / "logs" / "smoke" / "seizure_benchmark" / "subject" / "01.log").read_text()
    assert "run-01 <- external/seizure_benchmark/eeg/sub-01/ses-01/eeg/" in log  # the fetched BIDS recordings
    from icml26.seizure_benchmark import bids

    corpus = built / "data" / "smoke" / "seizure_benchmark" / "corpus" / "sub-01"
    x, fs = bids.read_edf(corpus / f"{bids.stem('01', 1)}_eeg.edf")
    assert x.shape == (19, 300 * 256) and fs == 256  # 19 electrodes picked from 20 channels, 200 Hz resampled
    events = pd.read_csv(built / "data" / "smoke" / "seizure_benchmark" / "events" / "sub-01.csv")
    assert events["onset"].tolist() == [90.0, 100.0]  # the replica's annotations, one seizure a run


def test_paper_scale_replica_dvm_ad(built):
    found = {c["id"]: c for c in claims(built, "dvm_ad")}
    copied = read_npz(built / "data" / "smoke" / "dvm_ad" / "datasets" / "39_vertebral.npz")
    assert copied["X"].shape == (80, 4)  # the fetched ADBench-format file, every row (no cap at paper scale)
    assert len(list((built / "external" / "dvm_ad" / "classical").glob("*.npz"))) == 47
    # the embedding benchmarks, read from the two fetched folders: every benchmark, each version averaged in
    embedding = found["top_ranked_on_embeddings"]
    assert embedding["state"] != "not evaluated" and embedding["measured"]["benchmarks"] == 10
    per_benchmark = pd.read_csv(built / "results" / "smoke" / "dvm_ad" / "tables" / "auroc_per_benchmark.csv")
    versions = per_benchmark.groupby("dataset")["versions"].max()
    assert versions["CIFAR10"] == 2 and versions["amazon"] == 1


def test_paper_scale_replica_manifold_microscope(built):
    claims(built, "manifold_microscope")
    logs = built / "logs" / "smoke" / "manifold_microscope"
    assert (
        "square: 10 x 10 dSprites images from external/manifold_microscope/dsprites/"
        in (logs / "dsprites" / "square.log").read_text()
    )  # the square's quarter turn of dSprites' 40 orientations, from the fetched file
    assert "COIL-20 object 1: 72 poses" in (logs / "turntable" / "01.log").read_text()
    F = read_npz(built / "data" / "smoke" / "manifold_microscope" / "turntable" / "obj01.npz")["F"]
    assert F.shape[0] == 72  # COIL-20's turntable, read from the fetched PNGs
    weights = read_npz(built / "data" / "smoke" / "manifold_microscope" / "vae" / "weights.npz")
    assert any(key.endswith("convs.0.weight") for key in weights)  # the paper section's convolutional BetaVAE_B


def test_paper_scale_replica_optifluence(built):
    found = claims(built, "optifluence")
    assert all("dataset.path = external/optifluence/cifar10" in c["substitution"] for c in found)
    log = (built / "logs" / "smoke" / "optifluence" / "seeds.log").read_text()
    assert "cifar10: 1000 images of 3 x 32 x 32 from external/optifluence/cifar10" in log  # the fetched batches
    images = read_npz(built / "data" / "smoke" / "optifluence" / "images.npz")
    assert images["base_x"].shape[1:] == (3, 32, 32) and images["classes"][0] == 10  # RGB, kept in colour
    accuracy = pd.read_csv(built / "results" / "smoke" / "optifluence" / "tables" / "accuracy.csv")
    assert set(accuracy["architecture"]) == {"resnet9", "resnet50", "wide_resnet50_2"}  # the paper's three


def test_paper_scale_replica_prism_moe(built):
    found = claims(built, "prism_moe")
    assert all("teachers.hub.semantic = external/prism_moe/clip" in c["substitution"] for c in found)
    teachers = built / "data" / "smoke" / "prism_moe" / "teachers"
    for name, kind in (("semantic", "clip"), ("geometric", "sam"), ("texture", "dinov2")):
        record = json.loads((teachers / name / "teacher.json").read_text())
        assert (record["kind"], record["model_type"]) == ("hub", kind)  # the fetched foundation model, not ours
        assert model_type(built / record["folder"]) == kind
        kept = sorted(p.name for p in (teachers / name).iterdir() if not p.name.startswith(".snakemake"))
        assert kept == ["teacher.json", "weights.safetensors"]  # its weights stay in the fetched folder
    conflict = pd.read_csv(built / "data" / "smoke" / "prism_moe" / "students" / "prism" / "seed0.conflict.csv")
    assert len(conflict) > 0  # stage 1 distilled from them
    scenes = read_npz(built / "data" / "smoke" / "prism_moe" / "scenes" / "test.npz")
    assert list(scenes["tasks"]) == ["seg", "depth", "edges", "normals"] and scenes["classes"][0] == 40  # NYUD-v2
    assert scenes["images"].shape[1:] == (3, 32, 32) and (scenes["seg"] == 255).any()  # its unlabelled pixels
    delta = pd.read_csv(built / "results" / "smoke" / "prism_moe" / "tables" / "delta_m.csv")
    assert {"miou", "depth_rmse", "edge_f1", "normal_angle"} <= set(delta) and "saliency_maxf" not in delta


def test_paper_scale_replica_prism_moe_pascal_context(built):
    """The paper's other set through the documented overlay (rerunning the prism_moe DAG in place, after the test
    above): five tasks, no depth, in every table."""
    snakemake(
        built,
        "prism_moe",
        "--cores",
        "2",
        "--configfile",
        "config/smoke.yaml",
        "replicas.yaml",
        "config/overlays/prism_moe_pascal_context.yaml",
    )
    found = claims(built, "prism_moe")
    assert all("data.source = external/prism_moe/PASCALContext" in c["substitution"] for c in found)
    scenes = read_npz(built / "data" / "smoke" / "prism_moe" / "scenes" / "train.npz")
    assert list(scenes["tasks"]) == ["seg", "parts", "normals", "edges", "saliency"] and "depth" not in scenes
    delta = pd.read_csv(built / "results" / "smoke" / "prism_moe" / "tables" / "delta_m.csv")
    assert {"miou", "parts_miou", "normal_angle", "edge_f1", "saliency_maxf"} <= set(delta)
    assert "depth_rmse" not in delta  # a task the data set lacks is left out of its table
    routing = pd.read_csv(built / "results" / "smoke" / "prism_moe" / "tables" / "routing.csv")
    assert set(routing.loc[routing["stage"] == "stage2", "condition"]) == {
        "seg",
        "parts",
        "normals",
        "edges",
        "saliency",
    }
