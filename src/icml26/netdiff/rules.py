"""Rule functions of the netdiff workflow (workflow/rules/netdiff.smk); each is one job."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common.io import read_csv, read_csvs, read_json, write_csv, write_json, write_npz
from ..common.sources import arrays


def _channel(channel: dict):
    from .simulator import Channel

    return Channel(**channel)


def _log(prefix: str):
    return lambda line: print(f"{prefix}: {line}", flush=True)


def calibration(calibration_table: str, *, calibration: dict, radius: float, rounds: int) -> None:
    """The calibration sweep: each heuristic's share of the target's throughput per sector count, side lobe and
    node count, with the rows inside the spec's bands marked ``admissible``."""
    from . import calibration as c

    table = c.sweep(
        calibration["sectors"],
        calibration["side_db"],
        calibration["nodes"],
        radius=radius,
        instances=calibration["instances"],
        seed=calibration["seed"],
        rounds=rounds,
        log=_log("calibration"),
    )
    write_csv(calibration_table, table)


def dataset(
    placements: list[str], train_file: str, test_file: str, *, data: dict, radius: float, channel: dict
) -> None:
    """Training instances (N uniform in ``train_nodes``) and test instances (``test`` per N of ``test_nodes``, or
    the user's placements), each with its target topology."""
    from ..common.sources import checked, fail
    from . import store
    from .simulator import place
    from .target import target

    ch, log = _channel(channel), _log("dataset")
    rng = np.random.default_rng(data["seed"])
    low, high = data["train_nodes"]["low"], data["train_nodes"]["high"]
    train = [place(int(rng.integers(low, high + 1)), radius, rng) for _ in range(data["train"])]
    if placements:
        given = arrays(str(checked(placements[0])))
        problem = store.validate(given, radius)
        if problem:
            fail(placements[0], problem)
        test = store.instances(given, radius)
    else:
        test = [place(n, radius, rng) for n in data["test_nodes"] for _ in range(data["test"])]
    for name, instances, path in (("training", train, train_file), ("test", test, test_file)):
        targets = []
        for k, instance in enumerate(instances):
            targets.append(target(instance, ch, data["rounds"])[0])
            if (k + 1) % 500 == 0:
                log(f"{name} targets {k + 1}/{len(instances)}")
        write_npz(path, **store.to_arrays(instances, targets))
        log(f"{len(instances)} {name} instances, N {min(x.n for x in instances)}-{max(x.n for x in instances)}")


def milp_check(milp_table: str, *, milp: dict, radius: float, channel: dict, rounds: int) -> None:
    """The target against the exact MILP on small instances: each one's surrogate objective (interference-free
    rate) and true throughput, for the MILP's optimum, the target and the greedy heuristic."""
    from . import heuristics
    from . import milp as exact
    from .simulator import metrics, place
    from .target import target

    ch, rows = _channel(channel), []
    for n in milp["nodes"]:
        rng = np.random.default_rng([milp["seed"], n])
        for k in range(milp["instances"]):
            instance = place(n, radius, rng)
            solution = exact.solve(instance, ch, milp["time_limit"])
            built = {"milp": solution.topology, "target": target(instance, ch, rounds)[0]}
            built["greedy"] = heuristics.greedy(instance, ch)
            for method, topology in built.items():
                rows.append(
                    {
                        "nodes": n,
                        "instance": k,
                        "method": method,
                        "surrogate": exact.surrogate(instance, topology, ch),
                        "milp_optimum": solution.bound,  # the dual bound where the time limit stopped it
                        "milp_optimal": solution.optimal,
                        "throughput": metrics(instance, topology, ch)["throughput"],
                        "connected": metrics(instance, topology, ch)["connected"],
                    }
                )
        _log("milp")(f"N={n}: {milp['instances']} instances solved")
    write_csv(milp_table, pd.DataFrame(rows))


