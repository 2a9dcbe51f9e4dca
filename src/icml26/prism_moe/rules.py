"""Rule functions of the prism_moe workflow (workflow/rules/prism_moe.smk); each is one job."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, read_npz, write_csv, write_json, write_npz


def _dataset(path: str) -> dict[str, np.ndarray]:
    """A scenes file (ours or the user's), validated; one line naming the file if it is not a dataset."""
    from ..common.sources import arrays as read
    from ..common.sources import fail
    from . import scenes

    arrays = read(path)
    problem = scenes.validate(arrays)
    if problem:
        fail(path, problem)
    return arrays


def scenes(sources: list[str], train_file: str, test_file: str, *, data: dict) -> None:
    """The training and test data: generated from the seed (the stand-in), the user's two files copied after
    validation (``data.source``: a folder with ``train.npz`` and ``test.npz``), or NYUD-v2 / PASCAL-Context read from
    their folder (``data.format``) at ``data.size`` pixels, every split image."""
    import importlib

    from ..common.sources import checked, fail, user_folder_problem
    from . import scenes as generator

    if sources and data["format"] is not None:
        problem = user_folder_problem(data["source"])
        if problem:
            fail(data["source"], problem)
        reader = importlib.import_module(f"{__package__}.{data['format']}")
        log = lambda line: print(line, flush=True)  # noqa: E731
        train, test = (reader.read(data["source"], split, data["size"], log) for split in ("train", "test"))
        for path, arrays in zip(sources, (train, test)):
            problem = generator.validate(arrays)
            if problem:
                fail(path, f"read as {data['format']}: {problem}")
    elif sources:
        train, test = (_dataset(str(checked(p))) for p in sources)
        if train["images"].shape[1:] != test["images"].shape[1:]:
            fail(sources[1], f"images of shape {list(test['images'].shape[1:])} differ from {sources[0]}'s")
    else:
        print(f"generating {data['train']} training and {data['test']} test scenes", flush=True)
        train = generator.generate(data["train"], data["seed"], data["size"], data["noise"])
        test = generator.generate(data["test"], data["seed"] + 1, data["size"], data["noise"])
    write_npz(train_file, **train)
    write_npz(test_file, **test)


def teacher(
    train_file: str,
    program: list[str],
    teacher_folder: str,
    loss_file: str,
    hub: list[str] = (),
    *,
    name: str,
    teachers: dict,
    patch: int,
    seed: int,
) -> None:
    """One frozen teacher: trained here with its objective, the paper's foundation model (``hub``: its Hugging
    Face folder) or the user's ``torch.export`` program (copied); with the per-channel standardisation of its
    features over the training images."""
    import os
    import shutil
    from pathlib import Path

    from ..common.determinism import seed_everything
    from ..common.io import temporary_sibling
    from ..common.sources import fail
    from . import teachers as t

    seed_everything(seed)
    data = _dataset(train_file)
    size = data["images"].shape[-1]
    if program:
        model = t.load_program(program[0], size)
        description, losses = {"kind": "program", "image_size": size, "source": Path(program[0]).name}, []
    elif hub:
        from .vfm import FoundationTeacher

        model = FoundationTeacher(hub[0])
        description = {"kind": "hub", "folder": hub[0], "model_type": model.kind, "input_size": model.size}
        losses = []
        print(f"{name} teacher: the {model.kind} vision encoder of {hub[0]} at {model.size} x {model.size}", flush=True)
    else:
        missing = [k for k in t.NEEDS[name] if k not in data]
        if missing:
            fail(
                train_file,
                f"the {name} teacher trained here reads {missing}, which this data set lacks; give "
                f"teachers.hub.{name} (the paper's teacher) or teachers.programs.{name}",
            )
        model, losses = t.train(
            name,
            data,
            channels=teachers["channels"],
            features=teachers["features"],
            steps=teachers["steps"],
            batch_size=teachers["batch_size"],
            lr=teachers["lr"],
            seed=seed,
            log_every=teachers["log_every"],
            log=lambda line: print(line, flush=True),
        )
        description = {"kind": "ours", "channels": teachers["channels"], "features": teachers["features"]}
    mean, std = t.standardisation(model, data["images"], size // patch)
    tmp = temporary_sibling(teacher_folder)
    shutil.rmtree(tmp, ignore_errors=True)
    t.save(tmp, t.Teacher(model, mean, std, size // patch), description | {"objective": name})
    if program:
        shutil.copyfile(program[0], Path(tmp) / "program.pt2")
    os.replace(tmp, teacher_folder)
    write_csv(loss_file, pd.DataFrame({"teacher": name, "step": np.arange(1, len(losses) + 1), "loss": losses}))


def student(
    train_file: str,
    test_file: str,
    teacher_folders: list[str],
    model_file: str,
    stats_file: str,
    routing_file: str,
    loss_file: str,
    conflict_file: str,
    summary_file: str,
    timing: str,
    *,
    method: str,
    seed: int,
    student: dict,
    training: dict,
    measure: dict,
    labelled: int | None,
    device: str,
) -> None:
    """One student: stage 1 on its teachers (if any) over every training scene, stage 2 on the task labels of the
    first ``labelled`` scenes only (all when ``None``: like foundation models, the teachers have seen more than
    the labelled downstream set), then the per-image test stats (also with every task on another task's
    pathway), the routing counts and the training and inference speed."""
    import time
    from pathlib import Path

    import torch
    from safetensors.torch import save_file

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from ..common.io import atomic_path
    from ..common.sources import fail
    from . import distill
    from . import student as students
    from . import teachers as t
    from .methods import METHODS, OBJECTIVES, conditions
    from .metrics import overall
    from .tasks import of

    rng = seed_everything(seed)
    device = torch.device(resolve_device(device))
    spec = METHODS[method]
    train, test = _dataset(train_file), _dataset(test_file)
    tasks = of(train)
    if train["images"].shape[-1] % student["patch"]:
        fail(train_file, f"{train['images'].shape[-1]}-pixel images do not split into patches of student.patch")
    settings = students.StudentSettings(image_size=train["images"].shape[-1], **student)
    settings = students.matched_width(settings, spec.kind, len(OBJECTIVES), len(tasks))
    net = students.Student(settings, spec.kind, len(OBJECTIVES), len(tasks)).to(device)
    ids = conditions(tasks)
    grid = settings.image_size // settings.patch
    loaded = {Path(folder).name: t.load(folder, grid).to(device) for folder in teacher_folders}
    s = distill.TrainSettings(**training)
    log = lambda line: print(f"{method} seed {seed}: {line}", flush=True)  # noqa: E731
    log(f"{students.parameter_count(net):,} parameters ({spec.description}) on {device}")
    losses, cosines, seconds = [], [], {}
    if spec.teachers:
        chosen = {n: loaded[n] for n in spec.teachers}
        projectors = torch.nn.ModuleDict(
            {n: distill.Projector(settings.dim, int(chosen[n].mean.numel())) for n in chosen}
        )
        start = time.perf_counter()
        losses, cosines = distill.stage1(net, projectors.to(device), chosen, ids, train, s, rng, log)
        seconds["stage1"] = (time.perf_counter() - start, s.stage1_steps * s.batch_size)
    stage1_routing = distill.routing_counts(net, [ids[n] for n in OBJECTIVES], test["images"], settings.experts)
    heads = torch.nn.ModuleDict({t: distill.Linear2d(settings.dim, n, settings.patch) for t, n in tasks.items()})
    heads = heads.to(device)
    steps = s.stage2_steps if spec.teachers else s.stage1_steps + s.stage2_steps
    start = time.perf_counter()
    labels = train if labelled is None else {k: v[:labelled] for k, v in train.items()}
    losses += distill.stage2(net, heads, ids, labels, s, rng, steps, log)
    seconds["stage2"] = (time.perf_counter() - start, steps * s.batch_size)
    stats = distill.evaluate(net, heads, ids, test)
    swapped = distill.evaluate(net, heads, ids, test, shift=1)
    stage2_routing = distill.routing_counts(net, [ids[task] for task in tasks], test["images"], settings.experts)

    with atomic_path(model_file) as tmp:  # safetensors: the same weights give the same bytes
        weights = {f"student.{k}": v for k, v in net.state_dict().items()}
        save_file(weights | {f"heads.{k}": v for k, v in heads.state_dict().items()}, str(tmp))
    write_npz(stats_file, **stats, **{f"swapped_{k}": v for k, v in swapped.items()})
    write_npz(routing_file, stage1=stage1_routing, stage2=stage2_routing)
    parameters = students.parameter_count(net)
    write_json(
        summary_file,
        {
            "method": method,
            "seed": seed,
            "kind": spec.kind,
            "teachers": list(spec.teachers),
            "free_width": settings.width,
            "parameters": parameters,
        },
    )
    label = {"method": method, "seed": seed}
    write_csv(loss_file, pd.DataFrame([label | row for row in losses]))
    write_csv(conflict_file, pd.DataFrame([label | row for row in cosines], columns=[*label, "step", "pair", "cosine"]))
    seconds["inference"] = _inference_seconds(net, heads, ids, test["images"][: measure["batch"]], measure["repeats"])
    rows = [
        label
        | {
            "stage": stage,
            "seconds": sec,
            "images": n,
            "images_per_s": n / sec,
            "ms_per_image": 1000 * sec / n,
            "parameters": parameters,
        }
        for stage, (sec, n) in seconds.items()
    ]
    write_csv(timing, pd.DataFrame(rows))
    log("test " + ", ".join(f"{k} {v:.4f}" for k, v in overall(stats).items()))


def _inference_seconds(net, heads, ids: dict[str, int], images: np.ndarray, repeats: int) -> tuple[float, int]:
    """Median seconds of one evaluation forward (every task's pathway and head) on ``images``, after a warm-up."""
    import torch

    from ..common.timing import interleaved, medians

    device = next(net.parameters()).device
    batch, order = torch.from_numpy(images).to(device), [ids[task] for task in heads]
    net.eval()

    @torch.no_grad()
    def infer():
        out = net(batch, order)
        maps = [heads[task](tokens) for task, tokens in zip(heads, out.tokens)]
        if device.type == "cuda":
            torch.cuda.synchronize()
        return maps

    seconds = medians(interleaved({"infer": infer}, repeats))["infer"]
    net.train()
    return seconds, len(images)


def _run_key(path: str) -> tuple[str, int]:
    """(method, seed) from ``.../students/<method>/seed<seed>.<what>``."""
    from pathlib import Path

    p = Path(path)
    return p.parent.name, int(p.name.split(".")[0].removeprefix("seed"))


COMPARISONS = (  # (method, baseline) pairs of the comparison table: the claims' and the ablation ladder
    ("prism", "dense"),
    ("prism", "moe_unconditioned"),
    ("prism", "adapters"),
    ("moe_unconditioned", "dense"),
    ("dense", "single_semantic"),
    ("dense", "single_geometric"),
    ("dense", "single_texture"),
    ("prism", "prism_swapped"),
)


def tables(
    stats: list[str],
    routing: list[str],
    conflicts: list[str],
    summaries: list[str],
    metrics_table: str,
    delta_table: str,
    comparisons_table: str,
    specialisation_table: str,
    routing_table: str,
    conflict_table: str,
    parameters_table: str,
    *,
    criteria: dict,
) -> None:
    """Per-run metrics, Delta_m with bootstrap intervals and the comparisons, routing specialisation against its
    permutation null, routing shares, teacher gradient conflict and the parameter counts."""
    from ..common.bootstrap import student_t
    from . import analysis
    from .methods import METHODS, OBJECTIVES, REFERENCE
    from .metrics import bootstrap_delta_m, delta_m, overall
    from .tasks import METRICS

    runs: dict[str, list[dict]] = {}
    rows = []
    for path in sorted(stats, key=_run_key):
        method, seed = _run_key(path)
        arrays = read_npz(path)
        own = {k: v for k, v in arrays.items() if not k.startswith("swapped_")}
        runs.setdefault(method, []).append(own)
        rows.append({"method": method, "seed": seed, "pathway": "own", **overall(own)})
        if method == "prism":
            swapped = {k.removeprefix("swapped_"): v for k, v in arrays.items() if k.startswith("swapped_")}
            runs.setdefault("prism_swapped", []).append(swapped)
            rows.append({"method": method, "seed": seed, "pathway": "another task's", **overall(swapped)})
    per_run = pd.DataFrame(rows)
    measured = [m for m in METRICS.values() if m in per_run]  # the data set's tasks' metrics
    tasks = [t for t, m in METRICS.items() if m in measured]
    own = per_run[per_run["pathway"] == "own"]
    reference = {m: own.loc[own["method"] == REFERENCE, m].mean() for m in measured}
    per_run["delta_m"] = delta_m({m: per_run[m].to_numpy() for m in measured}, reference)
    write_csv(metrics_table, per_run)

    # the seeds are not resampled: Student's t over them, widened by the images' variance from the bootstrap (a
    # percentile bootstrap over a few seeds under-covers: common.bootstrap, docs/ARCHITECTURE.md "Claims and verdicts")
    draws = bootstrap_delta_m(runs, REFERENCE, resamples=criteria["resamples"], seed=criteria["seed"])
    seed_delta = {
        m: per_run.loc[(per_run["method"] == m) & (per_run["pathway"] == "own"), "delta_m"].to_numpy()
        for m in runs
        if m != "prism_swapped"
    }
    seed_delta["prism_swapped"] = per_run.loc[per_run["pathway"] == "another task's", "delta_m"].to_numpy()

    def bounds(estimate: float, draw: np.ndarray, *methods: str) -> tuple[float, float, str]:
        parts = [(float(np.var(draw, ddof=1)), len(draw) - 1)]
        parts += [
            (float(np.var(seed_delta[m], ddof=1)) / len(seed_delta[m]), len(seed_delta[m]) - 1)
            for m in methods
            if len(seed_delta[m]) > 1
        ]
        low, high = student_t(estimate, parts, criteria["confidence"])
        return low, high, f"t over {', '.join(str(len(seed_delta[m])) for m in methods)} seeds and the test images"

    summary = []
    for method, per_seed in runs.items():
        pooled = [overall(s) for s in per_seed]
        means = {m: float(np.mean([p[m] for p in pooled])) for m in measured}
        value = float(delta_m(means, reference))
        low, high, how = bounds(value, draws[method], method)
        summary.append(
            {
                "method": method,
                "seeds": len(per_seed),
                **means,
                "delta_m": value,
                "low": low,
                "high": high,
                "interval": how,
            }
        )
    order = {m: i for i, m in enumerate([*METHODS, "prism_swapped"])}
    write_csv(delta_table, pd.DataFrame(summary).sort_values("method", key=lambda s: s.map(order)))
    compared = []
    for a, b in COMPARISONS:
        if a in draws and b in draws:
            diff = next(r["delta_m"] for r in summary if r["method"] == a) - next(
                r["delta_m"] for r in summary if r["method"] == b
            )
            low, high, how = bounds(diff, draws[a] - draws[b], a, b)
            compared.append({"method": a, "baseline": b, "difference": diff, "low": low, "high": high, "interval": how})
    columns = ["method", "baseline", "difference", "low", "high", "interval"]
    write_csv(comparisons_table, pd.DataFrame(compared, columns=columns))

    counts = {}
    for path in sorted(routing, key=_run_key):
        arrays = read_npz(path)
        if arrays["stage1"].size:
            counts[_run_key(path)] = {"stage1": arrays["stage1"], "stage2": arrays["stage2"]}
    names = {"stage1": list(OBJECTIVES), "stage2": tasks}
    columns = ["method", "seed", "stage", "block", "mi_bits", "nmi", "null_p95", "null_max", "experts_used"]
    special = analysis.specialisation(counts, criteria["permutations"], criteria["seed"]) if counts else None
    write_csv(specialisation_table, special if special is not None else pd.DataFrame(columns=columns))
    write_csv(routing_table, analysis.routing_shares(counts, names))
    write_csv(conflict_table, analysis.conflict(_cosines(conflicts)))
    summary_rows = pd.DataFrame([read_json(p) for p in summaries]).drop(columns=["seed", "teachers"])
    parameters = summary_rows.drop_duplicates("method").sort_values("method", key=lambda s: s.map(order))
    write_csv(parameters_table, parameters[["method", "kind", "free_width", "parameters"]])


def _cosines(paths: list[str]) -> pd.DataFrame:
    """The gradient cosines of every student with several teachers (the others' files have no rows)."""
    frames = [frame for frame in map(read_csv, paths) if len(frame)]
    columns = ["method", "seed", "step", "pair", "cosine"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def timing(runs: list[str], throughput_table: str, machine: str) -> None:
    """Training images per second per stage and inference milliseconds per image, per method (medians over seeds),
    beside the parameter counts (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine

    frame = read_csvs(runs)
    table = frame.groupby(["method", "stage"], sort=True).agg(
        images_per_s=("images_per_s", "median"),
        ms_per_image=("ms_per_image", "median"),
        parameters=("parameters", "first"),
        seeds=("seed", "count"),
    )
    write_csv(throughput_table, table.reset_index())
    write_machine(machine)


def figures(
    metrics_table: str,
    delta_table: str,
    specialisation_table: str,
    routing_table: str,
    conflict_files: list[str],
    **outputs: str,
) -> None:
    """Delta_m per method with intervals, the per-task metrics, the routing heat maps (expert x teacher, expert x
    task), MI against its permutation null, and the teachers' gradient cosines during stage 1."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.delta_m(read_csv(delta_table)), *paths("delta_m"))
        save_figure(plots.task_metrics(read_csv(metrics_table)), *paths("task_metrics"))
        save_figure(plots.routing(read_csv(routing_table)), *paths("routing"))
        save_figure(plots.specialisation(read_csv(specialisation_table)), *paths("specialisation"))
        save_figure(plots.conflict(_cosines(conflict_files)), *paths("conflict"))


def verdict(
    comparisons_table: str,
    delta_table: str,
    specialisation_table: str,
    conflict_table: str,
    claims: str,
    metrics: str,
    *,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import verdict as v
    from .tasks import METRICS

    comparisons, delta = read_csv(comparisons_table), read_csv(delta_table)
    specialisation = read_csv(specialisation_table)
    conflict = v.teachers_conflict(read_csv(conflict_table))
    write_claims(
        claims,
        [
            conflict,
            v.prism_beats_dense(comparisons, delta, v.premises(conflict, delta)),
            v.experts_specialise(specialisation),
            v.task_pathways(specialisation, comparisons),
        ],
        substitution=substitution,
    )
    write_json(
        metrics,
        {
            "delta_m": {r.method: r.delta_m for r in delta.itertuples()},
            "metrics": {
                row["method"]: {m: row[m] for m in METRICS.values() if m in delta} for _, row in delta.iterrows()
            },
            "specialisation_nmi": {
                f"{stage}/{method}": float(g["nmi"].mean())
                for (stage, method), g in specialisation.groupby(["stage", "method"], sort=True)
            },
        },
    )
