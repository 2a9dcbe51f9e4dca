"""The fault sweep: what a user sees after each of ~45 faults, tried through the command line.

Bad config values, reversed ranges, floats where integers belong, missing / truncated / garbled /
changed source files (in ``../shared/data`` and in the user's own folders), lost outputs, and runs
killed by SIGINT, SIGTERM and SIGKILL. Each case runs in a fresh copy of the repository beside its own
copy of ``../shared/data`` (nothing here is touched) and is judged:

- ``error``: the run stopped with a line naming the key or file (``icml26: ...``, or Snakemake's
  missing-input message naming the file), no traceback as the only message, and no stale output left;
- ``rerun``: a valid change to a source file makes Snakemake plan the rule that reads it (never stale);
- ``rebuilt``: the run rebuilt what was lost or interrupted, byte-identical to a clean run;
- ``FAULT``: anything else (a silent or stale result, a traceback, a wrong rebuild).

    python scripts/fault_sweep.py [--out docs/FAULTS.md] [--only substring]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from icml26.common.checkouts import copy_repository, copy_with_own_data, tool_env, tree_digest

ROOT = Path(__file__).resolve().parents[1]

SMOKE = ("--configfile", "config/smoke.yaml")
QUICK = ("--configfile", "config/quick.yaml")
METABRIC = "data/quick/cox_subgroups/datasets/metabric.csv"
CMAPSS = "data/quick/cox_subgroups/datasets/cmapss.csv"
STATS = "data/quick/seizure_benchmark/seizure_statistics.csv"
SZCORE = "data/quick/seizure_benchmark/szcore/results.json"
VERTEBRAL = "data/quick/dvm_ad/datasets/39_vertebral.npz"
READERS = [METABRIC, CMAPSS, STATS, SZCORE, VERTEBRAL]


@dataclass
class Case:
    name: str
    kind: str  # config | source | stale | lost | kill
    run: Callable[[Sandbox], tuple[bool, str]]


class Sandbox:
    """A repository copy at ``where/icml26`` with ``where/shared/data`` (a real copy) and ``where/own``."""

    def __init__(self, where: Path):
        self.where = where
        self.data = where / "shared" / "data"
        self.repo = copy_with_own_data(where)
        self.own = where / "own"

    def snakemake(self, *args: str, overlay: str | None = None) -> subprocess.CompletedProcess:
        extra = []
        if overlay is not None:
            (self.repo / "overlay.yaml").write_text(overlay)
            extra = ["overlay.yaml"]  # after the scale's config file: --configfile takes several
        return subprocess.run(
            [sys.executable, "-m", "snakemake", *args, *extra],
            cwd=self.repo,
            env=tool_env(),
            capture_output=True,
            text=True,
            timeout=3600,
            check=False,
        )

    def own_copy(self, folder: str) -> Path:
        """A copy of one offline folder under ``own/`` (the user's own data, not checksummed)."""
        target = self.own / folder
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.data / folder, target)
        return target


def first_line(proc: subprocess.CompletedProcess) -> str:
    text = proc.stdout + proc.stderr
    all_lines = text.splitlines()
    lines = [line for line in all_lines if line.startswith("icml26: ")]
    if not lines and "affected files:" in all_lines[-1:] + [line.strip() for line in all_lines]:
        at = [line.strip() for line in all_lines].index("affected files:")
        missing = next(line.strip() for line in all_lines if line.startswith("Missing input files"))
        lines = [f"{missing} {all_lines[at + 1].strip()}"]
    return lines[0] if lines else (text.strip().splitlines() or ["(no output)"])[-1]


def stopped(proc: subprocess.CompletedProcess, *expect: str) -> tuple[bool, str]:
    """An error with a line containing every ``expect`` string, and no bare traceback."""
    line = first_line(proc)
    named = proc.returncode != 0 and all(e in (proc.stdout + proc.stderr) for e in expect)
    bare_traceback = "Traceback (most recent call last)" in proc.stderr and not line.startswith("icml26: ")
    return named and not bare_traceback, line


