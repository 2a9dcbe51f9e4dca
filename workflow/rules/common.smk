# Helpers every paper's rules use: config validation, register(), and the rule skeleton (complete_rules).
# Paper .smk files contain rules only; they call these helpers.

import os
import sys
from pathlib import Path
from types import SimpleNamespace

from icml26.common.codedeps import RuleFunctionError, rule_code
from icml26.common.config import ConfigError, check_settings, paper_section, validate, yaml_problem
from icml26.common.registry import papers as registered_papers

ROOT = Path(workflow.basedir)
SCHEMAS = ROOT / "workflow" / "schemas"
CALL = "../scripts/call.py"  # the one script every rule runs (relative to workflow/rules/)
GLOBAL_KEYS = ("scale", "device", "threads", "papers")
PAPERS = []  # slugs of registered papers, in include order; register() appends each


def config_error(message):
    """Stop before any job runs with one clear line (no traceback)."""
    sys.exit(f"icml26: {message}")


def check_config(section=None):
    """Validate the top level (section=None) or one paper's section; fail before any job runs."""
    try:
        if section is None:
            validate({k: config[k] for k in GLOBAL_KEYS if k in config}, SCHEMAS / "config.schema.yaml")
        else:
            validate(config[section], SCHEMAS / f"{section}.schema.yaml", prefix=section)
    except ConfigError as error:
        config_error(error)


def check_config_files():
    """Refuse a --configfile that gives a key twice: YAML keeps the last without a word. ``make run`` checks the
    same before Snakemake starts; this covers a plain `snakemake --configfile` (and DVC's stage commands)."""
    for path in workflow.overwrite_configfiles or ():
        problem = yaml_problem(path)
        if problem:
            config_error(f"invalid config file: {problem}")


check_config_files()
check_config()
SCALE = config["scale"]
REGISTERED = [paper.slug for paper in registered_papers(ROOT)]  # workflow/papers.yaml


def selected_papers():
    """The registered papers this run includes: the config's optional `papers` list, else all of them."""
    wanted = config.get("papers", REGISTERED)
    unknown = [slug for slug in wanted if slug not in REGISTERED]
    if unknown:
        config_error(
            f"invalid config: papers names {', '.join(unknown)}, not registered; registered papers: "
            + ", ".join(REGISTERED)
        )
    return [slug for slug in REGISTERED if slug in wanted]


def register(slug):
    """Register a paper: its settings at this scale (config/papers/<slug>.yaml, then the user's overlays
    under `<slug>:`), validated (schema, ranges, icml26.<slug>.settings), and its folders.

    data:    intermediate data and checkpoints (DVC-tracked)
    results: tables/, figures/, timing/, metrics.json, claims.json (DVC-tracked)
    logs, bench: one log and one benchmark TSV per job (complete_rules fills them in)
    """
    try:
        config[slug] = paper_section(ROOT / "config" / "papers" / f"{slug}.yaml", SCALE, config.get(slug))
    except (ConfigError, FileNotFoundError) as error:
        config_error(error)
    check_config(slug)
    try:
        check_settings(slug, config[slug])  # ranges, and the paper's cross-key constraints (icml26.<slug>.settings)
    except ConfigError as error:
        config_error(error)
    PAPERS.append(slug)
    return SimpleNamespace(
        slug=slug,
        cfg=config[slug],
        data=f"data/{SCALE}/{slug}",
        results=f"results/{SCALE}/{slug}",
        timing=f"results/{SCALE}/{slug}/timing",
        logs=f"logs/{SCALE}/{slug}",
        bench=f"benchmarks/{SCALE}/{slug}",
    )


def substitution(paper, *user_inputs):
    """What the paper's verdicts rest on: its `substitution` setting, naming the user's own inputs (dotted
    config keys, e.g. "model.checkpoint") where this run was given them in place of part of the stand-in."""
    from icml26.common.claims import substitution_text

    def value(key):
        found = paper.cfg
        for part in key.split("."):
            found = found.get(part) if isinstance(found, dict) else None
        return found

    return substitution_text(paper.cfg["substitution"], {key: value(key) for key in user_inputs})


def paper_threads(paper):
    """Threads for a paper's heavy rules: the paper's own setting, else the global one (never --cores)."""
    return paper.cfg.get("threads", config["threads"])


def gpus(paper):
    """GPUs a job that computes with torch on the configured device asks for: the paper's `resources.gpu` at this
    scale (none at smoke and quick, one at paper), none under `device: cpu`. SLURM turns it into `--gpus`."""
    return 0 if config["device"] == "cpu" else paper.cfg["resources"].get("gpu", 0)


def job_resources(paper, gpu=False):
    """A heavy rule's resources: the paper's `mem_mb` and `runtime` at this scale, plus its GPUs (:func:`gpus`)
    where the rule trains, decodes or measures on the configured device (`gpu=True`)."""
    found = {key: value for key, value in paper.cfg["resources"].items() if key != "gpu"}
    return found | ({"gpu": gpus(paper)} if gpu and gpus(paper) else {})


