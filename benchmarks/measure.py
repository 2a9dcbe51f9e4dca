"""Platform benchmarks: DAG dry-run, no-op rebuild, and each paper's smoke and quick runs.

Runs in a fresh copy of the repository (so nothing here is touched) and writes
benchmarks/RESULTS.md. Per-rule timings of every run are in Snakemake's own
benchmark files, benchmarks/<scale>/<slug>/<rule>.tsv.

    python benchmarks/measure.py [--papers ski_rental] [--repeat 3] [--skip-full] [--scales smoke] [--warm]
    python benchmarks/measure.py --scales --skip-full --make-run   # only `make run` of every paper (hours)

``--workdir DIR`` keeps the copy and its outputs (e.g. to compare the quick verdicts with the committed
ones). ``--skip-full`` leaves out the no-op rebuild of everything, which first builds every paper at quick
scale (the sum of all quick runs); its previous row is kept.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from icml26.common.checkouts import copy_repository, tool_env

ROOT = Path(__file__).resolve().parents[1]

from icml26.common import docs, machine  # noqa: E402
from icml26.common.registry import papers as registered  # noqa: E402

# (smoke, quick) targets: every paper's smoke DAG <= 30 s, its quick run <= 20 min unless its issue set less
DEFAULT_TARGETS = ("<= 30 s", "<= 20 min")
TARGETS = {
    "ski_rental": ("<= 30 s", "< 2 min"),
    "massart_drift": ("<= 30 s", "<= 10 min"),
    "dvm_ad": ("<= 30 s", "<= 15 min"),
    "annealed_langevin": ("<= 30 s", "<= 15 min"),
    "cox_subgroups": ("<= 30 s", "<= 15 min"),
    "manifold_microscope": ("<= 30 s", "<= 15 min"),
    "complex_mcp": ("<= 30 s", "<= 10 min"),
    "coins": ("<= 30 s", "<= 15 min"),
    "generalization_spectrum": ("<= 30 s", "<= 30 min"),
    "prism_moe": ("<= 30 s", "<= 25 min"),
    "optifluence": ("<= 30 s", "<= 25 min"),  # issue 52: Fashion-MNIST off the ceiling
    "text_feedback_rl": ("<= 30 s", "<= 30 min"),  # issue 51
    "focus_dllm": ("<= 30 s", "<= 25 min"),  # issue 51: an 8-layer stand-in
    "sheaf_repulsion": ("<= 30 s", "<= 25 min"),  # issue 51: discovery towards convergence
}
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
COMPONENTS = [  # benchmarks of one computation, each written by its own script beside this one
    "Component benchmarks (each written by its own script in `benchmarks/`): `LM_TOOLKIT.md` (the shared LM",
    "toolkit's training and sampling), `FOCUS_DLLM.md` (block-diffusion decoding), `MANIFOLD_SINGULARITIES.md`",
    "(grid estimators at coordinate singularities), `MANIFOLD_CURVATURE.md` (scalar curvature, pairwise",
    "contractions against the naive einsum).",
    "",
]
WARM_SMOKE = "smoke run, fork server"  # `make run SCALE=smoke WARM=1 PAPER=<slug>` (icml26.common.forkserver)
MAKE_RUN = (docs.MAKE_RUN, "<= 3 h")  # issue 67


NOT_RECORDED = "not recorded"  # rows measured before RESULTS.md named the machine of each row


def this_machine() -> str:
    """The day and machine a row is measured on: rows are kept across runs, so each names its own (one 2-core
    machine ran the same quick runs in 0.3-0.75x the time of another; both said 'AMD EPYC', their BLAS kernels
    differed)."""
    blas = machine.kernels(machine.blas())
    return f"{time.strftime('%Y-%m-%d')}, {machine.cpu_model()}, {os.cpu_count()} CPUs, {blas}"


def previous_rows() -> dict[str, tuple[float, str, str]]:
    """Rows of the last RESULTS.md (seconds, target, machine), kept for papers not measured this time."""
    if not RESULTS.exists():
        return {}
    return {
        name: (seconds, later[0], later[1] if len(later) > 1 else NOT_RECORDED)
        for name, (seconds, later) in docs.benchmark_rows(RESULTS).items()
    }


def target_of(name: str, previous: str) -> str:
    """The current target of a '<slug> smoke run' / '<slug> quick run' row (targets are not measurements)."""
    slug, _, kind = name.partition(" ")
    scale = {"smoke run": 0, WARM_SMOKE: 0, "quick run": 1}.get(kind)
    return TARGETS.get(slug, DEFAULT_TARGETS)[scale] if scale is not None else previous


def timed(args: list[str], cwd: Path, warm: bool = False) -> float:
    """Seconds of one command from the venv; ``warm``: under a fork server of its own, started and stopped
    with it (``make run WARM=1``), so its import time counts."""
    command = [str(Path(sys.executable).parent / args[0]), *args[1:]]
    if warm:
        command = [sys.executable, "-m", "icml26.common.forkserver", "run", "--", *command]
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=tool_env(warm=False), check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", nargs="+", default=[p.slug for p in registered(ROOT)])
    parser.add_argument("--repeat", type=int, default=3, help="repeats of the fast measurements (median reported)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--skip-full", action="store_true", help="skip the no-op rebuild (needs every quick run)")
    parser.add_argument("--workdir", type=Path, help="run in this (new) folder and keep it, outputs included")
    parser.add_argument(
        "--make-run", action="store_true", help="time `make run` in the copy: every paper at quick from nothing"
    )
    parser.add_argument(
        "--scales",
        nargs="*",
        choices=["smoke", "quick"],
        default=["smoke", "quick"],
        help="the per-paper runs to measure (the others keep their previous rows)",
    )
    parser.add_argument(
        "--warm", action="store_true", help=f"also time each smoke run under a fork server ('<slug> {WARM_SMOKE}' rows)"
    )
    args = parser.parse_args()
    cores = str(args.cores)
    machine = this_machine()
    papers = []
    noop_name = "no-op rebuild of everything (quick)"
    with tempfile.TemporaryDirectory() as tmp:
        repo = copy_repository((args.workdir or Path(tmp)) / "icml26")
        dry = [timed(["snakemake", "-n", "--cores", cores], repo) for _ in range(args.repeat)]
        dry_row = ("dry-run of the full DAG (quick)", statistics.median(dry), "< 5 s", machine)
        for paper in args.papers:
            for scale, target in zip(("smoke", "quick"), TARGETS.get(paper, DEFAULT_TARGETS)):
                if scale not in args.scales:
                    continue
                command = ["snakemake", paper, "--cores", cores, "--configfile", f"config/{scale}.yaml"]
                papers.append((f"{paper} {scale} run", timed(command, repo), target, machine))
                if scale == "smoke" and args.warm:  # from scratch again: the first run's outputs set aside
                    for folder in ("results", "data"):
                        shutil.rmtree(repo / folder / "smoke" / paper, ignore_errors=True)
                    papers.append((f"{paper} {WARM_SMOKE}", timed(command, repo, warm=True), target, machine))
        if args.make_run:  # the command a user runs: the pinned environment named by VENV, the copy's own outputs
            venv = Path(sys.executable).parent.parent
            start = time.perf_counter()
            subprocess.run(
                ["make", "run", f"VENV={venv}", f"CORES={cores}"], cwd=repo, env=tool_env(warm=False), check=True
            )
            papers.append((MAKE_RUN[0], time.perf_counter() - start, MAKE_RUN[1], machine))
        if not args.skip_full:
            timed(["snakemake", "--cores", cores], repo)  # everything else (e.g. the summary) first
            noop = [timed(["snakemake", "--cores", cores], repo) for _ in range(args.repeat)]
            noop_row = (noop_name, statistics.median(noop), "< 10 s", machine)
    previous = previous_rows()
    if args.skip_full:
        noop_row = (noop_name, *previous.get(noop_name, (float("nan"), "< 10 s", NOT_RECORDED)))
    measured = {row[0] for row in papers} | {dry_row[0], noop_name}
    papers += [
        (name, seconds, target_of(name, target), on)
        for name, (seconds, target, on) in previous.items()
        if name not in measured
    ]
    rows = [dry_row, *sorted(papers), noop_row]
    lines = [
        "# Platform benchmarks",
        "",
        f"Measured by `make bench` (`benchmarks/measure.py`) with Python {platform.python_version()},"
        f" `--cores {cores}`; wall-clock seconds",
        "including Snakemake start-up. Each row names the day and machine it was measured on: rows not measured",
        "again are kept, and one 2-core machine ran the same quick runs in 0.3-0.75x the time of another.",
        "Per-rule times: `benchmarks/<scale>/<slug>/*.tsv`.",
        "",
        "| measurement | seconds | target | measured on |",
        "|---|---|---|---|",
        *[f"| {name} | {seconds:.1f} | {target} | {on} |" for name, seconds, target, on in rows],
        "",
        *COMPONENTS,
    ]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
