"""What the schemas cannot say: ranges, integers that are integers, and each paper's cross-key constraints."""

import copy
import re
from pathlib import Path

import pytest

from icml26.common.config import ConfigError, check_settings, paper_section, validate
from icml26.common.registry import SCALES, papers
from tests.conftest import as_fetched

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"
SLUGS = [p.slug for p in papers(ROOT)]


def section(slug, scale="quick"):
    return paper_section(ROOT / "config" / "papers" / f"{slug}.yaml", scale)


def leaves(value, path=()):
    """(path, value) of every scalar in a nested config."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, (*path, i))
    else:
        yield path, value


def replaced(cfg, path, value):
    out = copy.deepcopy(cfg)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def dotted(slug, path):
    return slug + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def accepted(slug, cfg):
    try:
        validate(cfg, SCHEMAS / f"{slug}.schema.yaml", prefix=slug)
    except ConfigError:
        return False
    return True


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("slug", SLUGS)
def test_shipped_settings_pass_every_check(slug, scale, tmp_path, monkeypatch):
    """Every shipped section passes, the paper sections once `make fetch` has brought in what they read."""
    monkeypatch.chdir(as_fetched(section(slug, scale), tmp_path))
    check_settings(slug, section(slug, scale))


RANGES = [
    (slug, scale, path[:-1])
    for slug in SLUGS
    for scale in SCALES
    for path, _ in leaves(section(slug, scale))
    if path[-1] == "low"
]


def test_the_range_sweep_sees_every_paper_with_ranges():
    ranged = {"annealed_langevin", "cox_subgroups", "dvm_ad", "massart_drift", "netdiff"}
    assert {slug for slug, _, _ in RANGES} == ranged


@pytest.mark.parametrize("slug,scale,path", RANGES, ids=lambda x: x if isinstance(x, str) else ".".join(map(str, x)))
def test_a_reversed_range_is_rejected_naming_its_key(slug, scale, path, tmp_path, monkeypatch):
    cfg = section(slug, scale)
    monkeypatch.chdir(as_fetched(cfg, tmp_path))  # past the paper section's "not fetched yet" line
    bounds = cfg
    for key in path:
        bounds = bounds[key]
    reversed_cfg = replaced(replaced(cfg, (*path, "low"), bounds["high"]), (*path, "high"), bounds["low"])
    with pytest.raises(ConfigError, match=rf"{dotted(slug, path)}: low \(.*\) must be below high"):
        check_settings(slug, reversed_cfg)
    equal = replaced(cfg, (*path, "high"), bounds["low"])
    with pytest.raises(ConfigError, match=dotted(slug, path)):
        check_settings(slug, equal)
    if "points" in bounds:
        one_point = replaced(cfg, (*path, "points"), 1)
        assert not accepted(slug, one_point) or pytest.raises(ConfigError, check_settings, slug, one_point)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_float_where_an_integer_belongs_is_rejected_before_any_job(slug):
    """Every integer of the config: if the schema refuses x +- 0.5 there (an integer field), it refuses x.0."""
    cfg = section(slug)
    integer_fields = 0
    for path, value in leaves(cfg):
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if any(accepted(slug, replaced(cfg, path, value + d)) for d in (0.5, -0.5)):
            continue  # a number field: a float is fine there
        integer_fields += 1
        message = f"{dotted(slug, path)}: {float(value)} is not of type 'integer'"
        with pytest.raises(ConfigError, match=re.escape(message)):
            validate(replaced(cfg, path, float(value)), SCHEMAS / f"{slug}.schema.yaml", prefix=slug)
    assert integer_fields > 0


CROSS_KEY = {  # one broken cross-key constraint per paper that has them, and the message it must give
    "annealed_langevin": (lambda c: c["particles"].update(weights=[0.5, 0.6, 0.1]), "particles.weights must sum to 1"),
    "cerebellar_control": (lambda c: c.update(faults=["no_such_fault"]), "faults names ['no_such_fault']"),
    "coins": (lambda c: c.update(problems=[0]), "problems: HumanEval/0 has no gold spec"),
    "crl_bpt": (lambda c: c["search"].update(best_human=50), "search.best_human: 50 exceeds search.references (10)"),
    "focus_dllm": (lambda c: c["compare"].update(dense="focus_a1"), "compare.dense: focus_a1 is FOCUS decoding"),
    "netdiff": (lambda c: c["partial"].update(restarts=[5, 50]), "partial.restarts: must include training.diffusion"),
    "prism_moe": (lambda c: c["student"].update(top_k=9), "student.top_k: 9 exceeds student.experts (4)"),
    "cox_subgroups": (
        lambda c: c.update(methods=["base", "dg"], survival_views={"method": "prim"}),
        "survival_views.method 'prim' must be one of cox_subgroups.methods",
    ),
    "completep_rl": (lambda c: c.update(base_width=12345), "sweep.widths must contain"),
    "complex_mcp": (lambda c: c.update(agents=["oracle", "random"]), "agents must include skip_verification, no_retry"),
    "generalization_spectrum": (
        lambda c: c["evaluation"].update(k=[1, 99]),
        "evaluation.k: pass@99 needs at least that many evaluation.samples",
    ),
    "manifold_microscope": (
        lambda c: c["vae"].update(checkpoints=[c["vae"]["iterations"] + 1]),
        "vae.checkpoints: every checkpoint must be <= vae.iterations",
    ),
    "optifluence": (lambda c: c.update(transfer=["resnet"]), "transfer: resnet not among architectures"),
    "seizure_benchmark": (lambda c: c.update(algorithms=["nonesuch"]), "'nonesuch' has no entry"),
    "sheaf_repulsion": (lambda c: c["minimal"].update(candidates=2), "minimal.size: 3 edges cannot be drawn"),
    "ski_rental": (lambda c: c["figures"].update(lam=0.77), "figures.lam must be one of"),
    "text_feedback_rl": (
        lambda c: c["code"].update(length=1),
        "problems: the code task of length 1 has 55 distinct problems",
    ),
}


def test_every_paper_with_cross_key_constraints_has_a_case_here():
    """docs/ADDING_A_PAPER.md: a paper's settings.py brings one entry in CROSS_KEY; a missing one is named."""
    from tests.conftest import ROOT

    with_settings = {p.parent.name for p in (ROOT / "src" / "icml26").glob("*/settings.py")}
    assert with_settings - set(CROSS_KEY) == set(), "add a broken constraint of each to CROSS_KEY"


