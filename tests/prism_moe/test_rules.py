"""The rule functions end to end on tiny settings (every method), the user's scenes by path, bad inputs, reruns
byte for byte; the config's cross-key checks."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pytest

from icml26.common.claims import read_claims
from icml26.common.config import paper_section
from icml26.common.io import read_json, write_npz
from icml26.common.sources import SourceError
from icml26.prism_moe import rules, scenes
from icml26.prism_moe.methods import METHODS
from icml26.prism_moe.settings import problems

CONFIG = Path(__file__).resolve().parents[2] / "config" / "papers" / "prism_moe.yaml"
SMOKE = paper_section(CONFIG, "smoke")
TRAINING = SMOKE["training"] | {"stage1_steps": 4, "stage2_steps": 4, "conflict_every": 2}
TABLES = ("metrics", "delta_m", "comparisons", "specialisation", "routing", "conflict", "parameters")
OUTPUTS = ("model_file", "stats_file", "routing_file", "loss_file", "conflict_file", "summary_file", "timing")


def _student(out: Path, teachers: list[str], method: str, seed: int, labelled: int | None = 24) -> dict[str, str]:
    (out / "students" / method).mkdir(parents=True, exist_ok=True)
    files = {k: str(out / "students" / method / f"seed{seed}.{k}") for k in OUTPUTS}
    rules.student(
        str(out / "train.npz"),
        str(out / "test.npz"),
        teachers,
        **files,
        method=method,
        seed=seed,
        student=SMOKE["student"],
        training=TRAINING,
        measure=SMOKE["measure"],
        labelled=labelled,
        device="cpu",
    )
    return files


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    out = tmp_path_factory.mktemp("prism")
    rules.scenes([], str(out / "train.npz"), str(out / "test.npz"), data=SMOKE["data"] | {"train": 48, "test": 12})
    teachers = []
    for name in ("semantic", "geometric", "texture"):
        rules.teacher(
            str(out / "train.npz"),
            [],
            str(out / name),
            str(out / f"{name}.csv"),
            name=name,
            teachers=SMOKE["teachers"],
            patch=4,
            seed=0,
        )
        teachers.append(str(out / name))
    runs = [_student(out, teachers, method, 0) for method in METHODS]
    runs += [_student(out, teachers, method, 1) for method in ("prism", "dense")]
    tables = {f"{n}_table" if n != "delta_m" else "delta_table": str(out / f"{n}.csv") for n in TABLES}
    rules.tables(
        [r["stats_file"] for r in runs],
        [r["routing_file"] for r in runs],
        [r["conflict_file"] for r in runs],
        [r["summary_file"] for r in runs],
        **tables,
        criteria=SMOKE["criteria"],
    )
    rules.verdict(
        tables["comparisons_table"],
        tables["delta_table"],
        tables["specialisation_table"],
        tables["conflict_table"],
        str(out / "claims.json"),
        str(out / "metrics.json"),
        substitution="a test stand-in",
    )
    rules.timing([r["timing"] for r in runs], str(out / "throughput.csv"), str(out / "machine.json"))
    return out, teachers, runs, tables


def test_every_claim_is_evaluated_and_every_method_is_in_the_tables(pipeline):
    out, _, _, tables = pipeline
    claims = read_claims(out / "claims.json")
    assert [c.id for c in claims] == [
        "teachers_conflict",
        "prism_beats_dense_distillation",
        "experts_specialise_by_teacher",
        "task_specific_pathways",
    ]
    assert all(c.state != "not evaluated" for c in claims)
    delta = pd.read_csv(tables["delta_table"])
    assert set(delta["method"]) == {*METHODS, "prism_swapped"}
    assert (delta.loc[delta["method"] == "scratch", ["delta_m", "low", "high"]] == 0).all().all()
    parameters = pd.read_csv(tables["parameters_table"])
    assert (abs(parameters["parameters"] / parameters["parameters"].iloc[0] - 1) < 0.01).all()
    assert set(pd.read_csv(tables["specialisation_table"])["method"]) == {"prism", "moe_unconditioned"}
    throughput = pd.read_csv(out / "throughput.csv")
    assert set(throughput["stage"]) == {"stage1", "stage2", "inference"} and (throughput["images_per_s"] > 0).all()


def test_the_unconditioned_router_carries_no_information_about_the_teacher(pipeline):
    special = pd.read_csv(pipeline[3]["specialisation_table"])
    assert (special.loc[special["method"] == "moe_unconditioned", "mi_bits"].abs() < 1e-12).all()


def test_a_student_reruns_byte_for_byte(pipeline, tmp_path):
    out, teachers, runs, _ = pipeline
    for name in ("train.npz", "test.npz"):
        (tmp_path / name).write_bytes((out / name).read_bytes())
    again = _student(tmp_path, teachers, "prism", 1)
    first = next(r for r in runs if r["summary_file"].endswith("prism/seed1.summary_file"))
    for key in ("stats_file", "routing_file", "loss_file", "conflict_file", "summary_file", "model_file"):
        digest = [hashlib.sha256(Path(r[key]).read_bytes()).hexdigest() for r in (first, again)]
        assert digest[0] == digest[1], key
    assert read_json(again["summary_file"])["kind"] == "prism"


def test_stage_2_trains_on_the_labelled_scenes_only(pipeline, tmp_path):
    from icml26.common.io import read_npz

    out, teachers, runs, _ = pipeline
    train = read_npz(out / "train.npz")
    write_npz(tmp_path / "train.npz", **{k: v[:24] for k, v in train.items()})  # only the 24 labelled scenes
    (tmp_path / "test.npz").write_bytes((out / "test.npz").read_bytes())
    alone = _student(tmp_path, teachers, "scratch", 0, labelled=None)  # scratch has no stage 1: stage 2 alone
    first = next(r for r in runs if r["summary_file"].endswith("scratch/seed0.summary_file"))
    assert Path(alone["model_file"]).read_bytes() == Path(first["model_file"]).read_bytes()
    (tmp_path / "all").mkdir()
    for name in ("train.npz", "test.npz"):
        (tmp_path / "all" / name).write_bytes((out / name).read_bytes())
    everything = _student(tmp_path / "all", teachers, "scratch", 0, labelled=None)  # all 48 labelled: another model
    assert Path(everything["model_file"]).read_bytes() != Path(first["model_file"]).read_bytes()


def test_the_users_scenes_are_read_from_a_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    write_npz(folder / "train.npz", **scenes.generate(6, 5))
    write_npz(folder / "test.npz", **scenes.generate(3, 6))
    sources = [str(folder / "train.npz"), str(folder / "test.npz")]
    rules.scenes(sources, str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), data=SMOKE["data"])
    assert (tmp_path / "b.npz").read_bytes() == (folder / "test.npz").read_bytes()
    assert len(rules._dataset(str(tmp_path / "b.npz"))["images"]) == 3


def test_missing_or_bad_user_scenes_fail_naming_the_file_and_write_nothing(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    write_npz(folder / "train.npz", **scenes.generate(4, 5))
    (folder / "test.npz").write_bytes(b"garbage")
    with pytest.raises(SourceError, match="test.npz"):
        rules.scenes(
            [str(folder / "train.npz"), str(folder / "test.npz")],
            str(tmp_path / "a.npz"),
            str(tmp_path / "b.npz"),
            data=SMOKE["data"],
        )
    with pytest.raises(SourceError, match="nowhere.npz: source file not found"):
        rules.scenes(
            [str(tmp_path / "nowhere.npz"), str(folder / "test.npz")],
            str(tmp_path / "a.npz"),
            str(tmp_path / "b.npz"),
            data=SMOKE["data"],
        )
    assert not (tmp_path / "a.npz").exists() and not (tmp_path / "b.npz").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["student"].update(heads=5), "student.dim: 16 is not a multiple of student.heads (5)"),
        (lambda c: c["student"].update(routed_blocks=3), "student.routed_blocks: 3 exceeds student.depth (2)"),
        (lambda c: c["training"].update(warmup=6), "training.warmup: 6 is not below training.stage1_steps (6)"),
        (lambda c: c.update(methods=["prism"]), "methods: must include 'scratch'"),
        (lambda c: c["data"].update(size=30), "student.patch: 4 does not divide the 30-pixel scenes"),
        (lambda c: c["data"].update(source="/nowhere"), "data.source: /nowhere is not a folder"),
        (lambda c: c["teachers"]["programs"].update(texture="/nowhere.pt2"), "teachers.programs.texture: /nowhere"),
        (lambda c: c["data"].update(labelled=500), "data.labelled: 500 exceeds data.train (128)"),
        (lambda c: c["seeds_by_method"].update(pirsm=[0]), "seeds_by_method: ['pirsm'] are not methods"),
    ],
)
def test_cross_key_problems_name_their_keys(change, message):
    import copy

    cfg = copy.deepcopy(SMOKE)
    assert list(problems(cfg)) == []
    change(cfg)
    assert any(p.startswith(message) for p in problems(cfg)), list(problems(cfg))
