"""The registered papers (``workflow/papers.yaml``) and what every registered paper must have.

One list drives everything that spans papers: the Snakefile includes each paper's rules, the tests find
the papers to run, ``dvc.yaml`` is generated from it (``make dvc-stages``), and the benchmarks and the
README's papers table iterate over it. ``python -m icml26.common.registry check`` names a registered
paper's missing parts.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .config import load_yaml

REGISTRY = Path("workflow/papers.yaml")
SCALES = ("smoke", "quick", "paper")


@dataclass(frozen=True)
class Paper:
    slug: str
    data: tuple[str, ...] = ()  # external folders it reads (relative to the repository root)
    timing: bool = False  # writes wall-clock measurements to results/<scale>/<slug>/timing/
    units: tuple[str, ...] = ()  # steps whose finished jobs are kept and reused at paper scale (common.units)

    def parts(self) -> dict[str, str]:
        """What a registered paper consists of: part -> path relative to the repository root."""
        s = self.slug
        return {
            "package": f"src/icml26/{s}/__init__.py",
            "rule functions": f"src/icml26/{s}/rules.py",
            "verdict": f"src/icml26/{s}/verdict.py",
            "rules": f"workflow/rules/{s}.smk",
            "schema": f"workflow/schemas/{s}.schema.yaml",
            "config": f"config/papers/{s}.yaml",
            "captions": f"workflow/report/{s}",
            "docs page": f"docs/papers/{s}.md",
            "tests": f"tests/{s}",
        }


def papers(root: Path | str = ".") -> list[Paper]:
    """The registered papers, in the registry's order."""
    entries = load_yaml((Path(root) / REGISTRY).read_text(encoding="utf-8")) or {}
    out = []
    for slug, spec in entries.items():
        spec = spec or {}
        unknown = sorted(set(spec) - {"data", "timing", "units"})
        if unknown:
            raise ValueError(f"{REGISTRY}: {slug}: unknown key(s) {', '.join(unknown)} (allowed: data, timing, units)")
        out.append(
            Paper(slug, tuple(spec.get("data", ())), bool(spec.get("timing", False)), tuple(spec.get("units", ())))
        )
    return out


def missing_parts(root: Path | str, paper: Paper) -> list[str]:
    """``"<part> (<path>)"`` for each part the paper lacks; a config must also have a smoke section."""
    root = Path(root)
    missing = [f"{part} ({path})" for part, path in paper.parts().items() if not (root / path).exists()]
    config = root / paper.parts()["config"]
    if config.exists():
        scales = load_yaml(config.read_text(encoding="utf-8")) or {}
        missing += [
            f"{scale} config ({config.relative_to(root)}: {scale}:)"
            for scale in ("quick", "smoke")
            if scale not in scales
        ]
    return missing


def dvc_yaml(root: Path | str = ".") -> str:
    """``dvc.yaml``: one stage per paper and scale, wrapping the paper's Snakemake target."""
    lines = [
        "# GENERATED from workflow/papers.yaml by `make dvc-stages`: do not edit by hand.",
        "# DVC wraps each paper's Snakemake target, one stage per paper and scale:",
        "#   dvc repro ski_rental@smoke | ski_rental@quick | ski_rental@paper",
        "# Snakemake decides what to recompute inside a stage; DVC versions what it produced (data/ and",
        "# results/) so `dvc push` / `make pull` move results between machines. timing/ holds wall-clock",
        "# measurements (docs/ARCHITECTURE.md, 'Measured outputs'): versioned, never expected to repeat.",
        "stages:",
    ]
    for paper in papers(root):
        s = paper.slug
        deps = [
            "Snakefile",
            "workflow/papers.yaml",
            "workflow/rules/common.smk",
            f"workflow/rules/{s}.smk",
            f"workflow/schemas/{s}.schema.yaml",
            "src/icml26/common",
            f"src/icml26/{s}",
            "config/config.yaml",
            "config/${item}.yaml",
            f"config/papers/{s}.yaml",
            *paper.data,
        ]
        lines += [
            f"  {s}:",
            f"    foreach: [{', '.join(SCALES)}]",
            "    do:",
            f"      cmd: snakemake {s} --cores 2 --configfile config/${{item}}.yaml",
            "      deps:",
            *[f"        - {d}" for d in deps],
            "      outs:",
            f"        - data/${{item}}/{s}:",
            "            persist: true",
        ]
        for folder in ("tables", "figures", *(["timing"] if paper.timing else [])):
            lines += [f"        - results/${{item}}/{s}/{folder}:", "            persist: true"]
        lines += [
            f"        - results/${{item}}/{s}/claims.json:",
            "            cache: false",
            "            persist: true",
            f"        - results/${{item}}/{s}/provenance.json:",
            "            cache: false",
            "            persist: true",
            "      metrics:",
            f"        - results/${{item}}/{s}/metrics.json:",
            "            cache: false",
            "            persist: true",
        ]
    lines.append("# `dvc plots show` renders every paper's quick-scale figures.")
    lines.append("plots:")
    lines += [f"  - results/quick/{paper.slug}/figures" for paper in papers(root)]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "dvc":
        Path("dvc.yaml").write_text(dvc_yaml("."), encoding="utf-8")
        return 0
    if command == "check":
        problems = [f"{p.slug}: missing {part}" for p in papers(".") for part in missing_parts(".", p)]
        print("\n".join(problems) or f"{len(papers('.'))} registered papers, none lacks a part")
        return 1 if problems else 0
    print("usage: python -m icml26.common.registry [check|dvc]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