@pytest.mark.parametrize("slug", sorted(CROSS_KEY))
def test_each_paper_s_cross_key_constraint_names_its_key(slug):
    cfg = section(slug)
    break_it, message = CROSS_KEY[slug]
    break_it(cfg)
    with pytest.raises(ConfigError, match=f"invalid config: {slug}.") as err:
        check_settings(slug, cfg)
    assert message in str(err.value)


def test_checking_every_paper_s_settings_imports_no_torch():
    """``register`` runs the checks on every Snakemake start (the dry run's budget): a check that imports torch
    costs about two seconds on each."""
    import subprocess
    import sys

    probe = (
        "import sys; from icml26.common.registry import papers; from tests.common.test_config_checks import "
        "check_settings, section; [check_settings(p.slug, section(p.slug)) for p in papers()]; "
        "print(sorted(m for m in ('torch', 'transformers', 'sklearn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda c: c.update(distractors=[0, 5000]), "distractors: 5000 is more than the 199 distractor tools"),
        (lambda c: c["llm"].update(distractors=200), "llm.distractors: 200 is more than the 199 distractor tools"),
    ],
)
def test_no_config_value_is_clamped_silently(change, message):
    """complex_mcp's distractor counts used to be clamped to the tools there are while the rows kept the asked-for
    label (5000); a count beyond them is refused before any job runs (issue 53)."""
    cfg = section("complex_mcp")
    change(cfg)
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_settings("complex_mcp", cfg)