# --- config -------------------------------------------------------------------------------------------


def config_case(name: str, paper: str, overlay: str, *expect: str) -> Case:
    def run(box: Sandbox) -> tuple[bool, str]:
        proc = box.snakemake(paper, "-n", "--cores", "1", *SMOKE, overlay=overlay)
        return stopped(proc, "icml26: invalid config", *expect)

    return Case(name, "config", run)


CONFIG = [
    config_case("value out of range", "ski_rental", "ski_rental: {lambdas: [0.5, 2]}", "ski_rental.lambdas[1]"),
    config_case("typo in a key", "ski_rental", "ski_rental: {lamdbas: [0.5]}", "lamdbas"),
    config_case("unknown paper section", "ski_rental", "skirental: {B_values: [10]}", "skirental"),
    config_case("paper section not a mapping", "ski_rental", "ski_rental: fast", "ski_rental: must be a mapping"),
    config_case("wrong type (string for a number)", "dvm_ad", "dvm_ad: {max_rows: many}", "dvm_ad.max_rows"),
    config_case("negative count", "massart_drift", "massart_drift: {sweep: {reps: -3}}", "massart_drift.sweep.reps"),
    config_case("unknown scale", "ski_rental", "scale: huge", "scale"),
    config_case("zero threads", "ski_rental", "threads: 0", "threads"),
    config_case("unknown device", "ski_rental", "device: tpu", "device"),
    config_case(
        "reversed range: cox thresholds",
        "cox_subgroups",
        "cox_subgroups: {settings: {thresholds: {low: 0.4, high: 0.1}}}",
        "cox_subgroups.settings.thresholds: low (0.4) must be below high (0.1)",
    ),
    config_case(
        "one-point range: cox thresholds",
        "cox_subgroups",
        "cox_subgroups: {settings: {thresholds: {points: 1}}}",
        "cox_subgroups.settings.thresholds.points",
    ),
    config_case(
        "reversed range: massart Delta",
        "massart_drift",
        "massart_drift: {sweep: {Delta: {low: 0.003, high: 0.0001}}}",
        "massart_drift.sweep.Delta: low",
    ),
    config_case(
        "reversed range: massart W",
        "massart_drift",
        "massart_drift: {sweep: {W: {low: 600, high: 2}}}",
        "massart_drift.sweep.W: low",
    ),
    config_case(
        "reversed range: annealed horizon grid",
        "annealed_langevin",
        "annealed_langevin: {factorised: {horizon_grid: {low: 100.0, high: 1.0}}}",
        "annealed_langevin.factorised.horizon_grid: low",
    ),
    config_case(
        "equal bounds: massart W",
        "massart_drift",
        "massart_drift: {sweep: {W: {low: 50, high: 50}}}",
        "massart_drift.sweep.W: low (50) must be below high (50)",
    ),
    config_case(
        "float for an integer: seeds [0, 1.0]",
        "massart_drift",
        "massart_drift: {stream: {seeds: [0, 1.0]}}",
        "massart_drift.stream.seeds[1]: 1.0 is not of type 'integer'",
    ),
    config_case(
        "float for an integer: enum order 4.0",
        "manifold_microscope",
        "manifold_microscope: {accuracy: {order: 4.0}}",
        "manifold_microscope.accuracy.order",
    ),
    config_case(
        "float for an integer: fs 256.0",
        "seizure_benchmark",
        "seizure_benchmark: {corpus: {fs: 256.0}}",
        "seizure_benchmark.corpus.fs",
    ),
    config_case(
        "cross-key: weights do not sum to 1",
        "annealed_langevin",
        "annealed_langevin: {particles: {weights: [0.5, 0.6, 0.1]}}",
        "particles.weights must sum to 1",
    ),
    config_case(
        "cross-key: base width not swept",
        "completep_rl",
        "completep_rl: {base_width: 12345}",
        "sweep.widths must contain",
    ),
    config_case(
        "unknown fault name",
        "cerebellar_control",
        "cerebellar_control: {faults: [nonesuch]}",
        "cerebellar_control.faults[0]",
        "nonesuch",
    ),
    config_case(
        "cross-key: algorithm without settings",
        "seizure_benchmark",
        "seizure_benchmark: {algorithms: [never, nonesuch]}",
        "'nonesuch' has no entry",
    ),
    config_case(
        "cross-key: figure lambda not computed",
        "ski_rental",
        "ski_rental: {figures: {lam: 0.77}}",
        "figures.lam must be one of",
    ),
    config_case(
        "cross-key: checkpoint after the last iteration",
        "manifold_microscope",
        "manifold_microscope: {vae: {checkpoints: [0, 99999999]}}",
        "vae.checkpoints",
    ),
]