def train(
    train_file: str,
    model_file: str,
    loss_file: str,
    *,
    name: str,
    seed: int,
    model: dict,
    training: dict,
    channel: dict,
    device: str = "cpu",
) -> None:
    """One denoiser (NetDiff or an ablation, settings.MODELS) trained on the training targets, on ``device`` (the
    config's; initialised on the CPU, so the same everywhere)."""
    import torch

    from ..common.determinism import seed_everything
    from ..common.device import resolve_device
    from ..common.io import atomic_path
    from . import experiments, store
    from . import training as t
    from .denoiser import Denoiser
    from .settings import MODELS

    seed_everything(seed)
    variant, ch = MODELS[name], _channel(channel)
    data = store.examples(arrays(train_file))
    net = Denoiser(t.denoiser_settings(ch.sectors, acam=variant.acam, **model)).to(resolve_device(device))
    log = _log(f"{name} seed {seed}")
    log(f"{sum(p.numel() for p in net.parameters()):,} parameters ({variant.description}), {len(data)} instances")
    trained = experiments.train(
        net,
        data,
        ch,
        steps=training["steps"],
        diffusion_steps=training["diffusion_steps"],
        batch_size=training["batch_size"],
        lr=training["lr"],
        aux=training["aux"] if variant.aux else 0.0,
        seed=seed,
        log=log,
        log_every=training["log_every"],
    )
    with atomic_path(model_file) as tmp, torch.no_grad():
        experiments.save(trained, str(tmp), {"model": name, "seed": seed})
    steps = np.arange(1, len(trained.losses) + 1)
    write_csv(loss_file, pd.DataFrame({"model": name, "seed": seed, "step": steps, "loss": trained.losses}))


def _model(path: str, device: str):
    """A saved model, its denoiser on the config's ``device``; a file that is not one is one line naming it."""
    from ..common.device import resolve_device
    from ..common.sources import fail
    from .experiments import load

    try:
        trained = load(path)
    except ValueError as error:
        fail(path, str(error))
    trained.model.to(resolve_device(device))
    return trained


def evaluate(
    test_file: str, model_file: str, evaluation_file: str, *, name: str, seed: int, channel: dict, device: str = "cpu"
) -> None:
    """The model's topologies for every test instance, as generated and repaired, with their metrics."""
    from ..common.determinism import seed_everything
    from . import experiments, store

    seed_everything(seed)
    log, trained, data = _log(f"{name} seed {seed}"), _model(model_file, device), store.examples(arrays(test_file))
    frame = pd.DataFrame(experiments.evaluate(trained, data, _channel(channel), seed, name, log)).assign(seed=seed)
    write_csv(evaluation_file, frame)
    repaired = frame[frame["method"] == name]
    log(f"mean share of target {repaired['share'].mean():.3f} on {len(repaired)} instances")


def baselines(test_file: str, baselines_file: str, *, channel: dict, seed: int) -> None:
    """The target and the heuristics on every test instance."""
    from . import experiments, store

    rows = experiments.baselines(store.examples(arrays(test_file)), _channel(channel), seed)
    write_csv(baselines_file, pd.DataFrame(rows).assign(seed=0))


def _traces(partial: dict, radius: float):
    from .mobility import trace
    from .simulator import place

    rng = np.random.default_rng(partial["seed"])
    starts = [place(partial["nodes"], radius, rng) for _ in range(partial["traces"])]
    return [trace(s, partial["frames"], partial["speed"], partial["turn"], rng) for s in starts]


def partial(
    model_file: str,
    partial_file: str,
    *,
    seed: int,
    partial: dict,
    radius: float,
    channel: dict,
    rounds: int,
    device: str = "cpu",
) -> None:
    """Partial diffusion over the mobility traces (the same for every model: ``partial.seed``) with every restart
    step, by NetDiff of one seed."""
    from ..common.determinism import seed_everything
    from . import experiments

    seed_everything(partial["seed"])
    traces = _traces(partial, radius)
    log = _log(f"partial, netdiff seed {seed}")
    rows = experiments.partial_sweep(
        _model(model_file, device), traces, _channel(channel), partial["restarts"], partial["seed"], rounds, log
    )
    write_csv(partial_file, pd.DataFrame(rows).assign(seed=seed))


def _key(path: str) -> tuple[str, int]:
    """(model, seed) from ``.../evaluations/<model>/seed<seed>.csv``."""
    from pathlib import Path

    p = Path(path)
    return p.parent.name, int(p.stem.removeprefix("seed"))


def tables(
    evaluations: list[str],
    baselines_file: str,
    partial_files: list[str],
    milp_table: str,
    results_table: str,
    repair_table: str,
    comparisons_table: str,
    counts_table: str,
    partial_table: str,
    gap_table: str,
    *,
    models: list[str],
    criteria: dict,
) -> None:
    """Per method and test N: mean metrics and share of the target with its interval; each model before and after
    repair side by side; NetDiff against every other method (paired over instances, over seeds); the global-count
    errors (density, sector usage) of the generated topologies; partial diffusion per restart step; the target's
    gap to the MILP."""
    from . import analysis

    frame = pd.concat([read_csvs(sorted(evaluations, key=_key)), read_csv(baselines_file)], ignore_index=True)
    results = analysis.results(frame, criteria)
    write_csv(results_table, results)
    write_csv(repair_table, analysis.repair(results, models))
    write_csv(comparisons_table, analysis.comparisons(frame, models, criteria))
    write_csv(counts_table, analysis.count_errors(frame, models, criteria))
    partial = [read_csv(path).assign(seed=_key(path)[1]) for path in partial_files]
    write_csv(partial_table, analysis.partial(pd.concat(partial, ignore_index=True)))
    write_csv(gap_table, analysis.milp_gap(read_csv(milp_table)))