def test_a_config_overlay_that_does_not_parse_is_named_with_its_line(tmp_path, capsys):
    """Snakemake's own message for a bad --configfile names neither file nor line; ``make run`` checks first."""
    from icml26.common.config import main

    bad = tmp_path / "mine.yaml"
    bad.write_text("ski_rental:\n  lambdas: [0.5\n  figures: {}\n")
    listed = tmp_path / "list.yaml"
    listed.write_text("- ski_rental\n")
    assert main(["--configfile", "config/smoke.yaml", str(bad), str(listed)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"icml26: invalid config file: {bad}, line 3, column 10: not valid YAML (did not find expected ',' or ']')",
        f"icml26: invalid config file: {listed}: a config file must be a mapping of keys, got list",
    ]
    assert main(["--configfile", "config/smoke.yaml", "config/quick.yaml"]) == 0


def test_a_missing_config_file_is_named_and_a_mistyped_scale_lists_the_scales(tmp_path, capsys):
    from icml26.common.config import main

    assert main(["--configfile", "config/bogus.yaml", str(tmp_path / "mine.yaml")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "icml26: invalid config file: config/bogus.yaml: no such config file (SCALE= takes smoke, quick, paper)",
        f"icml26: invalid config file: {tmp_path / 'mine.yaml'}: no such config file",
    ]


def test_a_key_given_twice_in_an_overlay_is_named_with_both_lines(tmp_path, capsys):
    """YAML keeps the last of two equal keys without a word: the overlay said lambdas twice and ran with one."""
    from icml26.common.config import main

    twice = tmp_path / "mine.yaml"
    twice.write_text("ski_rental:\n  lambdas: [0.5]\n  error: {shift: [0.0], shift: [1.0]}\n")
    assert main([str(twice)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"icml26: invalid config file: {twice}, line 3: 'shift' is given twice in one mapping (also line 3); YAML "
        "keeps the last without a word, so say it once"
    )
    for shipped in [*(ROOT / "config").glob("*.yaml"), *(ROOT / "config" / "overlays").glob("*.yaml")]:
        assert main([str(shipped)]) == 0, shipped


FLOATS = [
    (slug, path)
    for slug in SLUGS
    for path, value in leaves(section(slug))
    if isinstance(value, float) and not isinstance(value, bool)
]


@pytest.mark.parametrize("slug", sorted({slug for slug, _ in FLOATS}))
@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_non_finite_number_is_refused_by_its_key(slug, bad):
    """YAML's .nan and .inf pass `type: number` and every bound (comparisons with NaN are false), so they are
    refused after the schema, naming the key (issue 67: `eta: .nan` ran). Every float setting of each paper."""
    for _, path in [f for f in FLOATS if f[0] == slug]:
        cfg = replaced(section(slug), path, bad)
        if not accepted(slug, cfg):  # a schema that refuses it already names the key
            continue
        with pytest.raises(ConfigError, match=re.escape(f"{dotted(slug, path)}: {bad} is not a finite number")):
            check_settings(slug, cfg)


DATA_FOLDERS = [  # (paper, the fetched data folder its paper section reads)
    ("optifluence", "external/optifluence/cifar10"),
    ("manifold_microscope", "external/manifold_microscope/coil20"),
    ("seizure_benchmark", "external/seizure_benchmark/eeg"),
    ("prism_moe", "external/prism_moe/NYUDv2"),
    ("cox_subgroups", "external/cox_subgroups/cmapss"),
]


@pytest.mark.parametrize("slug,folder", DATA_FOLDERS, ids=[s for s, _ in DATA_FOLDERS])
@pytest.mark.parametrize("bad", ["link out", "loop", "pipe"])
def test_a_data_folder_with_a_link_out_a_loop_or_a_pipe_stops_the_run_before_any_job(
    slug, folder, bad, tmp_path, monkeypatch
):
    """A CIFAR batch, a COIL-20 PNG, an EDF or a subject folder that linked out of the user's folder was read as data
    (issue 79): every folder a setting names is checked under one rule (config.folder_problems) before any job."""
    import os

    cfg = section(slug, "paper")
    monkeypatch.chdir(as_fetched(cfg, tmp_path))
    assert Path(folder).is_dir() and folder in str(cfg), "the paper section reads this folder"
    check_settings(slug, cfg)  # the replica as fetched passes
    inside = next(p for p in sorted(Path(folder).rglob("*")) if p.is_file())
    inside.unlink()
    {"link out": lambda: inside.symlink_to("/etc/passwd"), "loop": lambda: inside.symlink_to(inside),
     "pipe": lambda: os.mkfifo(inside)}[bad]()  # fmt: skip
    expected = {"link out": "leads out of", "loop": "leads nowhere or in a loop", "pipe": "named pipe"}[bad]
    with pytest.raises(ConfigError, match=rf"{slug}\..*: {re.escape(str(inside))} .*{expected}"):
        check_settings(slug, cfg)