# --- sources: damaged, changed, missing ---------------------------------------------------------------


def source_case(name: str, target: str, damage: Callable[[Sandbox], str | None], *expect: str) -> Case:
    """Damage a source (``damage`` returns a config overlay pointing at the user's own copy, or None), run the
    rule that reads it, restore. It must stop naming the file and leave no output."""

    def run(box: Sandbox) -> tuple[bool, str]:
        backup = box.where / "backup"
        shutil.copytree(box.data, backup)
        try:
            overlay = damage(box)
            proc = box.snakemake(target, "--cores", "1", *QUICK, overlay=overlay)
        finally:
            shutil.rmtree(box.data)
            backup.rename(box.data)
            shutil.rmtree(box.own, ignore_errors=True)
        ok, line = stopped(proc, *expect)
        return ok and not (box.repo / target).exists(), line

    return Case(name, "source", run)


def rewrite(path: Path, change: Callable[[bytes], bytes]) -> None:
    path.write_bytes(change(path.read_bytes()))


def own_cmapss(change: Callable[[bytes], bytes], name: str = "train_FD001.txt"):
    def damage(box: Sandbox) -> str:
        rewrite(box.own_copy("cmapss") / name, change)
        return "cox_subgroups: {case_study: {source_dir: ../own/cmapss}}"

    return damage


def own_metabric(write: Callable[[Path], None]):
    def damage(box: Sandbox) -> str:
        write(box.own_copy("metabric") / "metabric.h5")
        return "cox_subgroups: {real: {metabric_source: ../own/metabric/metabric.h5}}"

    return damage


def own_lists(change: Callable[[Path], None]):
    def damage(box: Sandbox) -> str:
        box.own_copy("eeg_annotations")
        shutil.copytree(box.data / "szcore", box.own / "szcore")
        change(box.own / "eeg_annotations")
        return "seizure_benchmark: {source_dir: ../own}"

    return damage


def shared(path: str, change: Callable[[bytes], bytes]):
    def damage(box: Sandbox) -> None:
        rewrite(box.data / path, change)

    return damage


def metabric_without_test_events(path: Path) -> None:
    import h5py
    import numpy as np

    with h5py.File(path, "r") as source:
        arrays = {f"{g}/{k}": np.asarray(source[g][k]) for g in ("train", "test") for k in ("x", "t", "e")}
    path.unlink()
    with h5py.File(path, "w") as out:
        for key, value in arrays.items():
            if key != "test/e":
                out.create_dataset(key, data=value)


def metabric_with_nan(path: Path) -> None:
    import h5py

    with h5py.File(path, "r+") as h5:
        t = h5["train"]["t"][...]
        t[5] = float("nan")
        h5["train"]["t"][...] = t