def paper_outputs(paper):
    """What a paper's target requests besides its tables and figures: verdict, metrics and their provenance, and
    any intermediate file that was deleted under results that summarise it (:func:`deleted_intermediates`)."""
    return [
        f"{paper.results}/claims.json",
        f"{paper.results}/metrics.json",
        f"{paper.results}/provenance.json",
        deleted_intermediates(paper),
    ]


def deleted_intermediates(paper):
    """An input function: the project files (under data/ or results/) that a finished job of ``paper`` read and that
    no longer exist. Snakemake (since 7.8) skips a job whose outputs are present even when one of its produced
    inputs was deleted, so results would outlive the run they summarise; requesting the deleted file as a target
    rebuilds it, and the jobs after it rerun because their input is updated. A finished job is one whose outputs
    all exist: for a rule with wildcards, found by matching its first output pattern against the files on disk."""
    from snakemake.exceptions import WildcardError
    from snakemake.io import apply_wildcards, contains_wildcard, glob_wildcards

    def finished(step):
        outputs = [str(o) for o in step.output]
        if not outputs:
            return
        if not any(contains_wildcard(o) for o in outputs):
            if all(os.path.exists(o) for o in outputs):
                yield {}
            return
        found = glob_wildcards(outputs[0])
        for values in zip(*found):
            wildcards = dict(zip(found._fields, values))
            try:
                if all(os.path.exists(apply_wildcards(o, wildcards)) for o in outputs):
                    yield wildcards
            except WildcardError:  # an output with a wildcard the first one lacks: not this rule's job
                continue

    def deleted(wildcards):
        missing = set()
        for step in workflow.rules:  # (snakemake --lint reads the word rule, a space and a colon as a rule)
            if not step.name.startswith(f"{paper.slug}_"):
                continue
            inputs = [str(i) for i in step.input if not callable(i)]
            inputs = [i for i in inputs if i.startswith(("data/", "results/"))]
            for job in finished(step) if inputs else ():
                for pattern in inputs:
                    try:
                        path = apply_wildcards(pattern, job) if job else pattern
                    except WildcardError:
                        continue
                    if not os.path.exists(path):
                        missing.add(path)
        return sorted(missing)

    return deleted


def paper_report(paper, path, caption, subcategory="tables"):
    """`results/<scale>/<slug>/<path>` in the HTML report, captioned by workflow/report/<slug>/<caption>.rst
    under the paper's category."""
    return report(
        f"{paper.results}/{path}",
        caption=f"../report/{paper.slug}/{caption}.rst",
        category=paper.slug,
        subcategory=subcategory,
    )


def table_report(paper, name):
    """A paper's table `tables/<name>.csv` in the report, captioned by `<name>.rst`."""
    return paper_report(paper, f"tables/{name}.csv", name)


def figure_outputs(paper, *names, captions=None, measured=False):
    """The outputs of a paper's one figure job (`<slug>_figures`, whose function draws every figure inside
    `icml26.common.figures.figure_set`): `<name>_png`, in the HTML report with the caption
    workflow/report/<slug>/<caption>.rst (`captions` maps a figure to its caption file where the names
    differ), and `<name>_pdf`, for results/<scale>/<slug>/figures/<name>.png and .pdf. `measured=True`: the
    figures of measured outputs, drawn by `<slug>_timing_figures` into timing/figures/ (docs/ARCHITECTURE.md,
    "Measured outputs"), reported under "measured"."""
    folder = f"{paper.timing}/figures" if measured else f"{paper.results}/figures"
    outputs = {}
    for name in names:
        caption = (captions or {}).get(name, name)
        outputs[f"{name}_png"] = report(
            f"{folder}/{name}.png",
            caption=f"../report/{paper.slug}/{caption}.rst",
            category=paper.slug,
            subcategory="measured" if measured else "figures",
        )
        outputs[f"{name}_pdf"] = f"{folder}/{name}.pdf"
    return outputs


def built_only(summary, *papers):
    """The summary and the papers' targets; when Snakemake only writes a report (`--report` without a target),
    just those already built, so a report works after building any subset of papers. A paper counts as built
    when every file its target lists exists: its claims.json alone does not tell, since git carries the quick ones
    (a fresh clone has all of them and none of their tables); a paper built halfway is left out with one line
    naming a missing file. The summary reads every paper's verdict, so it is reported only when all are built."""
    if not any(arg == "--report" or arg.startswith("--report=") for arg in sys.argv):
        return [summary, *papers]

    def missing(target):
        if callable(target):  # an input function (deleted_intermediates): it names files only when needed
            return []
        files = [target] if isinstance(target, str) else [f for f in target if isinstance(f, str)]
        return [f for f in files if not Path(f).exists()]

    kept, left = [], []
    for paper, target in zip(PAPERS, papers):
        (left if missing(target) else kept).append((paper, target))
    if left:
        shown = ", ".join(f"{p} ({missing(t)[0]})" for p, t in left[:3])
        more = f" and {len(left) - 3} more" if len(left) > 3 else ""
        print(f"icml26: the report leaves out what is not built: {shown}{more}", file=sys.stderr)
    return ([summary] if not left and not missing(summary) else []) + [t for _, t in kept]


