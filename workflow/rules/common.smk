# Helpers every paper's rules use: config validation, output paths, rule settings.
# Paper .smk files contain rules only; they call these helpers.

import sys
from pathlib import Path
from types import SimpleNamespace

from icml26.common.config import ConfigError, validate

SCHEMAS = Path(workflow.basedir) / "workflow" / "schemas"
CALL = "../scripts/call.py"  # the one script every rule runs (relative to workflow/rules/)
PAPERS = []  # slugs of registered papers, in include order; each paper's .smk appends its own


def config_error(message):
    """Stop before any job runs with one clear line (no traceback)."""
    sys.exit(f"icml26: {message}")


def check_config(section=None):
    """Validate the whole config (section=None) or one paper's section; fail before any job runs."""
    try:
        if section is None:
            validate(config, SCHEMAS / "config.schema.yaml")
        else:
            if section not in config:
                raise ConfigError(f"invalid config: the section '{section}' is missing")
            validate(config[section], SCHEMAS / f"{section}.schema.yaml", prefix=section)
    except ConfigError as error:
        config_error(error)


check_config()
SCALE = config["scale"]


def register(slug):
    """Register a paper and return its folders for this scale.

    data:    intermediate data and checkpoints (DVC-tracked)
    results: tables/, figures/, metrics.json, claims.json (DVC-tracked)
    logs, bench: one log and one benchmark TSV per rule
    """
    check_config(slug)
    PAPERS.append(slug)
    return SimpleNamespace(
        slug=slug,
        cfg=config[slug],
        data=f"data/{SCALE}/{slug}",
        results=f"results/{SCALE}/{slug}",
        logs=f"logs/{SCALE}/{slug}",
        bench=f"benchmarks/{SCALE}/{slug}",
    )


def paper_threads(paper):
    """Threads per job: the paper's own setting, else the global one (never --cores)."""
    return paper.cfg.get("threads", config["threads"])


def paper_code(slug):
    """The library files a paper's results depend on: editing one reruns its rules."""
    src = Path(workflow.basedir) / "src" / "icml26"
    files = sorted([*(src / slug).glob("*.py"), *(src / "common").glob("*.py"), src / "__init__.py"])
    return [str(f.relative_to(workflow.basedir)) for f in files]


def paper_outputs(paper):
    """What a paper's target rule requests: its verdict, metrics, tables and figures."""
    return [f"{paper.results}/claims.json", f"{paper.results}/metrics.json"]