def metabric_shuffled(box: Sandbox) -> None:
    """A different, valid METABRIC: the rows of train reversed (what 'replaced by different data' means)."""
    import h5py

    with h5py.File(box.data / "metabric" / "metabric.h5", "r+") as h5:
        for key in ("x", "t", "e"):
            h5["train"][key][...] = h5["train"][key][...][::-1]


def half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def extra_shared_list(box: Sandbox) -> None:
    """One more CHB-MIT summary beside the recorded ones: it matches the statistics rule's glob."""
    folder = box.data / "eeg_annotations"
    shutil.copy(folder / "chb05-summary.txt", folder / "chb99-summary.txt")


SOURCES = [
    source_case(
        "extra unrecorded seizure list in ../shared/data",
        STATS,
        extra_shared_list,
        "chb99-summary.txt: not one of the source files this project was built on",
    ),
    source_case(
        "C-MAPSS in ../shared/data truncated mid-line",
        CMAPSS,
        shared("cmapss/train_FD001.txt", half),
        "train_FD001.txt: contents differ",
    ),
    source_case(
        "METABRIC in ../shared/data replaced by different valid data",
        METABRIC,
        metabric_shuffled,
        "metabric.h5: contents differ",
    ),
    source_case(
        "seizure list in ../shared/data garbled",
        STATS,
        shared("eeg_annotations/Seizures-list-PN00.txt", lambda d: d.replace(b"Seizure n", b"S3izure n")),
        "Seizures-list-PN00.txt: contents differ",
    ),
    source_case(
        "ADBench file in ../shared/data with one byte changed",
        VERTEBRAL,
        shared("adbench_classical/39_vertebral.npz", flip_last),
        "39_vertebral.npz: contents differ",
    ),
    source_case(
        "SzCORE results in ../shared/data truncated",
        SZCORE,
        shared("szcore/results.json", half),
        "results.json: contents differ",
    ),
    source_case(
        "own C-MAPSS truncated mid-line",
        CMAPSS,
        own_cmapss(lambda d: d[: len(d) // 3 + 17]),
        "own/cmapss/train_FD001.txt: line",
        "does not have 26 numeric fields",
    ),
    source_case(
        "own C-MAPSS truncated at a line end",
        CMAPSS,
        own_cmapss(lambda d: b"\n".join(d.split(b"\n")[:8001]) + b"\n"),
        "own/cmapss/train_FD001.txt: expected engines 1..100",
    ),
    source_case(
        "own C-MAPSS with a garbled number",
        CMAPSS,
        own_cmapss(lambda d: d.replace(b" 518.67 ", b" 5x8.67 ", 1)),
        "own/cmapss/train_FD001.txt: line 2",
    ),
    source_case(
        "own C-MAPSS with a line missing",
        CMAPSS,
        own_cmapss(lambda d: b"\n".join(x for i, x in enumerate(d.split(b"\n")) if i != 50)),
        "own/cmapss/train_FD001.txt: line 51",
    ),
    source_case(
        "own C-MAPSS RUL file one value short",
        CMAPSS,
        own_cmapss(lambda d: b"\n".join(d.split(b"\n")[:-2]), "RUL_FD001.txt"),
        "RUL_FD001.txt: expected 100",
    ),
    source_case(
        "own C-MAPSS garbage bytes",
        CMAPSS,
        own_cmapss(lambda d: b"\x00\x01garbage\x02" * 300),
        "own/cmapss/train_FD001.txt",
    ),
    source_case(
        "own METABRIC garbage bytes",
        METABRIC,
        own_metabric(lambda p: p.write_bytes(b"not hdf5" * 300)),
        "metabric.h5: not a readable HDF5 file",
    ),
    source_case(
        "own METABRIC without test events",
        METABRIC,
        own_metabric(metabric_without_test_events),
        "metabric.h5: group 'test'",
    ),
    source_case(
        "own METABRIC with a NaN time",
        METABRIC,
        own_metabric(metabric_with_nan),
        "metabric.h5: train: x and t must be finite",
    ),
    source_case(
        "own METABRIC missing",
        METABRIC,
        lambda box: "cox_subgroups: {real: {metabric_source: ../own/nonesuch.h5}}",
        "nonesuch.h5",
    ),
    source_case(
        "own seizure list with a garbled line",
        STATS,
        own_lists(
            lambda d: rewrite(
                d / "Seizures-list-PN00.txt",
                lambda b: b.replace(b"Seizure start time: 21.08.29", b"Seizure strat time"),
            )
        ),
        "Seizures-list-PN00.txt: line 64",
    ),
    source_case(
        "own seizure list with a seizure's end missing",
        STATS,
        own_lists(
            lambda d: rewrite(d / "chb05-summary.txt", lambda b: b.replace(b"Seizure End Time: 532 seconds\n", b""))
        ),
        "chb05-summary.txt: line",
        "declares 1 seizures",
    ),
    source_case(
        "own seizure list binary garbage",
        STATS,
        own_lists(lambda d: (d / "Seizures-list-PN16.txt").write_bytes(b"\xff\xfe\x00\x01" * 40)),
        "Seizures-list-PN16.txt: not a text seizure list",
    ),
    source_case(
        "own seizure-list folder empty",
        STATS,
        own_lists(lambda d: [p.unlink() for p in d.iterdir()]),
        "eeg_annotations",
    ),
    source_case(
        "own SzCORE results garbage",
        SZCORE,
        own_lists(lambda d: (d.parent / "szcore" / "results.json").write_text("{not json")),
        "results.json",
    ),
]


# --- changed sources rerun their readers; lost outputs are rebuilt -------------------------------------


def stale_case(name: str, source: str, target: str) -> Case:
    def run(box: Sandbox) -> tuple[bool, str]:
        path = box.data / source
        original = path.read_bytes()
        box.snakemake(target, "--cores", "1", *QUICK)  # the source cases before left it missing, by design
        before = box.snakemake(target, "-n", "--cores", "1", *QUICK)
        path.write_bytes(flip_last(original))
        try:
            after = box.snakemake(target, "-n", "--cores", "1", *QUICK)
        finally:
            path.write_bytes(original)
        planned = "Nothing to be done" not in after.stdout and after.returncode == 0
        return (
            "Nothing to be done" in before.stdout and planned,
            "dry run plans the rule that reads it" if planned else "Nothing to be done (stale)",
        )

    return Case(name, "stale", run)


STALE = [
    stale_case(f"valid edit of {source}", source, target)
    for source, target in [
        ("metabric/metabric.h5", METABRIC),
        ("cmapss/test_FD001.txt", CMAPSS),
        ("eeg_annotations/chb08-summary.txt", STATS),
        ("szcore/results.json", SZCORE),
        ("adbench_classical/39_vertebral.npz", VERTEBRAL),
    ]
]


def lost_case(name: str, paper: str, path: str, by_path: bool = False) -> Case:
    """Delete one output and run the paper's target (``by_path``: ask for the file itself). A deleted intermediate
    under data/ is rebuilt by the paper's target too: ``paper_outputs`` requests it (workflow/rules/common.smk)."""

    def run(box: Sandbox) -> tuple[bool, str]:
        file = box.repo / path
        reference = file.read_bytes()
        file.unlink()
        proc = box.snakemake(path if by_path else paper, "--cores", "2", *SMOKE)
        ok = proc.returncode == 0 and file.exists() and file.read_bytes() == reference
        how = f"`snakemake {path}`" if by_path else "the paper's target"
        return ok, f"{how} rebuilt it, byte-identical" if ok else first_line(proc)

    return Case(name, "lost", run)


LOST = [
    lost_case(
        "deleted table (ski_rental consistency_robustness.csv)",
        "ski_rental",
        "results/smoke/ski_rental/tables/consistency_robustness.csv",
    ),
    lost_case(
        "deleted figure (massart_drift window_vs_drift.pdf)",
        "massart_drift",
        "results/smoke/massart_drift/figures/window_vs_drift.pdf",
    ),
    lost_case("deleted claims.json (ski_rental)", "ski_rental", "results/smoke/ski_rental/claims.json"),
    lost_case(
        "deleted intermediate data (ski_rental policies.csv), asked for by path",
        "ski_rental",
        "data/smoke/ski_rental/policies.csv",
        by_path=True,
    ),
    lost_case(
        "deleted intermediate data (ski_rental policies.csv), the paper's target",
        "ski_rental",
        "data/smoke/ski_rental/policies.csv",
    ),
]


# Faults whose checks live in the test suite rather than here (a user's model folder, a hostile tool call, a
# check that needs no Snakemake run); listed on docs/FAULTS.md so the page names every covered fault.
SUITE = [
    "Also covered by the test suite (each test fails on the code before issue 53):",
    "",
    "| fault | outcome | test |",
    "|---|---|---|",
    "| a model folder of another architecture (a causal LM with its tokenizer given as CLIP or block diffusion; a "
    "CLIP folder given as the causal LM), truncated or garbage weights, weights of another size, weights that "
    "leave layers uncovered: the LM toolkit, crl_bpt, focus_dllm, sheaf_repulsion, netdiff | one line naming the "
    "folder or file | `tests/common/test_model_folders.py` |",
    "| an unrecorded file beside the recorded ones in ../shared/data (chb99-summary.txt) | refused by name | "
    "`tests/common/test_sources.py::test_a_recorded_folder_is_a_closed_set` |",
    "| complex_mcp's distractors beyond the 199 distractor tools | refused before any job runs, naming the key | "
    "`tests/common/test_config_checks.py::test_no_config_value_is_clamped_silently` |",
    "| a 500-deep nested JSON tool argument | an error result, never an exception | "
    "`tests/complex_mcp/test_mcp_agents.py::test_untrusted_calls_get_error_results_never_exceptions` |",
    "| a deleted intermediate of any paper, the paper's target asked for | rebuilt with everything after it | "
    "`tests/workflow/test_papers.py::test_a_deleted_intermediate_is_rebuilt_with_everything_after_it` |",
    "| a config overlay that does not parse | file, line and column named (`make run`) | "
    "`tests/common/test_config_checks.py::test_a_config_overlay_that_does_not_parse_is_named_with_its_line` |",
    "| a failing job | one console line, the traceback in the job's log | "
    "`tests/common/test_runner_and_determinism.py::test_a_failing_rule_function_writes_its_traceback_to_the_log_"
    "and_one_line_to_the_console` |",
    "| a 200,000-definition Rocq spec | refused by size before parsing (0.2 s) | "
    "`tests/coins/test_harness.py::test_a_huge_candidate_is_refused_by_the_screening_in_little_time` |",
    "| a Rocq error in a candidate spec | cites the line of the candidate's own file | "
    "`tests/coins/test_harness.py::test_a_coq_error_cites_the_line_of_the_candidate_s_own_file` |",
]


# --- killed runs ---------------------------------------------------------------------------------------


def kill_case(sig: signal.Signals) -> Case:
    def run(box: Sandbox) -> tuple[bool, str]:
        repo = copy_repository(box.where / f"killed_{sig.name}" / "icml26")
        proc = subprocess.Popen(
            [sys.executable, "-m", "snakemake", "ski_rental", "--cores", "1", *SMOKE],
            cwd=repo,
            env=tool_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        marker = repo / "logs" / "smoke" / "ski_rental" / "policies.log"
        while not marker.exists() and proc.poll() is None:
            time.sleep(0.05)
        os.killpg(proc.pid, sig)
        proc.wait(timeout=600)
        results = repo / "results" / "smoke" / "ski_rental"
        (results / "tables").mkdir(parents=True, exist_ok=True)
        (results / "tables" / ".icml26-tmp.error_sweep.csv.k1ll3d.csv").write_text("half")  # as a killed write leaves
        steps = []
        if sig == signal.SIGKILL:
            steps.append(
                subprocess.run(
                    [sys.executable, "-m", "snakemake", "--unlock", *SMOKE],
                    cwd=repo,
                    env=tool_env(),
                    capture_output=True,
                    text=True,
                    check=False,
                )
            )
        steps.append(
            subprocess.run(
                [sys.executable, "-m", "snakemake", "ski_rental", "--cores", "2", *SMOKE, "--rerun-incomplete"],
                cwd=repo,
                env=tool_env(),
                capture_output=True,
                text=True,
                check=False,
            )
        )
        same = tree_digest(results) == tree_digest(box.repo / "results" / "smoke" / "ski_rental")
        leftovers = [p for p in repo.rglob(".icml26-tmp.*")]
        ok = all(s.returncode == 0 for s in steps) and same and not leftovers
        how = "--unlock, then rerun with --rerun-incomplete" if sig == signal.SIGKILL else "rerun"
        return ok, f"{how}: byte-identical, no leftovers" if ok else f"{how}: differs or leftovers {leftovers}"

    return Case(f"{sig.name} during a run, then resume", "kill", run)


KILLS = [kill_case(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)]
CASES = CONFIG + SOURCES + STALE + LOST + KILLS


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "FAULTS.md")
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if args.only in c.name]
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        box = Sandbox(Path(tmp))
        print("baseline: smoke runs of ski_rental and massart_drift, and the source readers at quick", flush=True)
        for step in (("ski_rental", "massart_drift", "--cores", "2", *SMOKE), (*READERS, "--cores", "2", *QUICK)):
            proc = box.snakemake(*step)
            if proc.returncode != 0:
                raise SystemExit(f"baseline failed: {first_line(proc)}")
        rows = []
        for i, case in enumerate(cases, 1):
            ok, line = case.run(box)
            verdict = (
                {"config": "error", "source": "error", "stale": "rerun"}.get(case.kind, "rebuilt") if ok else "FAULT"
            )
            rows.append((case.kind, case.name, verdict, line))
            print(f"[{i}/{len(cases)}] {verdict:7s} {case.name}: {line}", flush=True)
    faults = sum(r[2] == "FAULT" for r in rows)
    text = [
        "# Fault sweep",
        "",
        "Generated by `python scripts/fault_sweep.py`: each fault tried through the command line in",
        "a fresh copy of the repository. `error`: the run stopped with a line naming the key or file and left no",
        "stale output; `rerun`: a valid edit of a source file makes `snakemake -n` plan the rule that reads it;",
        "`rebuilt`: the run rebuilt what was lost or interrupted, byte-identical to a clean run.",
        "",
        "Resuming. After Ctrl-C (SIGINT) or SIGTERM, run the same command again (`make run` passes",
        "`--rerun-incomplete`, as the profiles in `workflow/profiles/` do, so a job Snakemake did not get to",
        "clean up is rerun, not reported as incomplete). After SIGKILL or a lost machine its lock stays: run",
        "`snakemake --unlock` once (same targets and config files), then the same command. A job that fails",
        "leaves the paper's committed claims.json in place and removes only one a run wrote here (its console",
        "line says so).",
        "",
        f"{len(rows)} cases, {faults} faults.",
        "",
        "| kind | case | outcome | what the user sees |",
        "|---|---|---|---|",
    ]
    text += [f"| {k} | {n} | {v} | `{line.replace('|', '/')[:220]}` |" for k, n, v, line in rows]
    text += ["", *SUITE]
    if not args.only:
        args.out.write_text("\n".join(text) + "\n", encoding="utf-8")
    print(f"{len(rows)} cases, {faults} faults" + ("" if args.only else f"; written to {args.out}"))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
