"""Cross-key constraints on prism_moe's settings (checked by ``register`` before any job runs), and the input files
the data settings name (the workflow's declared inputs)."""

from collections.abc import Iterator
from pathlib import Path


def source_files(data: dict) -> list[str]:
    """The user's two files, the split lists of a real data set (``data.format``: the module of this package that
    reads that layout), or none (generated)."""
    import importlib

    if not data["source"]:
        return []
    if data["format"] is None:
        return [f"{data['source']}/train.npz", f"{data['source']}/test.npz"]
    return importlib.import_module(f"{__package__}.{data['format']}").split_files(data["source"])


def problems(cfg: dict) -> Iterator[str]:
    from .methods import METHODS, REFERENCE

    data, student, training = cfg["data"], cfg["student"], cfg["training"]
    if data["source"] is None:
        if data["size"] % student["patch"]:
            yield f"student.patch: {student['patch']} does not divide the {data['size']}-pixel scenes (data.size)"
        if training["batch_size"] > data["train"]:
            yield f"training.batch_size: {training['batch_size']} exceeds data.train ({data['train']})"
        if data["labelled"] is not None and data["labelled"] > data["train"]:
            yield f"data.labelled: {data['labelled']} exceeds data.train ({data['train']})"
    elif not Path(data["source"]).is_dir():
        what = "train.npz and test.npz" if data["format"] is None else f"the {data['format']} data set"
        yield f"data.source: {data['source']} is not a folder ({what}, docs/papers/prism_moe.md)"
    if data["format"] is not None and data["source"] is None:
        yield f"data.format: {data['format']} reads data.source, which is null (the data set's folder)"
    if data["format"] is not None and data["size"] % student["patch"]:
        yield f"student.patch: {student['patch']} does not divide data.size ({data['size']})"
    if student["dim"] % student["heads"]:
        yield f"student.dim: {student['dim']} is not a multiple of student.heads ({student['heads']})"
    if student["routed_blocks"] > student["depth"]:
        yield f"student.routed_blocks: {student['routed_blocks']} exceeds student.depth ({student['depth']})"
    if student["top_k"] > student["experts"]:
        yield f"student.top_k: {student['top_k']} exceeds student.experts ({student['experts']})"
    for stage in ("stage1_steps", "stage2_steps"):
        if training["warmup"] >= training[stage]:
            yield f"training.warmup: {training['warmup']} is not below training.{stage} ({training[stage]})"
    unknown = [m for m in cfg["methods"] if m not in METHODS]
    if unknown:
        yield f"methods: {unknown} are not methods of prism_moe ({', '.join(METHODS)})"
    strays = [m for m in cfg["seeds_by_method"] if m not in METHODS]
    if strays:
        yield f"seeds_by_method: {strays} are not methods of prism_moe ({', '.join(METHODS)})"
    if REFERENCE not in cfg["methods"]:
        yield f"methods: must include {REFERENCE!r}, the reference of Delta_m"
    for name, program in cfg["teachers"]["programs"].items():
        if program is not None and not Path(program).is_file():
            yield f"teachers.programs.{name}: {program} is not a file (a torch.export .pt2 program)"
        if program is not None and cfg["teachers"]["hub"][name] is not None:
            yield f"teachers.hub.{name}: the {name} teacher is also given as a program; give one of the two"