def summary_folder():
    """Where the summary of this run's verdicts goes: results/<scale>/ for every registered paper, and
    results/<scale>/subset/ for a run of a subset (the config's `papers`), so a subset run never overwrites the
    summary of all papers (the committed quick one)."""
    return f"results/{SCALE}" if set(selected_papers()) == set(REGISTERED) else f"results/{SCALE}/subset"


def verdict_changes():
    """The log of verdict changes the summary lists (icml26.common.verdict_changes): the committed quick one, for the
    summary of every paper at quick scale (the results it describes); none elsewhere."""
    log = Path(f"results/{SCALE}/verdict_changes.yaml")
    return [str(log)] if summary_folder() == f"results/{SCALE}" and SCALE == "quick" and log.exists() else []


def summary_page():
    """The HTML report's first page: the rst summary of verdicts once `rule summary` has written it (a
    report is made after a run), else the workflow's description."""
    page = Path(f"{summary_folder()}/summary.rst")
    return str(page) if page.exists() else "workflow/report/workflow.rst"


def _wildcards_in_order(declared):
    names = []
    for item in declared.output:
        for part in str(item).split("{")[1:]:
            name = part.split("}")[0].split(",")[0]
            if name not in names:
                names.append(name)
    return names


def complete_rules():
    """The skeleton of every rule, in one place. Each one that names a function in `params.func` gets

    - the project source files that function executes as inputs (icml26.common.codedeps), so editing
      a plotting module reruns figure jobs only;
    - `log:` logs/<scale>/<slug>/<step>.log and `benchmark:` benchmarks/<scale>/<slug>/<step>.tsv
      (wildcard rules: <step>/<w1>/<w2>...), unless the rule declares its own;
    - the function as its docstring (`snakemake --list-rules`).
    Also stops on a config section that names no registered paper (a typo would be ignored otherwise).
    """
    unknown = sorted(set(config) - set(GLOBAL_KEYS) - set(REGISTERED))
    if unknown:
        config_error(
            f"invalid config: unknown section(s) {', '.join(unknown)}; registered papers: " + ", ".join(REGISTERED)
        )
    promised = {slug: [] for slug in PAPERS}
    declared_rules = [r for r in workflow.rules if isinstance(getattr(r.params, "func", None), str)]
    try:  # kept between starts in .snakemake/ (icml26.common.codedeps.rule_code)
        known = rule_code(
            [r.params.func for r in declared_rules], ROOT / "src", ROOT / ".snakemake" / "icml26" / "rule_code.json"
        )
    except RuleFunctionError as error:
        culprit = next(r.name for r in declared_rules if r.params.func == error.spec)
        # joined, so that snakemake --lint does not take the message for a rule definition
        config_error(" ".join(["rule", f"{culprit}: {error}"]))
    for declared in declared_rules:
        spec = declared.params.func
        code, summary = known[spec]
        for modifier in ("input_modifier", "log_modifier", "benchmark_modifier"):  # None where undeclared
            if getattr(declared, modifier) is None:
                setattr(declared, modifier, workflow.modifier.path_modifier)
        declared.set_input(*[str(path.relative_to(ROOT)) for path in code])
        slug = spec.split(".")[1]
        step = declared.name.removeprefix(f"{slug}_")
        where = Path(step, *(f"{{{w}}}" for w in _wildcards_in_order(declared))).as_posix()
        if not declared.log:
            declared.set_log(f"logs/{SCALE}/{slug}/{where}.log")
        if declared.benchmark is None:
            declared.benchmark = f"benchmarks/{SCALE}/{slug}/{where}.tsv"
        if not declared.docstring:
            declared.docstring = summary
        if slug in promised:  # a paper's rule (the summary's function lives in icml26.common)
            promised[slug] += [
                str(f) for f in declared.output if str(f).startswith(f"results/{SCALE}/{slug}/") and "{" not in str(f)
            ]
    for slug in PAPERS:
        outputs, target = promised[slug], workflow.get_rule(slug)
        if target.input_modifier is None:
            target.input_modifier = workflow.modifier.path_modifier
        target.set_input(*sorted(set(outputs) - {str(f) for f in target.input}))


def in_first_folder(folders, pattern):
    """An input function: ``pattern`` (with the job's wildcards) in the first of ``folders`` (one path or a list) that
    holds it, else in the first, which Snakemake then names as missing (dvm_ad reads ADBench's sets from two offline
    folders)."""
    folders = [folders] if isinstance(folders, str) else list(folders)

    def find(wildcards):
        paths = [f"{folder}/{pattern.format(**wildcards)}" for folder in folders]
        return next((p for p in paths if os.path.exists(p)), paths[0])

    return find


def claims_beside():
    """The committed verdicts of the other scales the summary shows beside this one's (icml26.common.summary)."""
    return [
        path
        for scale in ("quick", "paper")
        if scale != SCALE
        for slug in PAPERS
        for path in [f"results/{scale}/{slug}/claims.json"]
        if os.path.exists(path)
    ]