def timing(
    model_files: list[str],
    partial_table: str,
    inference_table: str,
    partial_timing: str,
    machine: str,
    *,
    timing: dict,
    partial: dict,
    radius: float,
    channel: dict,
    rounds: int,
    device: str = "cpu",
) -> None:
    """Inference seconds per instance vs N for every model and heuristic and the target generator, and the time
    of a partial-diffusion update per restart step beside its quality and churn from ``tables/partial.csv``, the
    time-quality trade-off (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.timing import write_machine
    from . import experiments

    ch, log = _channel(channel), _log("timing")
    loaded = {_key(path)[0]: _model(path, device) for path in model_files}
    write_csv(inference_table, experiments.inference_seconds(loaded, timing, radius, ch, rounds, log))
    seconds = experiments.partial_seconds(loaded["netdiff"], partial, radius, ch, timing["repeats"])
    quality = read_csv(partial_table)[["restart", "share", "churn", "connected"]]
    write_csv(partial_timing, seconds.merge(quality, on="restart", how="left"))
    write_machine(machine)


def timing_verdict(
    inference_table: str, partial_timing: str, machine: str, claims: str, *, criteria: dict, substitution: str
) -> None:
    """The wall-clock claim, in ``timing/claims.json`` (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.claims import write_claims
    from . import verdict as v

    write_claims(
        claims,
        [v.constant_inference_time(read_csv(inference_table), criteria["flat"], read_json(machine))],
        substitution=substitution,
    )


def timing_figures(inference_table: str, machine: str, *, flat: float, **outputs: str) -> None:
    """Inference time against N, as measured (docs/ARCHITECTURE.md, "Measured outputs")."""
    from ..common.figures import figure_set, save_figure
    from ..common.timing import describe
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.inference(read_csv(inference_table), flat, describe(read_json(machine))), *paths("inference"))


def figures(
    calibration_table: str,
    results_table: str,
    counts_table: str,
    partial_table: str,
    gap_table: str,
    *,
    near: float,
    channel: dict,
    **outputs: str,
) -> None:
    """The calibration, the share of the target per method and N, the count errors with and without ACAM, the
    partial-diffusion trade-off and the target against the MILP."""
    from ..common.figures import figure_set, save_figure
    from . import plots

    with figure_set(outputs) as paths:
        save_figure(plots.calibration(read_csv(calibration_table), channel), *paths("calibration"))
        save_figure(plots.shares(read_csv(results_table)), *paths("shares"))
        save_figure(plots.counts(read_csv(counts_table)), *paths("counts"))
        save_figure(plots.partial(read_csv(partial_table), near), *paths("partial"))
        save_figure(plots.milp(read_csv(gap_table)), *paths("milp"))


def verdict(
    calibration_table: str,
    results_table: str,
    comparisons_table: str,
    counts_table: str,
    partial_table: str,
    gap_table: str,
    claims: str,
    metrics: str,
    *,
    channel: dict,
    test_nodes: list[int],
    criteria: dict,
    substitution: str,
) -> None:
    from ..common.claims import write_claims
    from . import verdict as v

    results, comparisons, counts = read_csv(results_table), read_csv(comparisons_table), read_csv(counts_table)
    partial = read_csv(partial_table)
    calibrated = v.simulator_calibrated(read_csv(calibration_table), channel, test_nodes)
    premises = [v.calibration_premise(calibrated)]
    write_claims(
        claims,
        [
            calibrated,
            v.reaches_target(results, premises),
            v.beats_heuristics(comparisons, premises),
            v.improves_over_graph_transformer(comparisons, premises),
            v.acam_matches_counts(counts, premises),
            v.partial_diffusion(partial, criteria["near"], premises),
        ],
        substitution=substitution,
    )
    gap = read_csv(gap_table)
    write_json(
        metrics,
        {
            "share": {f"{r.method}/N{r.nodes}": r.share for r in results.itertuples()},
            "connected": {f"{r.method}/N{r.nodes}": r.connected for r in results.itertuples()},
            "count_error": {f"{r.model}/{r.count}/N{r.nodes}": r.error for r in counts.itertuples()},
            "partial_share": {int(r.restart): r.share for r in partial.itertuples()},
            "partial_churn": {int(r.restart): r.churn for r in partial.itertuples()},
            "target_vs_milp": {f"N{r.nodes}": r.throughput_ratio for r in gap.itertuples()},
        },
    )
