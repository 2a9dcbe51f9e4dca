"""`make gpu-check`: the paper-scale model paths on this machine's accelerator, on tiny replicas, in minutes.

In a scratch copy of the repository (the user's `external/` and results are never touched), `make fetch FROM=`
brings in replicas of every model and data set the papers' `paper:` sections name (icml26.common.lm.replicas), then one
Snakemake run builds, at smoke size, those papers with their paper-scale model keys and the smoke DAGs of the other
papers whose rules compute on the device, with `device: cuda` where torch sees a GPU (else `cpu`: the check passes
there too). complex_mcp's public tasks run against the replica sandbox, started here on free localhost ports for the
run (the reference's Docker sandbox is the paper-scale one). While it runs it prints Snakemake's progress lines
(`12 of 40 steps (30%) done`) and the jobs' own (`icml26: ...`); Snakemake's whole output goes to
`logs/gpu-check.log`, which it names and keeps. It prints one row per paper: device, dtype, seconds of its jobs, and
its verdict states. A failed job fails the check with Snakemake's one-line message.

    python scripts/gpu_check.py [--papers text_feedback_rl crl_bpt ...] [--cores N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

from icml26.common.checkouts import copy_repository, fetch_replicas

ROOT = Path(__file__).resolve().parents[1]

REPLICA_PAPERS = (
    "text_feedback_rl",
    "generalization_spectrum",
    "crl_bpt",
    "complex_mcp",
    "sheaf_repulsion",
    "focus_dllm",
    "manifold_microscope",
    "optifluence",
    "prism_moe",
)
DEVICE_PAPERS = ("netdiff", "cerebellar_control")  # their smoke DAGs on the device
LOG = ROOT / "logs" / "gpu-check.log"
PROGRESS = re.compile(r"^\d+ of \d+ steps \(\d+%\) done$|^icml26: ")  # the lines shown while it runs


def run_logged(command: list[str], cwd: Path) -> tuple[int, list[str]]:
    """Run ``command``, its output (both streams) to :data:`LOG`, its progress lines to the console as they come;
    the exit status and the ``icml26:`` lines."""
    LOG.parent.mkdir(parents=True, exist_ok=True)
    found = []
    with open(LOG, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            log.write(line)
            line = line.rstrip("\n")
            if PROGRESS.search(line):
                print(f"  {line}", flush=True)
                found += [line] if line.startswith("icml26:") else []
        return proc.wait(), found


def device() -> tuple[str, str]:
    import torch

    if torch.cuda.is_available():
        return "cuda", f"cuda ({torch.cuda.get_device_name(0)})"
    return "cpu", "cpu (no GPU visible)"


def seconds_of_jobs(repo: Path, slug: str) -> float:
    """The paper's job seconds from Snakemake's benchmark records (wall-clock, summed over its jobs)."""
    total = 0.0
    for record in (repo / "benchmarks" / "smoke" / slug).rglob("*.tsv"):
        lines = record.read_text().splitlines()
        if len(lines) >= 2:
            total += float(lines[1].split("\t")[0])
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", nargs="+", default=[*REPLICA_PAPERS, *DEVICE_PAPERS])
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    from icml26.common.lm import replicas

    setting, shown = device()
    where = Path(tempfile.mkdtemp(prefix="icml26-gpu-check-"))
    try:
        repo = fetch_replicas(copy_repository(where / "icml26"))
        overlay: dict = {}
        for slug in (p for p in args.papers if p in REPLICA_PAPERS):
            overlay |= replicas.overlay(slug, root=repo)
        with contextlib.ExitStack() as stack:
            if "complex_mcp" in overlay:  # its public tasks need a sandbox: the replica's, on localhost
                from icml26.complex_mcp.public_replica import Sandbox

                overlay["complex_mcp"]["public"]["servers"] = stack.enter_context(Sandbox())
            (repo / "replicas.yaml").write_text(yaml.safe_dump(overlay))
            print(f"gpu-check on {shown}: {', '.join(args.papers)} (smoke size; replicas of the papers' own models)")
            print(f"  Snakemake's output: {LOG}", flush=True)
            start = time.perf_counter()
            status, job_lines = run_logged(
                [
                    sys.executable,
                    "-m",
                    "snakemake",
                    *args.papers,
                    "--cores",
                    str(args.cores),
                    "--configfile",
                    "config/smoke.yaml",
                    "replicas.yaml",
                    "--config",
                    f"device={setting}",
                ],
                repo,
            )
        elapsed = time.perf_counter() - start
        if status:
            failed = [line for line in job_lines if " failed: " in line]
            print("\n".join(failed) or f"Snakemake stopped (exit {status}) before any job failed", file=sys.stderr)
            print(f"gpu-check FAILED after {elapsed:.0f} s; Snakemake's output: {LOG}", file=sys.stderr)
            return 1
        print("\n| paper | device | dtype | seconds (jobs) | verdict states |\n|---|---|---|---|---|")
        for slug in args.papers:
            claims = json.loads((repo / "results" / "smoke" / slug / "claims.json").read_text())
            states = ", ".join(f"{n} {s}" for s, n in sorted(Counter(c["state"] for c in claims).items()))
            # the paper section's training precision (bfloat16 autocast: weights float32, forward passes bf16)
            dtype = overlay.get(slug, {}).get("model", {}).get("precision", "float32")
            print(f"| {slug} | {setting} | {dtype} | {seconds_of_jobs(repo, slug):.1f} | {states} |")
        print(f"\ngpu-check passed in {elapsed:.0f} s; Snakemake's output: {LOG}")
        return 0
    finally:
        shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
